/**
 * The Grist Trigger's output items: records as items (Simplify), `_display` on them when Options
 * → Add Reference Display Values is on, and the latest record that a manual run shows as a sample.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

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

/** The records as items, with `_display` when the option is on. */
export async function emitRecords(
	ctx: PollContext,
	records: GristRecord[],
	columns: GristColumn[],
): Promise<INodeExecutionData[]> {
	const items = recordItems(ctx, records, columns);
	await addPolledDisplay(ctx, columns, records, items);
	return items;
}

/**
 * A manual run: the table's latest record in `sort` order (user filter applied), and the table's
 * columns (checked); an error when there is none.
 */
export async function latestRecord(
	ctx: PollContext,
	sort: string,
): Promise<{ record: GristRecord; columns: GristColumn[] }> {
	const columns = await checkColumns(ctx);
	const { filter, tableId } = ctx.settings;
	const [record] = await ctx.fetch({ sort, limit: 1, filter });
	if (!record) throw noSample(ctx.fn.getNode(), tableId, filter !== undefined);
	return { record, columns };
}
