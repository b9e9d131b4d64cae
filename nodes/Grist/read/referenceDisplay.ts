/**
 * Options → Add Reference Display Values (Record → Get Many, Grist Trigger, Grist Instant
 * Trigger): adds `_display` to each output record (./displayValues.ts). Per referenced
 * table it reads the table's columns (to find the shown column; once per execution) and only the
 * referenced rows' shown columns, in one request (api/rowLookup.ts `readRowsById`), however many
 * reference columns point at that table. Cells read once are kept for the execution: a later
 * input item of Get Many asks only for the IDs not read before.
 */
import type { IDataObject } from 'n8n-workflow';

import type { GristColumn } from '../cells/tableColumns';
import {
	DISPLAY_KEY,
	displaySources,
	displayValues,
	referencedIds,
	shownColumn,
	type DisplayLookup,
	type DisplaySource,
} from './displayValues';
import { GristClient } from '../api/client';
import { ColumnCache } from '../api/schemaCache';
import { readRowsById } from '../api/rowLookup';
import { type Target } from '../api/paths';

export class ReferenceDisplay {
	/** Cells read, by document, table and column: row ID → cell (absent: not read yet). */
	private readonly cells = new Map<string, Map<number, unknown>>();
	/** Row IDs found missing, by document and table. */
	private readonly missing = new Map<string, Set<number>>();
	private readonly sqlRefused = new Set<string>();
	private readonly columns: ColumnCache;

	constructor(
		private readonly client: GristClient,
		columns?: ColumnCache,
	) {
		this.columns = columns ?? new ColumnCache(client);
	}

	/**
	 * Sets `outputs[i]._display` from `rows[i]` (the record's fields by column ID, as Grist gives
	 * them), the rows being records of `target` whose columns are `columns`.
	 */
	async add(
		target: Target,
		columns: GristColumn[],
		rows: Array<Record<string, unknown> | undefined>,
		outputs: IDataObject[],
		simplify: boolean,
		itemIndex?: number,
	): Promise<void> {
		const sources = displaySources(columns);
		const shown = new Map<DisplaySource, { colId: string; type?: string }>();
		const wantedIds = referencedIds(rows, sources);
		for (const [table, ids] of wantedIds) {
			const own = sources.filter((s) => s.table === table);
			const targetColumns = await this.columns.get(
				{ docId: target.docId, tableId: table },
				itemIndex,
			);
			const types: Record<string, string> = {};
			for (const source of own) {
				const column = shownColumn(source.visibleCol, targetColumns);
				shown.set(source, { colId: column?.id ?? 'id', type: column?.type });
				if (column) types[column.id] = column.type;
			}
			await this.read(target.docId, table, Object.keys(types), types, ids, itemIndex);
		}
		const lookup: DisplayLookup = {
			shown: (source) => shown.get(source) ?? { colId: 'id' },
			cell: (table, colId, id) => {
				if (this.missing.get(`${target.docId}\u0000${table}`)?.has(id)) return undefined;
				if (colId === 'id') return id;
				return this.cells.get(`${target.docId}\u0000${table}\u0000${colId}`)?.get(id);
			},
		};
		for (let i = 0; i < outputs.length; i++)
			outputs[i][DISPLAY_KEY] = displayValues(rows[i], sources, lookup, simplify);
	}

	/** Reads the cells of `colIds` (none: existence only) for the IDs of `ids` not read before. */
	private async read(
		docId: string,
		table: string,
		colIds: string[],
		types: Record<string, string>,
		ids: Set<number>,
		itemIndex?: number,
	): Promise<void> {
		const tableKey = `${docId}\u0000${table}`;
		let missing = this.missing.get(tableKey);
		if (!missing) this.missing.set(tableKey, (missing = new Set()));
		const stores = colIds.map((c) => {
			const key = `${tableKey}\u0000${c}`;
			let store = this.cells.get(key);
			if (!store) this.cells.set(key, (store = new Map()));
			return store;
		});
		const known = this.cells.get(`${tableKey}\u0000id`);
		const todo: number[] = [];
		for (const id of ids) {
			if (missing.has(id)) continue;
			if (colIds.length === 0 ? known?.has(id) : stores.every((s) => s.has(id))) continue;
			todo.push(id);
		}
		if (todo.length === 0) return;
		const rows = await readRowsById(
			this.client,
			{ docId, tableId: table },
			colIds,
			types,
			todo,
			this.sqlRefused,
			itemIndex,
		);
		let existing = known;
		if (!existing) this.cells.set(`${tableKey}\u0000id`, (existing = new Map()));
		for (const id of todo) {
			const row = rows.get(id);
			if (!row) {
				missing.add(id);
				continue;
			}
			existing.set(id, id);
			for (let k = 0; k < colIds.length; k++) stores[k].set(id, row[colIds[k]] ?? null);
		}
	}
}
