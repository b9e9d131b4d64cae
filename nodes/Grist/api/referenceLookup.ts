/**
 * The names typed for references (cells/referenceInput.ts), looked up once per execution: the
 * column a Reference column shows (its `visibleCol`, a column of the referenced table: one read
 * of that table's columns, shared with the execution's column cache), then per referenced table
 * and shown column the names not asked before, all in one read (rowLookup.ts
 * `findRowsByValue`); what was found is kept for the rest of the execution.
 */
import { typeArgument, describeValue } from '../cells/cellValues';
import {
	indexRows,
	lookupKey,
	nameLookupValue,
	type NameFinding,
	type ShownColumn,
} from '../cells/referenceInput';
import type { GristColumn } from '../cells/tableColumns';
import type { GristClient } from './client';
import { findRowsByValue } from './rowLookup';
import type { ColumnCache } from './schemaCache';

/** The column of `targetColumns` that `visibleCol` (a colRef) names; none for 0 or a removed column. */
export function shownColumnOf(
	visibleCol: unknown,
	targetColumns: GristColumn[],
): ShownColumn | undefined {
	if (typeof visibleCol !== 'number' || visibleCol === 0) return undefined;
	const column = targetColumns.find((c) => c.colRef === visibleCol);
	return column ? { id: column.id, type: column.type, label: column.label } : undefined;
}

interface ShownIndex {
	/** Keys of the values asked so far (lookupKey). */
	asked: Set<string>;
	/** Row IDs by the key of their shown value. */
	rows: Map<string, number[]>;
}

export class ReferenceLookup {
	private readonly indexes = new Map<string, ShownIndex>();
	private readonly sqlRefused = new Set<string>();

	constructor(
		private readonly client: GristClient,
		private readonly columns: ColumnCache,
	) {}

	/**
	 * The table that Reference (List) column `column` of document `docId` points at, and the
	 * column of it that it shows (undefined: the row ID). Throws when that table cannot be read.
	 */
	async shown(
		docId: string,
		column: GristColumn,
		itemIndex?: number,
	): Promise<{ table: string; shown: ShownColumn | undefined }> {
		const table = typeArgument(column.type) ?? '';
		const visibleCol = column.fields.visibleCol;
		if (typeof visibleCol !== 'number' || visibleCol === 0) return { table, shown: undefined };
		const columns = await this.columns.get({ docId, tableId: table }, itemIndex);
		return { table, shown: shownColumnOf(visibleCol, columns) };
	}

	/**
	 * What each of `names` finds in column `shown` of table `table` (undefined: the column shows
	 * the row ID, so a name finds nothing): the rows that have it. The names not asked before are
	 * read in one go.
	 */
	async find(
		docId: string,
		table: string,
		shown: ShownColumn | undefined,
		names: Iterable<string>,
		itemIndex?: number,
	): Promise<Map<string, NameFinding>> {
		const findings = new Map<string, NameFinding>();
		if (shown === undefined) {
			for (const name of names)
				findings.set(name, { refused: `${describeValue(name)} is not a row ID` });
			return findings;
		}
		const key = `${docId}\u0000${table}\u0000${shown.id}`;
		let index = this.indexes.get(key);
		if (!index) this.indexes.set(key, (index = { asked: new Set(), rows: new Map() }));
		const keys = new Map<string, string>();
		const todo: Array<string | number | boolean> = [];
		for (const name of names) {
			const lookup = nameLookupValue(name, shown);
			if ('refused' in lookup) {
				findings.set(name, lookup);
				continue;
			}
			const k = lookupKey(lookup.value);
			keys.set(name, k);
			if (!index.asked.has(k)) {
				index.asked.add(k);
				todo.push(lookup.value);
			}
		}
		if (todo.length > 0) {
			const read = findRowsByValue(
				this.client,
				{ docId, tableId: table },
				shown.id,
				shown.type,
				todo,
				this.sqlRefused,
				itemIndex,
			);
			// a failed read is not kept: a later item asks again
			read.catch(() => {
				for (const v of todo) index.asked.delete(lookupKey(v));
			});
			indexRows(await read, index.rows);
		}
		for (const [name, k] of keys) {
			const ids = index.rows.get(k) ?? [];
			findings.set(name, { ids: [...ids].sort((a, b) => a - b) });
		}
		return findings;
	}
}
