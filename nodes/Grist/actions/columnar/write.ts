/**
 * Columnar create and update: rows of all items of one table (and the same column set) go out
 * together in `/data` requests, chunked like record writes (the record write pipeline:
 * write/collect.ts, write/send.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { decodeCellValue } from '../../cells/cellValues';
import type { GristClient } from '../../api/client';
import { columnarToRows, readColumnar, rowsToColumnar } from './columnarData';
import { parseRowIds } from '../../parameters/rowIds';
import { writeColumnarData } from '../../api/columnar';
import { encodeFields, refuseUnknownColumns } from '../../write/fields';
import { noparseQuery } from '../../parameters/writeOptions';
import { type TableInfo } from '../../api/schemaCache';
import { type Target } from '../../api/paths';
import { addItem, itemTable, itemTarget, startWrite, type WriteSpec } from '../../write/collect';
import type { WriteGroup, WriteUnit } from '../../write/plan';
import { refuseItem } from '../../write/report';
import { finishWrite } from '../../write/send';

const COLUMNAR: WriteSpec = { envelopeBytes: 2, columns: true, batchSize: true };

export async function writeColumnar(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	mode: 'create' | 'update',
): Promise<INodeExecutionData[]> {
	const write = startWrite<IDataObject>(ctx, client, items.length, COLUMNAR);
	const options = noparseQuery.call(ctx);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = itemTarget(write, itemIndex);
			const data = readColumnar.call(ctx, itemIndex, mode === 'update');
			const table = await itemTable(write, target, itemIndex);
			const records = columnarRows(ctx, data, table, target, itemIndex, mode);
			const grouping = { fieldSet: Object.keys(records[0]) };
			addItem(write, itemIndex, target, table, records, grouping, options.of(itemIndex));
		} catch (error) {
			refuseItem(write.report, itemIndex, error);
		}
	}
	return await finishWrite(write, async (group, records, units) => {
		const columnar = rowsToColumnar(records);
		const res = await writeColumnarData(
			client,
			group.target,
			mode,
			columnar,
			group.qs,
			units[0].itemIndex,
		);
		return columnarOutputs(units, res, group, mode);
	});
}

/** An item's columnar object as the rows of a `/data` body, checked and encoded for the table. */
function columnarRows(
	ctx: IExecuteFunctions,
	data: Record<string, unknown[]>,
	table: TableInfo,
	target: Target,
	itemIndex: number,
	mode: 'create' | 'update',
): IDataObject[] {
	// `id` holds the row IDs (update) or is dropped (create).
	const named: IDataObject = {};
	for (const key of Object.keys(data))
		if (key !== 'id') named[key] = data[key] as IDataObject[string];
	refuseUnknownColumns.call(ctx, named, table, target, itemIndex);
	return columnarToRows(data).map((row) => {
		const { id, ...fields } = row;
		const encoded = encodeFields.call(ctx, fields, table.byId, itemIndex);
		if (mode === 'create') return encoded;
		return { id: parseRowIds.call(ctx, id, itemIndex, 'id')[0], ...encoded };
	});
}

/** Each item's output: its columns, decoded, and for a create the new row IDs. */
function columnarOutputs(
	units: Array<WriteUnit<IDataObject>>,
	res: unknown,
	group: WriteGroup,
	mode: 'create' | 'update',
): IDataObject[][] {
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
}
