/**
 * The reference check of the record writes (Create, Update, Upsert), pure given a lookup of
 * missing row IDs: before any write request, the row IDs that the items' Reference and Reference
 * List cells point at are collected per referenced table over all items, looked up once per
 * table and execution (`lookup`: api/rowLookup.ts `missingRowIds`, `/sql` or records filtered by
 * id), and the items pointing at rows that do not exist are refused, naming item, column and
 * IDs. Grist itself stores such a dangling reference without a word (it shows as an error in the
 * sheet). Options → Allow Dangling References (`WriteGroup.allowDangling`) skips the check.
 *
 * Only row IDs are checked: a Ref cell holding a positive whole number (0 is an empty
 * reference), the numbers of a RefList cell `["L", id, …]`. Names given for references are
 * turned into row IDs before (referenceNames.ts), so the check sees their rows too.
 */
import type { IDataObject } from 'n8n-workflow';

import type { WriteGroup, WriteUnit } from './plan';

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
			'Grist would store a reference to nothing (shown as an error in the sheet), so this item is not sent. Use the row ID of an existing row (e.g. the ID field of a record read or created before) or the value the row shows (a value of digits only is always a row ID), leave the cell empty, or turn on Options → Allow Dangling References to write such references on purpose.',
	};
}

// ---------------------------------------------------------------------------------------------
// The check over all items of a write.

/** A record of a write body: `fields`, and for an upsert `require` (added too when nothing matches). */
export type ReferencingRecord = { fields?: IDataObject; require?: IDataObject };

/**
 * The row IDs of `ids` that table `tableId` of document `docId` does not have; `undefined` when
 * the table itself does not exist. `itemIndex` is the first item referencing the table.
 */
export type MissingRowsLookup = (
	docId: string,
	tableId: string,
	ids: number[],
	itemIndex: number,
) => Promise<Set<number> | undefined>;

/** Why an item is refused: its referenced table could not be read, or it points at missing rows. */
export type ReferenceRefusal =
	| { failed: Error; table: string }
	| { dangling: { message: string; description: string } };

interface Wanted {
	docId: string;
	table: string;
	ids: Set<number>;
	/** The first item that references this table (for the read's error). */
	itemIndex: number;
	/** Read: the IDs that do not exist (all of them when the table itself does not exist). */
	missing?: Set<number>;
	tableMissing?: boolean;
	error?: Error;
}

/**
 * Checks the references of all units (one `lookup` per referenced table) and answers the items to
 * refuse, by item index, in the order of the units.
 */
export async function checkReferences<R extends ReferencingRecord>(
	units: Array<WriteUnit<R>>,
	lookup: MissingRowsLookup,
): Promise<Map<number, ReferenceRefusal>> {
	const wanted = wantedRows(units);
	let anyMissing = false;
	for (const w of wanted.values()) {
		try {
			const missing = await lookup(w.docId, w.table, [...w.ids], w.itemIndex);
			w.tableMissing = missing === undefined;
			w.missing = missing ?? w.ids;
			if (w.missing.size > 0) anyMissing = true;
		} catch (error) {
			w.error = error as Error;
			anyMissing = true;
		}
	}
	return anyMissing ? refusals(units, wanted) : new Map();
}

const wantedKey = (docId: string, table: string): string => `${docId}\u0000${table}`;

/**
 * The IDs each referenced table must have, over all units. Units come batch by batch, so the
 * referenced tables of a group are looked up when the group changes, not per cell.
 */
function wantedRows(units: Array<WriteUnit<ReferencingRecord>>): Map<string, Wanted> {
	const wanted = new Map<string, Wanted>();
	let lastGroup: WriteGroup | undefined;
	let refs: RefColumn[] = [];
	let wants: Wanted[] = [];
	const want = (_ref: RefColumn, id: number, k: number) => wants[k].ids.add(id);
	for (let u = 0; u < units.length; u++) {
		const { group, records, itemIndex } = units[u];
		if (group !== lastGroup) {
			lastGroup = group;
			refs = group.allowDangling ? [] : refColumns(group.types);
			wants = refs.map((ref) => {
				const key = wantedKey(group.target.docId, ref.table);
				let w = wanted.get(key);
				if (!w) {
					w = { docId: group.target.docId, table: ref.table, ids: new Set(), itemIndex };
					wanted.set(key, w);
				}
				return w;
			});
		}
		if (refs.length === 0) continue;
		for (let r = 0; r < records.length; r++) {
			forEachReference(records[r].fields, refs, want);
			forEachReference(records[r].require, refs, want);
		}
	}
	return wanted;
}

/** The units that point at missing rows, or whose referenced table could not be read. */
function refusals(
	units: Array<WriteUnit<ReferencingRecord>>,
	wanted: Map<string, Wanted>,
): Map<number, ReferenceRefusal> {
	const verdict = new Map<number, ReferenceRefusal>();
	for (let u = 0; u < units.length; u++) {
		const { group, records, itemIndex } = units[u];
		if (group.allowDangling) continue;
		const refs = refColumns(group.types);
		if (refs.length === 0) continue;
		const refusal = unitRefusal(records, refs, itemIndex, (table) =>
			wanted.get(wantedKey(group.target.docId, table)),
		);
		if (refusal) verdict.set(itemIndex, refusal);
	}
	return verdict;
}

/** Why one item is refused, if it is. */
function unitRefusal(
	records: ReferencingRecord[],
	refs: RefColumn[],
	itemIndex: number,
	wantedOf: (table: string) => Wanted | undefined,
): ReferenceRefusal | undefined {
	const byColumn = new Map<string, { table: string; ids: number[]; tableMissing?: boolean }>();
	let failed: { failed: Error; table: string } | undefined;
	const check = (ref: RefColumn, id: number) => {
		const w = wantedOf(ref.table)!;
		if (w.error) {
			failed = { failed: w.error, table: w.table };
			return;
		}
		if (!w.missing?.has(id)) return;
		let entry = byColumn.get(ref.column);
		if (!entry) {
			entry = { table: ref.table, ids: [], tableMissing: w.tableMissing };
			byColumn.set(ref.column, entry);
		}
		if (!entry.ids.includes(id)) entry.ids.push(id);
	};
	for (let r = 0; r < records.length; r++) {
		forEachReference(records[r].require, refs, check);
		forEachReference(records[r].fields, refs, check);
	}
	if (failed) return failed;
	if (byColumn.size === 0) return undefined;
	const missing = [...byColumn].map(([column, e]) => ({ column, ...e }));
	return { dangling: danglingText(itemIndex, missing) };
}
