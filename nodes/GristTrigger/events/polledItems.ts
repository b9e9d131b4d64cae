/**
 * The Grist Trigger's output items, one shape for every event: with Simplify
 * `{ id, <cells…>, errors?, _display?, _change }`, without `{ id, fields, errors?, _display?,
 * _change }`. `_change` says what happened to the row (`{ type: 'added' | 'updated' | 'deleted',
 * … }`); like `_display` it starts with `_`, which no Grist column ID does. Also the latest record
 * that a manual run shows as a sample.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { GristFilter } from '../../Grist/query/filters';
import { simplifyRecord, type GristRecord } from '../../Grist/cells/cellValues';
import { columnTypes, type GristColumn } from '../../Grist/cells/tableColumns';
import { readTriggerReferenceDisplay } from '../../Grist/parameters/referenceDisplayOption';
import { ReferenceDisplay } from '../../Grist/read/referenceDisplay';
import { checkColumns } from '../columnChecks';
import { noSample } from '../pollErrors';
import type { PollContext } from './pollEvent';

/** Records as items: flat with Simplify, else Grist's `{ id, fields, errors? }`. */
export function recordItems(
	ctx: PollContext,
	records: GristRecord[],
	columns: GristColumn[],
): INodeExecutionData[] {
	const types = columnTypes(columns);
	const json: IDataObject[] = records.map((r) => {
		if (ctx.settings.simplify) return simplifyRecord(r, types);
		const raw: IDataObject = { id: r.id, fields: r.fields as IDataObject };
		if (r.errors && Object.keys(r.errors).length > 0) raw.errors = r.errors as IDataObject;
		return raw;
	});
	return ctx.fn.helpers.returnJsonArray(json);
}

/**
 * `_display` on each item (from `records[i].fields`, cells of the watched table, whose id is
 * `tableId` after a rename) when the option is on.
 */
export async function addPolledDisplay(
	ctx: PollContext,
	columns: GristColumn[],
	records: GristRecord[],
	items: INodeExecutionData[],
	tableId = ctx.settings.tableId,
): Promise<void> {
	if (!readTriggerReferenceDisplay(ctx.fn)) return;
	const { docId, simplify } = ctx.settings;
	await new ReferenceDisplay(ctx.client).add(
		{ docId, tableId },
		columns,
		records.map((r) => r.fields),
		items.map((i) => i.json),
		simplify,
	);
}

/** What happened to a row: `_change` of its item. */
export type RowChangeType = 'added' | 'updated' | 'deleted';

/** Sets `_change` on each item, last (after the cells and `_display`). */
export function addChange(items: INodeExecutionData[], changes: IDataObject[]): void {
	items.forEach((item, i) => {
		item.json._change = changes[i];
	});
}

/** The records as items, with `_display` when the option is on and `_change` from `change`. */
export async function emitRecords(
	ctx: PollContext,
	records: GristRecord[],
	columns: GristColumn[],
	change: (record: GristRecord) => RowChangeType,
): Promise<INodeExecutionData[]> {
	const items = recordItems(ctx, records, columns);
	await addPolledDisplay(ctx, columns, records, items);
	addChange(
		items,
		records.map((r) => ({ type: change(r) })),
	);
	return items;
}

/**
 * A manual run: the table's latest record in `sort` order (`filter`: the user's Filter, see
 * ./recordPolling.ts), and the table's columns (checked); an error when there is none.
 */
export async function latestRecord(
	ctx: PollContext,
	sort: string,
	filter?: GristFilter,
): Promise<{ record: GristRecord; columns: GristColumn[] }> {
	const columns = await checkColumns(ctx);
	const [record] = await ctx.fetch({ sort, limit: 1, filter });
	if (!record) throw noSample(ctx.fn.getNode(), ctx.settings.tableId, filter !== undefined);
	return { record, columns };
}
