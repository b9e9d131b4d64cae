/**
 * References of a write: the row IDs that the Reference and Reference List cells
 * of encoded records point at, by referenced table, and the text that refuses an item pointing
 * at a row that does not exist. Grist itself stores such a dangling reference without a word
 * (it shows as an error in the sheet), so the writes check them before any request.
 *
 * Only cells that end as row IDs are checked: a Ref cell holding a positive whole number (0 is
 * an empty reference), a RefList cell `["L", id, …]`. A Ref cell given as text (Grist looks it up
 * by the visible column) is Grist's to resolve and is not checked.
 */
import type { IDataObject } from 'n8n-workflow';

/** A Reference or Reference List column of a table: its ID and the table it points at. */
export interface RefColumn {
	column: string;
	table: string;
	list: boolean;
}

const refColumnsOf = new WeakMap<Record<string, string>, RefColumn[]>();

/**
 * The Ref/RefList columns among a table's column types (`{ Owner: 'Ref:People' }`), computed
 * once per types object (the column cache gives one object per table and execution).
 */
export function refColumns(types: Record<string, string>): RefColumn[] {
	let list = refColumnsOf.get(types);
	if (list === undefined) {
		list = [];
		for (const column of Object.keys(types)) {
			const type = types[column];
			if (type.startsWith('Ref:')) list.push({ column, table: type.slice(4), list: false });
			else if (type.startsWith('RefList:')) list.push({ column, table: type.slice(8), list: true });
		}
		refColumnsOf.set(types, list);
	}
	return list;
}

/** Whether a value is a row ID a reference may point at (a whole number ≥ 1). */
function isRowId(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/**
 * Calls `visit(ref, id, k)` for every row ID that the encoded `fields` reference through the
 * columns `refs` (`refColumns`; `k` is the column's position in it): a Ref cell's number, each
 * number of a RefList's `["L", …]`.
 */
export function forEachReference(
	fields: IDataObject | undefined,
	refs: RefColumn[],
	visit: (ref: RefColumn, id: number, k: number) => void,
): void {
	if (!fields) return;
	for (let k = 0; k < refs.length; k++) {
		const ref = refs[k];
		const value = fields[ref.column] as unknown;
		if (value === undefined || value === null) continue;
		if (!ref.list) {
			if (isRowId(value)) visit(ref, value, k);
			continue;
		}
		if (Array.isArray(value)) {
			const start = value[0] === 'L' ? 1 : 0;
			for (let i = start; i < value.length; i++) if (isRowId(value[i])) visit(ref, value[i], k);
		}
	}
}

/** `1, 2, 3` (at most `max`, then `… (N in all)`), for the IDs in a message. */
export function describeIds(ids: number[], max = 10): string {
	const sorted = [...ids].sort((a, b) => a - b);
	return sorted.length > max
		? `${sorted.slice(0, max).join(', ')}, … (${sorted.length} in all)`
		: sorted.join(', ');
}

/**
 * The message and fix of an item refused for dangling references: `missing` lists, per column,
 * the IDs of the rows that do not exist in the referenced table.
 */
export function danglingText(
	itemIndex: number,
	missing: Array<{ column: string; table: string; ids: number[]; tableMissing?: boolean }>,
): { message: string; description: string } {
	const parts = missing.map(({ column, table, ids, tableMissing }) =>
		tableMissing
			? `"${column}" points at table "${table}", which does not exist`
			: `"${column}" points at row${ids.length === 1 ? '' : 's'} ${describeIds(ids)} of table "${table}", which ${ids.length === 1 ? 'does' : 'do'} not exist`,
	);
	return {
		message: `Reference${parts.length === 1 ? '' : 's'} to missing rows in item ${itemIndex}: ${parts.join('; ')}`,
		description:
			'Grist would store a reference to nothing (shown as an error in the sheet), so this item is not sent. Use the row ID of an existing row (e.g. the ID field of a record read or created before), leave the cell empty, or turn on Options → Allow Dangling References to write such references on purpose.',
	};
}

/** Row IDs (whole numbers ≥ 1 only, checked) as the JSON array of a `/sql` `json_each(?)` argument. */
export function sqlIdList(ids: number[]): string {
	for (const id of ids) if (!isRowId(id)) throw new Error(`Not a row ID: ${String(id)}`);
	return `[${ids.join(',')}]`;
}
