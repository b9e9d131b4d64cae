/** Columnar records (/data, deprecated by Grist): `{ id: [...], A: [...] }`. */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import { tableEndpoint, type Target } from './paths';
import { fetchRecords, queryChars, URL_QUERY_CHARS } from './records';

/**
 * GET …/data: `{ id: [...], A: [...] }`. A query too long for a URL (records.ts URL_QUERY_CHARS,
 * a filter of many values) is read as records (fetchRecords: POST …/records/list, hidden columns
 * included) and given in the same shape; a formula error is then `["E", name]` (records name the
 * error, not its message), and an answer without rows asks GET …/data for none (filter `{"id":
 * []}`) for the table's columns.
 */
export async function fetchColumnar(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	itemIndex: number,
): Promise<Record<string, unknown[]>> {
	const get = async (query: IDataObject) =>
		await client.request<Record<string, unknown[]>>({
			method: 'GET',
			...tableEndpoint(client, t, 'data'),
			qs: query,
			itemIndex,
		});
	if (queryChars(qs) <= URL_QUERY_CHARS) return await get(qs);
	const records = await fetchRecords(client, t, { ...qs, hidden: 1 }, itemIndex);
	if (records.length === 0) return await get({ filter: JSON.stringify({ id: [] }) });
	const data: Record<string, unknown[]> = { id: records.map((r) => r.id) };
	for (const col of Object.keys(records[0].fields ?? {}))
		data[col] = records.map((r) => {
			const error = r.errors?.[col];
			return error === undefined ? (r.fields?.[col] ?? null) : ['E', error];
		});
	return data;
}

/** POST …/data (create; returns the new ids) or PATCH …/data (update, with an `id` column). */
export async function writeColumnarData(
	client: GristClient,
	t: Target,
	mode: 'create' | 'update',
	data: Record<string, unknown[]>,
	qs: IDataObject,
	itemIndex: number,
): Promise<number[] | null> {
	return await client.request<number[] | null>({
		method: mode === 'create' ? 'POST' : 'PATCH',
		...tableEndpoint(client, t, 'data'),
		qs,
		body: data,
		itemIndex,
	});
}
