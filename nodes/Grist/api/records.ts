/** Records of a table (/records): read, read by id, add, update, upsert, delete. */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { GristRecord } from '../cells/cellValues';
import type { GristClient } from './client';
import { tableEndpoint, targetKey, type Target } from './paths';

/** GET …/records with `filter`, `sort`, `limit`, `hidden` as given. */
export async function fetchRecords(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	itemIndex?: number,
): Promise<GristRecord[]> {
	const endpoint = tableEndpoint(client, t, 'records');
	const res = await client.request<{ records?: GristRecord[] }>({
		method: 'GET',
		...endpoint,
		qs,
		itemIndex,
	});
	return res?.records ?? [];
}

/**
 * The rows GET …/records gives for `qs` (`filter`, `sort`, `limit`), read with an API key from GET
 * …/data, the same rows column by column: a smaller answer that Grist builds and n8n parses
 * faster (docs/PERFORMANCE.md). OAuth2 connections, which Grist refuses /data, and a server
 * without that route read /records. The rows come back as they were sent: columns (with
 * `includeHidden`, which columns of them a read shows) or records.
 */
export async function fetchRows(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	includeHidden: boolean,
	itemIndex?: number,
): Promise<FetchedRows> {
	const records = async () => ({
		records: await fetchRecords(client, t, includeHidden ? { ...qs, hidden: 1 } : qs, itemIndex),
	});
	if (client.isOAuth) return await records();
	const columnar = await client
		.request<Record<string, unknown[]>>({
			method: 'GET',
			...tableEndpoint(client, t, 'data'),
			qs,
			itemIndex,
		})
		.catch((error: unknown) => {
			if (isMissingRoute(error)) return undefined;
			throw error;
		});
	return columnar ? { columns: columnar, includeHidden } : await records();
}

/** Rows as Grist answered them: GET …/data's columns, or GET …/records' records. */
export type FetchedRows =
	| { columns: Record<string, unknown[]>; includeHidden: boolean }
	| { records: GristRecord[] };

/** POST …/records; returns the new rows' ids in the order of `records`. */
export async function addRecords(
	client: GristClient,
	t: Target,
	records: IDataObject[],
	qs: IDataObject,
	itemIndex: number,
): Promise<Array<{ id: number }>> {
	const res = await client.request<{ records?: Array<{ id: number }> }>({
		method: 'POST',
		...tableEndpoint(client, t, 'records'),
		qs,
		body: { records },
		itemIndex,
	});
	return res?.records ?? [];
}

/** PATCH …/records (`{ id, fields }` each, one field set per request). */
export async function updateRecords(
	client: GristClient,
	t: Target,
	records: Array<{ id: number; fields: IDataObject }>,
	qs: IDataObject | undefined,
	itemIndex: number,
): Promise<void> {
	const endpoint = tableEndpoint(client, t, 'records');
	await client.request({ method: 'PATCH', ...endpoint, qs, body: { records }, itemIndex });
}

export interface UpsertResponse {
	recordIds?: Array<number[] | number | null>;
}

/** PUT …/records (`{ require, fields }` each). */
export async function upsertRecords(
	client: GristClient,
	t: Target,
	records: Array<{ require: IDataObject; fields: IDataObject }>,
	qs: IDataObject,
	itemIndex: number,
): Promise<UpsertResponse | null> {
	return await client.request<UpsertResponse | null>({
		method: 'PUT',
		...tableEndpoint(client, t, 'records'),
		qs,
		body: { records },
		itemIndex,
	});
}

/** Characters of IDs per GET …/records?filter= (the filter goes in the URL: `%2C` between IDs). */
const FILTER_URL_CHARS = 8000;

/** `ids` in runs of about FILTER_URL_CHARS characters, one GET …/records?filter= each. */
function* filterIdChunks(ids: number[]): Generator<number[]> {
	let k = 0;
	while (k < ids.length) {
		let chars = 0;
		let end = k;
		while (end < ids.length && (end === k || chars < FILTER_URL_CHARS))
			chars += String(ids[end++]).length + 3;
		yield ids.slice(k, end);
		k = end;
	}
}

/**
 * GET …/records?filter={"id":[…]}: the rows `ids` of the table that exist (one record each, in
 * Grist's order), about 1,000 IDs a request so that the URL stays short; `qs` adds the other
 * parameters of every request (e.g. `hidden`).
 */
export async function fetchRecordsById(
	client: GristClient,
	t: Target,
	ids: number[],
	qs: IDataObject,
	itemIndex?: number,
): Promise<GristRecord[]> {
	const records: GristRecord[] = [];
	for (const chunk of filterIdChunks(ids)) {
		const rows = await fetchRecords(
			client,
			t,
			{ ...qs, filter: JSON.stringify({ id: chunk }) },
			itemIndex,
		);
		for (const row of rows) records.push(row);
	}
	return records;
}

/** Whether a 404 says the route is missing (an older server), not that the table or doc is. */
function isMissingRoute(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return false;
	return (
		!/table|document|column|workspace|organization|attachment/i.test(error.message) ||
		/^not found: \//i.test(error.message)
	);
}

/**
 * Deletes rows with `POST …/records/delete` (Grist 1.7.5+), falling back to `POST …/data/delete`
 * where the server does not have that route (remembered in `legacy`, by table, for the rest of
 * the execution). `route: 'data'` goes to `/data/delete` directly.
 */
export async function deleteRows(
	client: GristClient,
	t: Target,
	rowIds: number[],
	itemIndex: number,
	route: 'records' | 'data',
	legacy: Set<string>,
): Promise<void> {
	const key = targetKey(t);
	const send = async (to: 'records' | 'data') => {
		const endpoint = tableEndpoint(client, t, to, 'delete');
		await client.request({ method: 'POST', ...endpoint, body: rowIds, itemIndex });
	};
	if (route === 'data' || legacy.has(key)) {
		await send('data');
		return;
	}
	const failure = await send('records').then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure === undefined) return;
	if (!isMissingRoute(failure)) return await Promise.reject(failure as Error);
	legacy.add(key);
	await send('data');
}
