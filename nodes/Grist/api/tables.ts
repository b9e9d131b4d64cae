/** Tables of a document: list (optionally with their columns), create, update. */
import type { IDataObject } from 'n8n-workflow';

import { toColumn, type GristColumn } from '../cells/tableColumns';
import type { GristClient } from './client';
import { documentEndpoint } from './paths';

/** GET /api/docs/{docId}/tables. */
export async function listTables(
	client: GristClient,
	docId: string,
): Promise<Array<{ id: string; fields: IDataObject }>> {
	const res = await client.request<{ tables: Array<{ id: string; fields: IDataObject }> }>({
		method: 'GET',
		...documentEndpoint(client, docId, 'tables'),
	});
	return res.tables;
}

/** `GET /api/docs/{docId}/tables` (with `expand=column`: each table's columns too). */
export async function fetchTables(
	client: GristClient,
	docId: string,
	opts: { columns?: boolean; itemIndex?: number } = {},
): Promise<Array<{ id: string; fields: IDataObject; columns?: GristColumn[] }>> {
	const res = await client.request<{
		tables?: Array<{
			id: string;
			fields: IDataObject;
			columns?: Array<{ id: string; fields?: IDataObject }>;
		}>;
	}>({
		method: 'GET',
		...documentEndpoint(client, docId, 'tables'),
		qs: opts.columns ? { expand: 'column' } : undefined,
		itemIndex: opts.itemIndex,
	});
	return (res?.tables ?? []).map((t) =>
		t.columns ? { ...t, columns: t.columns.map(toColumn) } : { id: t.id, fields: t.fields },
	);
}

/** `POST /api/docs/{docId}/tables`; returns the new tables' ids (Grist may adjust them). */
export async function createTables(
	client: GristClient,
	docId: string,
	tables: IDataObject[],
	itemIndex: number,
): Promise<string[]> {
	const endpoint = documentEndpoint(client, docId, 'tables');
	const res = await client.request<{ tables?: Array<{ id: string }> }>({
		method: 'POST',
		...endpoint,
		body: { tables },
		itemIndex,
	});
	return (res?.tables ?? []).map((t) => t.id);
}

/** `PATCH /api/docs/{docId}/tables` (`{ id, fields }` each; `fields.tableId` renames). */
export async function updateTables(
	client: GristClient,
	docId: string,
	tables: IDataObject[],
	itemIndex: number,
): Promise<void> {
	const endpoint = documentEndpoint(client, docId, 'tables');
	await client.request({ method: 'PATCH', ...endpoint, body: { tables }, itemIndex });
}
