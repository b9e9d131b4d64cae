/** Columns of a table: list, add, update or replace, delete. */
import type { IDataObject } from 'n8n-workflow';

import { toColumn, type GristColumn } from '../cells/tableColumns';
import type { GristClient } from './client';
import { tableEndpoint, type Target } from './paths';

export interface FetchColumnsOptions {
	/** Also return `manualSort` and `gristHelper_*` columns. */
	hidden?: boolean;
	itemIndex?: number;
}

/** `GET /api/docs/{docId}/tables/{tableId}/columns` → flattened columns, in Grist's order. */
export async function fetchColumns(
	client: GristClient,
	t: Target,
	opts: FetchColumnsOptions = {},
): Promise<GristColumn[]> {
	const res = await client.request<{ columns?: Array<{ id: string; fields?: IDataObject }> }>({
		method: 'GET',
		...tableEndpoint(client, t, 'columns'),
		qs: opts.hidden ? { hidden: 1 } : undefined,
		itemIndex: opts.itemIndex,
	});
	return (res?.columns ?? []).map(toColumn);
}

/** `POST …/columns`; returns the new columns' ids (Grist may adjust them). */
export async function addColumnsToTable(
	client: GristClient,
	t: Target,
	columns: IDataObject[],
	itemIndex: number,
): Promise<string[]> {
	const endpoint = tableEndpoint(client, t, 'columns');
	const res = await client.request<{ columns?: Array<{ id: string }> }>({
		method: 'POST',
		...endpoint,
		body: { columns },
		itemIndex,
	});
	return (res?.columns ?? []).map((c) => c.id);
}

/**
 * `PATCH …/columns` (all with the same field set) or `PUT …/columns` (create or update, with
 * `noadd`, `noupdate`, `replaceall`: the last removes every column not listed).
 */
export async function writeColumns(
	client: GristClient,
	t: Target,
	method: 'PATCH' | 'PUT',
	columns: IDataObject[],
	itemIndex: number,
	flags: { noadd?: boolean; noupdate?: boolean; replaceall?: boolean } = {},
): Promise<void> {
	const qs: IDataObject = {};
	for (const [k, v] of Object.entries(flags)) if (v) qs[k] = 1;
	await client.request({
		method,
		...tableEndpoint(client, t, 'columns'),
		qs: Object.keys(qs).length > 0 ? qs : undefined,
		body: { columns },
		itemIndex,
	});
}

/** `DELETE …/columns/{colId}`: the column and its data. */
export async function deleteColumn(
	client: GristClient,
	t: Target,
	colId: string,
	itemIndex: number,
): Promise<void> {
	const { path } = tableEndpoint(client, t, 'columns', { value: colId, label: 'column ID' });
	const what = `column "${colId}" of table "${t.tableId}"`;
	await client.request({ method: 'DELETE', path, what, itemIndex });
}
