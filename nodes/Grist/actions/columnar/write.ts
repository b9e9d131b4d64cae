/**
 * Columnar create and update: rows of all items of one table (and the same column set) go out
 * together in `/data` requests, chunked like record writes.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { executeWrite } from '../batch';
import { decodeCellValue } from '../../cells/cellValues';
import type { GristClient } from '../../transport';
import { columnarToRows, readColumnar, rowsToColumnar } from './columnarData';
import { parseRowIds } from '../../parameters/rowIds';
import { readNoparse } from '../../parameters/writeOptions';
import { writeColumnarData } from '../../transport/api';
import { encodeFields, refuseUnknownColumns } from '../fields';

export async function writeColumnar(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	mode: 'create' | 'update',
): Promise<INodeExecutionData[]> {
	return await executeWrite(ctx, client, items, {
		envelopeBytes: 2,
		columns: true,
		batchSize: true,
		readFirst: (itemIndex) => readColumnar.call(ctx, itemIndex, mode === 'update'),
		read: (itemIndex, target, table, data) => {
			// `id` holds the row IDs (update) or is dropped (create).
			const named: IDataObject = {};
			for (const key of Object.keys(data))
				if (key !== 'id') named[key] = data[key] as IDataObject[string];
			refuseUnknownColumns.call(ctx, named, table, target, itemIndex);
			const records = columnarToRows(data).map((row) => {
				const { id, ...fields } = row;
				const encoded = encodeFields.call(ctx, fields, table.byId, itemIndex);
				if (mode === 'create') return encoded;
				return { id: parseRowIds.call(ctx, id, itemIndex, 'id')[0], ...encoded };
			});
			return { records, fieldSet: Object.keys(records[0]) };
		},
		options: (itemIndex) => ({ noparse: readNoparse.call(ctx, itemIndex) }),
		send: async (group, records, units) => {
			const res = await writeColumnarData(
				client,
				group.target,
				mode,
				rowsToColumnar(records),
				group.qs,
				units[0].itemIndex,
			);
			let offset = 0;
			return units.map((u) => {
				const json: IDataObject = {};
				const columnar = rowsToColumnar(u.records);
				if (mode === 'create')
					json.id = Array.isArray(res) ? res.slice(offset, offset + u.records.length) : [];
				offset += u.records.length;
				for (const [k, values] of Object.entries(columnar)) {
					json[k] =
						k === 'id'
							? values
							: (values.map((v) => decodeCellValue(v, group.types[k])) as IDataObject[string]);
				}
				return [json];
			});
		},
	});
}
