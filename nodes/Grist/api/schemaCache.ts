/**
 * What an execution reads once about a document's schema: the columns of each table
 * (ColumnCache) and the table IDs of each document (TableCache).
 */
import { columnMap, columnTypes, type GristColumn } from '../cells/tableColumns';
import type { GristClient } from './client';
import { fetchColumns } from './columns';
import { targetKey, type Target } from './paths';
import { fetchTables } from './tables';

export interface TableInfo {
	columns: GristColumn[];
	byId: Map<string, GristColumn>;
	types: Record<string, string>;
}

/**
 * Columns of each table, fetched once per execution (one GET per table; a failed GET is not
 * kept). With `hidden` (the default) Grist's helper columns are listed too.
 */
export class ColumnCache {
	private readonly cache = new Map<string, Promise<GristColumn[]>>();
	private readonly infos = new Map<string, TableInfo>();

	constructor(
		private readonly client: GristClient,
		private readonly opts: { hidden: boolean } = { hidden: true },
	) {}

	/** Columns plus lookups built once per table (not per item). */
	async info(t: Target, itemIndex?: number): Promise<TableInfo> {
		const key = targetKey(t);
		const known = this.infos.get(key);
		if (known) return known;
		const columns = await this.get(t, itemIndex);
		const info = { columns, byId: columnMap(columns), types: columnTypes(columns) };
		this.infos.set(key, info);
		return info;
	}

	async get(t: Target, itemIndex?: number): Promise<GristColumn[]> {
		const key = targetKey(t);
		let p = this.cache.get(key);
		if (!p) {
			p = fetchColumns(this.client, t, { hidden: this.opts.hidden, itemIndex });
			this.cache.set(key, p);
			p.catch(() => this.cache.delete(key));
		}
		return await p;
	}
}

/**
 * The table IDs of each document, read once per execution (one GET /tables per document, only
 * when asked; a failed GET is not kept). `add` notes a table created since.
 */
export class TableCache {
	private readonly cache = new Map<string, Promise<Set<string>>>();

	constructor(private readonly client: GristClient) {}

	async ids(docId: string, itemIndex?: number): Promise<Set<string>> {
		let p = this.cache.get(docId);
		if (!p) {
			p = fetchTables(this.client, docId, { itemIndex }).then((ts) => new Set(ts.map((t) => t.id)));
			this.cache.set(docId, p);
			p.catch(() => this.cache.delete(docId));
		}
		return await p;
	}

	async add(docId: string, tableId: string): Promise<void> {
		const p = this.cache.get(docId);
		if (p) (await p.catch(() => undefined))?.add(tableId);
	}
}
