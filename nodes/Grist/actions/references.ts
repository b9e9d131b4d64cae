/**
 * The reference check of the record writes (Create, Update, Upsert): before any
 * write request, the row IDs that the items' Reference and Reference List cells point at are
 * read from each referenced table — one read per referenced table and execution (`/sql`, or
 * records filtered by id where `/sql` is refused; api/rowLookup.ts `missingRowIds`), not per
 * item — and the items pointing at rows that do not exist are refused, naming item, column and
 * IDs. Options → Allow Dangling References (`WriteGroup.allowDangling`) skips the check.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { danglingText, forEachReference, refColumns, type RefColumn } from '../helpers/references';
import type { GristClient } from '../api/client';
import { missingRowIds } from '../api/rowLookup';
import type { BatchUnit, WriteGroup } from './batch';

/** A record of a write body: `fields`, and for an upsert `require` (added too when nothing matches). */
type WriteRecord = { fields?: IDataObject; require?: IDataObject };

interface Wanted {
	docId: string;
	table: string;
	ids: Set<number>;
	/** The first item that references this table (for the read's error). */
	itemIndex: number;
	/** Read: the IDs that do not exist; `undefined` when the table itself does not exist. */
	missing?: Set<number>;
	tableMissing?: boolean;
	error?: Error;
}

/** The `verify` of executeBatched for record writes: refuses items with dangling references. */
export function referenceCheck<R extends WriteRecord>(
	ctx: IExecuteFunctions,
	client: GristClient,
): (units: Array<BatchUnit<R, WriteGroup> & { itemIndex: number }>) => Promise<Map<number, Error>> {
	const sqlRefused = new Set<string>();
	return async (units) => {
		const verdict = new Map<number, Error>();
		// 1. The IDs each referenced table must have, over all items. Consecutive items of one
		// group share the list of their referenced tables (no key built per cell).
		const wanted = new Map<string, Wanted>();
		const wantedOf = (docId: string, table: string, itemIndex: number): Wanted => {
			const key = `${docId}\u0000${table}`;
			let w = wanted.get(key);
			if (!w) {
				w = { docId, table, ids: new Set(), itemIndex };
				wanted.set(key, w);
			}
			return w;
		};
		let lastGroup: WriteGroup | undefined;
		let refs: RefColumn[] = [];
		let lastWants: Wanted[] = [];
		const want = (_ref: RefColumn, id: number, k: number) => lastWants[k].ids.add(id);
		for (let u = 0; u < units.length; u++) {
			const { group, records } = units[u];
			if (group !== lastGroup) {
				lastGroup = group;
				refs = group.allowDangling ? [] : refColumns(group.types);
				lastWants = refs.map((ref) => wantedOf(group.target.docId, ref.table, units[u].itemIndex));
			}
			if (refs.length === 0) continue;
			for (let r = 0; r < records.length; r++) {
				forEachReference(records[r].fields, refs, want);
				forEachReference(records[r].require, refs, want);
			}
		}
		if (wanted.size === 0) return verdict;

		// 2. One read per referenced table.
		let anyMissing = false;
		for (const w of wanted.values()) {
			try {
				const missing = await missingRowIds(
					client,
					w.docId,
					w.table,
					[...w.ids],
					w.itemIndex,
					sqlRefused,
				);
				w.tableMissing = missing === undefined;
				w.missing = missing ?? w.ids;
				if (w.missing.size > 0) anyMissing = true;
			} catch (error) {
				if (error instanceof NodeApiError) {
					const note = `Checking that the referenced rows of table "${w.table}" exist failed, so no item referencing it was written.`;
					error.description = error.description ? `${note} ${error.description}` : note;
				}
				w.error = error as Error;
				anyMissing = true;
			}
		}
		if (!anyMissing) return verdict;

		// 3. The items that point at missing rows (or whose table could not be read).
		for (let u = 0; u < units.length; u++) {
			const { group, records } = units[u];
			if (group.allowDangling) continue;
			const refs = refColumns(group.types);
			if (refs.length === 0) continue;
			const doc = group.target.docId;
			const index = units[u].itemIndex;
			const byColumn = new Map<string, { table: string; ids: number[]; tableMissing?: boolean }>();
			let failed: Error | undefined;
			const check = (ref: RefColumn, id: number) => {
				const w = wanted.get(`${doc}\u0000${ref.table}`)!;
				if (w.error) {
					failed = w.error;
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
			if (failed) {
				verdict.set(index, failed);
				continue;
			}
			if (byColumn.size === 0) continue;
			const text = danglingText(
				index,
				[...byColumn].map(([column, e]) => ({ column, ...e })),
			);
			verdict.set(
				index,
				new NodeOperationError(ctx.getNode(), text.message, {
					itemIndex: index,
					description: text.description,
				}),
			);
		}
		return verdict;
	};
}
