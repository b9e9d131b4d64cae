/**
 * Reference display values: for each Reference and Reference List cell of a record, what Grist
 * shows in the sheet, i.e. the referenced row's cell in the column the reference column shows
 * (its `visibleCol`, a column reference of the referenced table; 0 shows the row ID). The output
 * gets them under one key, `_display` (`{ Client: "Acme Ltd", Contacts: ["Ann", "Bob"] }`):
 * Grist column IDs never start with `_` (Grist's identifiers.py strips leading underscores), so
 * it never hides a column.
 *
 * `displayCol` is not used: a column added through the REST API with a `visibleCol` keeps
 * `displayCol` 0; only the web client adds that helper column.
 */
import type { IDataObject } from 'n8n-workflow';

import { decodeCellValue } from '../cells/cellValues';
import type { GristColumn } from '../cells/tableColumns';

export const DISPLAY_KEY = '_display';

/** A Reference (List) column of the read table, and the column of its target that it shows. */
export interface DisplaySource {
	column: string;
	table: string;
	list: boolean;
	/** Column reference (colRef) of the shown column in `table`; 0: the row ID. */
	visibleCol: number;
}

/** The Reference and Reference List columns among `columns`. */
export function displaySources(columns: GristColumn[]): DisplaySource[] {
	const out: DisplaySource[] = [];
	for (const c of columns) {
		const list = c.type.startsWith('RefList:');
		if (!list && !c.type.startsWith('Ref:')) continue;
		const visibleCol = c.fields.visibleCol;
		out.push({
			column: c.id,
			table: c.type.slice(list ? 8 : 4),
			list,
			visibleCol: typeof visibleCol === 'number' ? visibleCol : 0,
		});
	}
	return out;
}

/** The column of the target table that `visibleCol` names; none for 0 or a removed column (the row ID is shown). */
export function shownColumn(
	visibleCol: number,
	targetColumns: GristColumn[],
): GristColumn | undefined {
	if (!visibleCol) return undefined;
	return targetColumns.find((c) => c.colRef === visibleCol);
}

function rowId(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The row IDs of a cell: a Ref's number (0, empty or text: none), a RefList's `["L", …]` (or a
 * plain array); `null` for an empty cell.
 */
export function cellRowIds(value: unknown, list: boolean): Array<number | undefined> | null {
	if (!list) {
		const id = rowId(value);
		return id === undefined ? null : [id];
	}
	if (!Array.isArray(value)) return null;
	return value.slice(value[0] === 'L' ? 1 : 0).map(rowId);
}

/** The IDs the `rows` (fields by column ID) reference, by target table. */
export function referencedIds(
	rows: Array<Record<string, unknown> | undefined>,
	sources: DisplaySource[],
): Map<string, Set<number>> {
	const byTable = new Map<string, Set<number>>();
	for (const source of sources) {
		let ids = byTable.get(source.table);
		if (!ids) byTable.set(source.table, (ids = new Set()));
		for (const row of rows) {
			for (const id of cellRowIds(row?.[source.column], source.list) ?? [])
				if (id !== undefined) ids.add(id);
		}
	}
	return byTable;
}

/**
 * Where the shown cells are: `shown(source)` gives the shown column's ID (`id` for the row ID)
 * and type; `cell(table, column ID, row ID)` the cell as /records gives it, `undefined` when the
 * row does not exist.
 */
export interface DisplayLookup {
	shown(source: DisplaySource): { colId: string; type?: string };
	cell(table: string, colId: string, id: number): unknown;
}

/**
 * `{ column: display value }` of one row: a Ref gives the shown cell (null for an empty or
 * dangling reference), a RefList an array of them (null for an empty cell). With `simplify` the
 * cells are decoded as Simplify decodes fields (dates as ISO text, lists as arrays).
 */
export function displayValues(
	row: Record<string, unknown> | undefined,
	sources: DisplaySource[],
	lookup: DisplayLookup,
	simplify: boolean,
): IDataObject {
	const out: IDataObject = {};
	for (const source of sources) {
		const { colId, type } = lookup.shown(source);
		const show = (id: number | undefined): unknown => {
			if (id === undefined) return null;
			const cell = lookup.cell(source.table, colId, id);
			if (cell === undefined) return null;
			return simplify ? decodeCellValue(cell, type) : cell;
		};
		const ids = cellRowIds(row?.[source.column], source.list);
		out[source.column] = (
			ids === null ? null : source.list ? ids.map(show) : show(ids[0])
		) as IDataObject[keyof IDataObject];
	}
	return out;
}
