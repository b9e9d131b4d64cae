/**
 * Row changes of one table from Grist's document history: the `details.rightChanges` of
 * `GET /api/docs/{doc}/compare?left=<hash>&right=HEAD` (an ActionSummary) turned into one entry
 * per row, saying whether the row was added, updated or deleted. Pure: the trigger fetches the
 * current rows of added and updated ones itself.
 *
 * Grist's ActionSummary, as grist-core builds it (app/common/ActionSummary.ts):
 * - `tableDeltas` is keyed by the table's id at the end of the range; `tableRenames` pairs
 *   `[before, after]` (`after` null: table removed).
 * - A cell delta is `[before, after]`, each side `[value]`, `null` (the cell did not exist on that
 *   side: row or column added or removed) or `"?"` (changed, value not recorded).
 * - Only net changes: a row added then removed in the range is gone; a row added then edited is in
 *   `addRows` with its final values, and may also be in `updateRows` (formulas): `addRows` wins.
 * - Row ids are reused: an id in `removeRows` and `addRows` is an old row deleted and a new one added.
 * - A removal leaves out each column in which every row it removed held the column type's default
 *   (the data engine's undo of BulkRemoveRecord, docactions.py): an absent cell of a recorded
 *   removed row is that default (`typeDefault`), not "unknown". A bulk action over more than
 *   `maxRows` rows keeps no cells at all for the rows in its middle (`mayBeIncomplete`; servers
 *   before v1.7.14 do not set the flag). Every row that Grist recorded has a `manualSort` cell, so
 *   a removed row without any cell is one whose values are unknown.
 * - A removed row's cells are its values at the left state of the range, not right before the
 *   deleting action: an edit between the two is not in the summary (the trigger's changeHistory.ts reads the
 *   deleting action alone for the values the row had when it was deleted).
 */

import { isHiddenColumnId, typeDefault } from '../cells/tableColumns';

export type CellSide = [unknown] | null | '?';
export type CellDelta = [CellSide, CellSide];

export interface TableDelta {
	updateRows?: number[];
	removeRows?: number[];
	addRows?: number[];
	columnDeltas?: Record<string, Record<string, CellDelta>>;
	columnRenames?: Array<[string | null, string | null]>;
	mayBeIncomplete?: boolean;
}

export interface ActionSummary {
	tableRenames?: Array<[string | null, string | null]>;
	tableDeltas?: Record<string, TableDelta>;
}

export interface HistoryState {
	n: number;
	h: string;
}

/** The answer of `GET /compare?left=…&right=…` (one document). */
export interface CompareResponse {
	left?: HistoryState;
	right: HistoryState;
	details?: { leftChanges?: ActionSummary; rightChanges?: ActionSummary };
}

export type ChangeKind = 'added' | 'updated' | 'deleted';

export interface RowChange {
	change: ChangeKind;
	id: number;
	/**
	 * Deleted: the row's values (every column of `columns`; one Grist left out holds its type's
	 * default). Added and updated: the new values Grist recorded (the trigger replaces them with the
	 * current row).
	 */
	values: Record<string, unknown>;
	/** Updated: the value of each changed column before the change. */
	previous?: Record<string, unknown>;
	/** Updated: the columns whose value changed. */
	changedColumns?: string[];
	/** Columns whose value Grist did not record (a large bulk action or a long range). */
	unknownColumns?: string[];
	/**
	 * Deleted: `values` are the row's values at the previous poll, not when it was deleted (its
	 * deleting action is no longer in Grist's history).
	 */
	valuesAsOfLastPoll?: true;
}

/**
 * The id `tableId` has at the end of the range: itself, its new id after a rename, or null when
 * the table was removed. Renames are applied in order (a table renamed twice).
 */
export function tableIdAfter(summary: ActionSummary | undefined, tableId: string): string | null {
	let id: string | null = tableId;
	for (const [before, after] of summary?.tableRenames ?? []) {
		if (id !== null && before === id) id = after;
	}
	return id;
}

export interface ClassifyOptions {
	/** The table's columns (their current ids), in the table's order. */
	columns?: string[];
	/** Each column's type: a deleted row's absent cell holds the type's default. */
	types?: Record<string, string>;
	/** Only updates that change one of these columns are reported (empty: any column). */
	watchedColumns?: string[];
}

const known = (side: CellSide | undefined): side is [unknown] => Array.isArray(side);

/**
 * Turns one table's delta into row changes, in id order; for a reused id the deletion of the old
 * row comes before the addition of the new one.
 */
export function classifyChanges(
	delta: TableDelta | undefined,
	opts: ClassifyOptions = {},
): RowChange[] {
	if (!delta) return [];
	const added = new Set(delta.addRows ?? []);
	const removed = new Set(delta.removeRows ?? []);
	const updated = new Set((delta.updateRows ?? []).filter((id) => !added.has(id)));
	const columnsAdded = new Set(
		(delta.columnRenames ?? []).filter(([b, a]) => b === null && a !== null).map(([, a]) => a),
	);
	// Columns that exist at the end of the range (a removed column is keyed `-colId`).
	// In the table's column order (Grist's delta lists them in the order the actions touched them).
	const order = new Map((opts.columns ?? []).map((c, i) => [c, i]));
	const cellColumns = Object.keys(delta.columnDeltas ?? {})
		.filter((c) => !c.startsWith('-'))
		.sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
	const cell = (col: string, id: number): CellDelta | undefined =>
		delta.columnDeltas?.[col]?.[String(id)];
	const watched = new Set(opts.watchedColumns ?? []);

	const out: RowChange[] = [];
	const ids = [...new Set([...added, ...removed, ...updated])].sort((a, b) => a - b);
	for (const id of ids) {
		if (removed.has(id)) {
			// A reused id (also added) has one cell delta for both rows: the old row's values are the
			// `before` sides.
			out.push(deletedRow(id, cellColumns, cell, opts));
		}
		if (added.has(id)) {
			const values: Record<string, unknown> = {};
			for (const col of cellColumns) {
				const d = cell(col, id);
				if (d && known(d[1]) && !isHiddenColumnId(col)) values[col] = d[1][0];
			}
			out.push({ change: 'added', id, values });
			continue;
		}
		if (!updated.has(id)) continue;
		const change = updatedRow(id, cellColumns, cell, columnsAdded);
		if (!change) continue;
		const unknown = change.changedColumns === undefined;
		if (watched.size > 0 && !unknown && !change.changedColumns!.some((c) => watched.has(c)))
			continue;
		out.push(change);
	}
	return out;
}

function deletedRow(
	id: number,
	cellColumns: string[],
	cell: (col: string, id: number) => CellDelta | undefined,
	opts: ClassifyOptions,
): RowChange {
	const values: Record<string, unknown> = {};
	let recorded = false;
	const unknownColumns: string[] = [];
	for (const col of cellColumns) {
		const d = cell(col, id);
		if (!d) continue;
		recorded = true;
		if (isHiddenColumnId(col)) continue;
		if (known(d[0])) values[col] = d[0][0];
		else if (d[0] === '?') unknownColumns.push(col);
	}
	for (const col of opts.columns ?? []) {
		if (isHiddenColumnId(col) || col in values || unknownColumns.includes(col)) continue;
		// Grist leaves out a column that held its default in every row the removal removed.
		if (recorded) values[col] = typeDefault(opts.types?.[col]);
		else unknownColumns.push(col);
	}
	const change: RowChange = { change: 'deleted', id, values };
	if (unknownColumns.length > 0) change.unknownColumns = unknownColumns;
	return change;
}

/**
 * An updated row: the columns whose value changed, their previous and new values. Undefined when
 * only hidden columns or columns added in the range changed. `changedColumns` is undefined when
 * Grist recorded no cell of the row (then nothing is known about what changed).
 */
function updatedRow(
	id: number,
	cellColumns: string[],
	cell: (col: string, id: number) => CellDelta | undefined,
	columnsAdded: Set<string | null>,
): RowChange | undefined {
	const values: Record<string, unknown> = {};
	const previous: Record<string, unknown> = {};
	const changedColumns: string[] = [];
	const unknownColumns: string[] = [];
	let recorded = false;
	for (const col of cellColumns) {
		const d = cell(col, id);
		if (!d) continue;
		recorded = true;
		// A column added in the range gives every row a cell: a schema change, not a row edit.
		if (isHiddenColumnId(col) || columnsAdded.has(col) || d[0] === null) continue;
		if (known(d[0]) && known(d[1]) && JSON.stringify(d[0][0]) === JSON.stringify(d[1][0])) continue;
		changedColumns.push(col);
		if (known(d[0])) previous[col] = d[0][0];
		else unknownColumns.push(col);
		if (known(d[1])) values[col] = d[1][0];
	}
	if (!recorded) {
		return { change: 'updated', id, values, previous };
	}
	if (changedColumns.length === 0) return undefined;
	const change: RowChange = { change: 'updated', id, values, previous, changedColumns };
	if (unknownColumns.length > 0) change.unknownColumns = unknownColumns;
	return change;
}
