/**
 * Columnar create and update: rows of all items of one table (and the same column set) go out
 * together in `/data` requests, chunked like record writes.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { executeBatched, type BatchOptions, type WriteGroup } from '../batch';
import { decodeCellValue } from '../../helpers/cells';
import type { GristClient } from '../../transport';
import { columnarToRows, readColumnar, rowsToColumnar } from './shared';
import { readTarget } from '../../parameters/locators';
import { noparseQs, parseRowIds, readBatchSize } from '../../parameters/writeOptions';
import { ColumnCache, targetKey, writeColumnarData } from '../../transport/api';
import { encodeFields, refuseUnknownColumns } from '../fields';

export async function writeColumnar(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	mode: 'create' | 'update',
): Promise<INodeExecutionData[]> {
	const cache = new ColumnCache(client);
	const options: BatchOptions<IDataObject, WriteGroup> = {
		envelopeBytes: 2,
		maxItemsOf: (group) => group.batchSize,
		prepare: async (itemIndex) => {
			const target = readTarget.call(ctx, itemIndex);
			const data = readColumnar.call(ctx, itemIndex, mode === 'update');
			const table = await cache.info(target, itemIndex);
			const columns = table.byId;
			// `id` holds the row IDs (update) or is dropped (create).
			const named: IDataObject = {};
			for (const key of Object.keys(data))
				if (key !== 'id') named[key] = data[key] as IDataObject[string];
			refuseUnknownColumns.call(ctx, named, table, target, itemIndex);
			const rows = columnarToRows(data).map((row) => {
				const { id, ...fields } = row;
				const encoded = encodeFields.call(ctx, fields, columns, itemIndex);
				if (mode === 'create') return encoded;
				return { id: parseRowIds.call(ctx, id, itemIndex, 'id')[0], ...encoded };
			});
			const qs = noparseQs.call(ctx, itemIndex);
			const keys = Object.keys(rows[0]).sort();
			const batchSize = readBatchSize.call(ctx, itemIndex);
			return {
				key: JSON.stringify([targetKey(target), qs, keys, batchSize]),
				group: { target, qs, types: table.types, batchSize },
				records: rows,
			};
		},
		send: async (group, units, records) => {
			const res = await writeColumnarData(
				client,
				group.target,
				mode,
				rowsToColumnar(records),
				group.qs,
				units[0].itemIndex,
			);
			let offset = 0;
			return {
				outputs: units.map((u) => {
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
				}),
			};
		},
	};
	return await executeBatched(ctx, items, options);
}
