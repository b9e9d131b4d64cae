/**
 * Row Deleted, Row Updated and Row Added, Updated or Deleted (`anyChange`): the watched table's
 * row changes in Grist's document history since the cursor's history state (read by
 * ./changeHistory.ts), one item per row change whose row matches the Filter (its current values;
 * a deleted row's last values). No idle check besides the document's `updatedAt`.
 */
import { NodeApiError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { simplifyFields, simplifyRecord, type GristRecord } from '../../Grist/cells/cellValues';
import { columnTypes, type GristColumn } from '../../Grist/cells/tableColumns';
import {
	classifyChanges,
	tableIdAfter,
	type RowChange,
	type TableDelta,
} from '../../Grist/history/rowChangeDecoding';
import { fetchColumns } from '../../Grist/api/columns';
import { toNodeError } from '../../Grist/errors/nodeErrors';
import { checkConditions, filterMatches, rowMatches } from '../../Grist/query/rowMatch';
import { checkColumns } from '../columnChecks';
import { CONDITIONS_HINT, HISTORY_RESTARTED, historyForbidden, tableDeleted } from '../pollErrors';
import { conditionsByRowId, rowFilter } from './recordPolling';
import type { ChangeEvent } from '../triggerSettings';
import {
	compareSince,
	currentRows,
	latestState,
	recentActions,
	withValuesAtDeletion,
	type Compared,
} from './changeHistory';
import { addChange, addPolledDisplay, latestRecord } from './polledItems';
import type { PollContext, PollEvent, PollResult } from './pollEvent';

export interface ChangesState {
	kind: ChangeEvent;
	/** The hash of the last history state seen. */
	h: string;
	/** The table's id when Grist renamed it since the trigger's Table was picked. */
	table?: string;
}

/** The module of a change event. */
export function rowChangesEvent(event: ChangeEvent): PollEvent<ChangesState> {
	return {
		async baseline(ctx) {
			// a Filter that cannot run fails the activation, not a later poll
			if (ctx.settings.filter && 'conditions' in ctx.settings.filter)
				await changeFilter(ctx, await checkColumns(ctx));
			return { kind: event, h: await latestState(ctx.client, ctx.settings.docId) };
		},
		async isIdle() {
			return false;
		},
		async poll(ctx, cursor) {
			return await pollChanges(ctx, event, cursor);
		},
		async sample(ctx) {
			return await sampleChange(ctx, event);
		},
	};
}

/** The changes since the cursor's history state. */
async function pollChanges(
	ctx: PollContext,
	event: ChangeEvent,
	cursor: ChangesState,
): Promise<PollResult<ChangesState>> {
	const { docId, onLostHistory } = ctx.settings;
	const node = ctx.fn.getNode();
	const since = await compareSince(ctx.client, node, docId, cursor.h, onLostHistory);
	if ('restartAt' in since) {
		ctx.fn.logger.warn(HISTORY_RESTARTED);
		return { items: [], cursor: { kind: event, h: since.restartAt }, more: false };
	}
	// A table renamed in Grist is followed: the cursor keeps its new id.
	const fromTable = cursor.table ?? ctx.settings.tableId;
	const tableId = tableIdAfter(since.summary, fromTable);
	if (tableId === null) throw tableDeleted(node, ctx.settings.tableId);
	const delta = since.summary?.tableDeltas?.[tableId];
	const items = delta ? await changeItems(ctx, event, since, { fromTable, tableId, delta }) : [];
	// The cursor moves only now, after every request of this poll succeeded.
	const next: ChangesState =
		tableId === ctx.settings.tableId
			? { kind: event, h: since.right.h }
			: { kind: event, h: since.right.h, table: tableId };
	return { items, cursor: next, more: false };
}

/** The items of the table's row changes that `event` emits. */
async function changeItems(
	ctx: PollContext,
	event: ChangeEvent,
	since: Compared,
	table: { fromTable: string; tableId: string; delta: TableDelta },
	known?: GristColumn[],
): Promise<INodeExecutionData[]> {
	const { client, settings } = ctx;
	const { tableId } = table;
	const columns = known ?? (await fetchColumns(client, { docId: settings.docId, tableId }));
	const types = columnTypes(columns);
	const classify = { columns: columns.map((c) => c.id), types };
	const changed = await withValuesAtDeletion(
		client,
		settings.docId,
		since,
		table.fromTable,
		classifyChanges(table.delta, { ...classify, watchedColumns: settings.watchedColumns }).filter(
			(c) => wanted(event, c),
		),
		classify,
	);
	const live = changed.filter((c) => c.change !== 'deleted').map((c) => c.id);
	const current = await currentRows(client, settings.docId, tableId, [...new Set(live)]);
	// Filter: on the current row, or a deleted row's last values
	const matches = await changeFilter(ctx, columns);
	const changes = changed.filter((c) =>
		matches(
			c.change === 'deleted'
				? { id: c.id, fields: c.values }
				: (current.get(c.id) ?? { id: c.id, fields: c.values }),
		),
	);
	const order = columns.map((col) => col.id);
	const shaped = changes.map((c) =>
		changeItem(
			{ ...c, values: inColumnOrder(c.values, order) },
			c.change === 'deleted' ? undefined : current.get(c.id),
			settings.simplify,
			types,
		),
	);
	const items = ctx.fn.helpers.returnJsonArray(shaped.map((s) => s.json));
	// Add Reference Display Values: from the current row, or a deleted row's last values.
	const shown = changes.map((c) =>
		c.change === 'deleted'
			? { id: c.id, fields: c.values }
			: (current.get(c.id) ?? { id: c.id, fields: c.values }),
	);
	await addPolledDisplay(ctx, columns, shown, items, tableId);
	addChange(
		items,
		shaped.map((s) => s.change),
	);
	return items;
}

/** Values in the table's column order (the history lists them in its own), then any others. */
export function inColumnOrder(
	values: Record<string, unknown>,
	order: string[],
): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const id of order) if (id in values) out[id] = values[id];
	for (const [id, value] of Object.entries(values)) if (!(id in out)) out[id] = value;
	return out;
}

/**
 * Filter as a test of a row's values (query/rowMatch.ts), references given by name turned into
 * row IDs first; every row when there is none.
 */
async function changeFilter(
	ctx: PollContext,
	columns: GristColumn[],
): Promise<(row: { id: number; fields: Record<string, unknown> }) => boolean> {
	const filter = ctx.settings.filter;
	if (!filter) return () => true;
	if ('json' in filter) return (row) => filterMatches(filter.json, row);
	const types = columnTypes(columns);
	const conditions = await conditionsByRowId(ctx, columns, filter.conditions);
	try {
		checkConditions(conditions, types);
	} catch (error) {
		throw toNodeError(ctx.fn.getNode(), error, { hint: CONDITIONS_HINT });
	}
	return (row) => rowMatches(conditions, filter.combine, types, row);
}

/**
 * A manual run ("Fetch test event"): the latest real change the event emits, from Grist's history
 * (./changeHistory.ts `recentActions`), as a poll would emit it; where the history has none, a
 * stand-in that says so.
 */
async function sampleChange(ctx: PollContext, event: ChangeEvent): Promise<INodeExecutionData[]> {
	return (await latestChange(ctx, event)) ?? (await standInChange(ctx, event));
}

/** The item of the latest row change `event` emits that Grist's history still holds. */
async function latestChange(
	ctx: PollContext,
	event: ChangeEvent,
): Promise<INodeExecutionData[] | undefined> {
	const { client, settings } = ctx;
	const { docId, tableId } = settings;
	const node = ctx.fn.getNode();
	const columns = await fetchColumns(client, { docId, tableId });
	const classify = {
		columns: columns.map((c) => c.id),
		types: columnTypes(columns),
		watchedColumns: settings.watchedColumns,
	};
	const wantedChange = (changes: RowChange[]) => changes.some((c) => wanted(event, c));
	try {
		for await (const action of recentActions(client, docId, tableId, wantedChange, classify)) {
			const delta = action.summary?.tableDeltas?.[tableId];
			if (!delta) continue;
			const table = { fromTable: tableId, tableId, delta };
			const items = await changeItems(ctx, event, action, table, columns);
			if (items.length > 0) return items.slice(-1);
		}
	} catch (error) {
		if (
			error instanceof NodeApiError &&
			Number(error.httpCode) === 403 &&
			/insufficient access/i.test(String(error.message))
		)
			throw historyForbidden(node);
		throw toNodeError(node, error);
	}
	return undefined;
}

/** What a stand-in sample says, by event. */
const STAND_IN: Record<ChangeEvent, string> = {
	rowUpdated:
		"A stand-in, not a real change: the document's history in Grist holds no update of a row of this table (that matches the Filter). This is the table's latest row; a real item has the changed columns' previous values.",
	rowDeleted:
		"A stand-in, not a real change: the document's history in Grist holds no deletion of a row of this table (that matches the Filter). This is the table's latest row, which is not deleted.",
	anyChange:
		"A stand-in, not a real change: the document's history in Grist holds no change to a row of this table (that matches the Filter). This is the table's latest row.",
};

/** The table's latest record in the event's shape, `_change.standIn` saying that it is one. */
async function standInChange(ctx: PollContext, event: ChangeEvent): Promise<INodeExecutionData[]> {
	const { record, columns } = await latestRecord(ctx, '-id', await rowFilter(ctx));
	const change = event === 'rowDeleted' ? 'deleted' : event === 'rowUpdated' ? 'updated' : 'added';
	const item = changeItem(
		{
			change,
			id: record.id,
			values: record.fields ?? {},
			...(change === 'updated' ? { previous: {}, changedColumns: [] } : {}),
		},
		change === 'deleted' ? undefined : record,
		ctx.settings.simplify,
		columnTypes(columns),
	);
	const items = ctx.fn.helpers.returnJsonArray([item.json]);
	const shown = change === 'deleted' ? [{ id: record.id, fields: record.fields ?? {} }] : [record];
	await addPolledDisplay(ctx, columns, shown, items);
	addChange(items, [{ ...item.change, standIn: STAND_IN[event] }]);
	return items;
}

/** Which row changes an event emits. */
function wanted(event: ChangeEvent, change: RowChange): boolean {
	if (event === 'anyChange') return true;
	return event === 'rowDeleted' ? change.change === 'deleted' : change.change === 'updated';
}

/**
 * One output item per row change, in the shape of every event's items (./polledItems.ts): the
 * row — the current row for added and updated rows (when it is gone already, the values Grist
 * recorded), the values a deleted row had when it was deleted — and its `_change`: `{ type,
 * previous?, changedColumns?, changesUnknown?, unknownColumns?, fieldsAsOfLastPoll? }`.
 * `previous`: the changed columns' values before. With `simplify`, dates and lists are decoded as
 * in the row.
 */
export function changeItem(
	change: RowChange,
	current: GristRecord | undefined,
	simplify: boolean,
	types: Record<string, string>,
): { json: IDataObject; change: IDataObject } {
	const decode = (values: Record<string, unknown>): IDataObject => {
		if (!simplify) return { ...values } as IDataObject;
		const rest = simplifyFields(0, values, types);
		delete rest.id;
		return rest;
	};
	const row: GristRecord =
		current && change.change !== 'deleted'
			? current
			: { id: change.id, fields: change.values as GristRecord['fields'] };
	let json: IDataObject;
	if (simplify) {
		json = simplifyRecord(row, types);
	} else {
		json = { id: row.id, fields: { ...(row.fields ?? {}) } as IDataObject };
		if (row.errors && Object.keys(row.errors).length > 0) json.errors = row.errors as IDataObject;
	}
	const meta: IDataObject = { type: change.change };
	if (change.change === 'updated') {
		meta.previous = decode(change.previous ?? {});
		meta.changedColumns = change.changedColumns ?? [];
		// Grist kept no cell of this row (a bulk action over more than COMPARE_MAX_ROWS rows).
		if (!change.changedColumns) meta.changesUnknown = true;
	}
	if (change.unknownColumns) meta.unknownColumns = change.unknownColumns;
	if (change.valuesAsOfLastPoll) meta.fieldsAsOfLastPoll = true;
	return { json, change: meta };
}
