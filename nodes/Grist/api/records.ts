/** Records of a table (/records): read, read by id, add, update, upsert, delete. */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { GristRecord } from '../cells/cellValues';
import { InputError } from '../errors/gristAnswers';
import type { GristClient } from './client';
import { tableEndpoint, targetKey, type Target } from './paths';

/**
 * Characters of a read's query string up to which it is sent as `GET …?filter=…`. Grist (Node's
 * HTTP server) refuses a request whose head passes 16 KB with 431, and a reverse proxy in front
 * of it may allow less (nginx: 8 KB a request line by default); a longer query goes in a request
 * body (POST …/records/list) or, where the server cannot take it, into several GETs.
 */
export const URL_QUERY_CHARS = 6000;

/** Bytes of a POST …/records/list body (Grist takes JSON bodies up to 1 MB). */
export const LIST_BODY_BYTES = 1_000_000;

/** Grist's filter: column → the values a row's cell may have. */
type Filter = Record<string, unknown[]>;

/** The length of `qs` as a URL's query string. */
export function queryChars(qs: IDataObject): number {
	let chars = 0;
	for (const [key, value] of Object.entries(qs))
		if (value !== undefined) chars += key.length + 2 + encodeURIComponent(String(value)).length;
	return chars;
}

/**
 * `filter` as filters of several requests that together match the same rows, each one of them
 * (each row has one value per column), whose size by `size` (of one value in a list) stays under
 * `budget` where a value's own size allows: the longest list is cut into runs that fit beside
 * the other columns, or halved when those take most of the room.
 */
export function splitFilter(
	filter: Filter,
	size: (v: unknown) => number,
	budget: number,
): Filter[] {
	// a column's key and brackets, and the braces, measured as values are
	const listSize = (col: string, values: unknown[]) =>
		values.reduce<number>((n, v) => n + size(v), size(col) + size([]));
	let total = size({});
	let longest: string | undefined;
	let longestSize = -1;
	for (const [col, values] of Object.entries(filter)) {
		const s = listSize(col, values);
		total += s;
		if (values.length > 1 && s > longestSize) [longest, longestSize] = [col, s];
	}
	if (total <= budget || longest === undefined) return [filter];
	const values = filter[longest];
	const room = budget - (total - longestSize + listSize(longest, []));
	if (room < budget / 2) {
		const half = Math.ceil(values.length / 2);
		return [values.slice(0, half), values.slice(half)].flatMap((part) =>
			splitFilter({ ...filter, [longest]: part }, size, budget),
		);
	}
	const parts: Filter[] = [];
	let run: unknown[] = [];
	let runSize = 0;
	for (const v of values) {
		const s = size(v);
		if (run.length > 0 && runSize + s > room) {
			parts.push({ ...filter, [longest]: run });
			[run, runSize] = [[], 0];
		}
		run.push(v);
		runSize += s;
	}
	parts.push({ ...filter, [longest]: run });
	return parts;
}

/** A value's characters in a URL-encoded filter (with the comma after it). */
const urlSize = (v: unknown) => encodeURIComponent(JSON.stringify(v)).length + 3;
/** A value's bytes in a JSON body (with the comma after it). */
const bodySize = (v: unknown) => Buffer.byteLength(JSON.stringify(v)) + 1;

/**
 * The records of several reads of one query with its filter split: each row once, in row ID
 * order (Grist's order without Sort), at most `limit`.
 */
function mergeParts(parts: GristRecord[][], limit: unknown): GristRecord[] {
	if (parts.length === 1) return parts[0];
	const byId = new Map<number, GristRecord>();
	for (const part of parts) for (const r of part) if (!byId.has(r.id)) byId.set(r.id, r);
	const merged = [...byId.values()].sort((a, b) => a.id - b.id);
	const max = Number(limit);
	return max > 0 ? merged.slice(0, max) : merged;
}

/** Refuses a Sort on a read whose filter takes several requests (their rows cannot be merged in order). */
function refuseSortedSplit(qs: IDataObject, parts: Filter[], why: string, hint: string): void {
	if (parts.length < 2 || qs.sort === undefined || qs.sort === '') return;
	throw new InputError(
		`The filter is too long for one request ${why}, and Sort cannot be applied across the ${parts.length} requests it takes`,
		'Sort',
		hint,
	);
}

/** The request body of POST …/records/list for `qs` (GET …/records' parameters). */
export function listBody(qs: IDataObject, filter: Filter): IDataObject {
	const body: IDataObject = { filter };
	if (qs.sort !== undefined && qs.sort !== '') body.sort = String(qs.sort).split(',');
	if (qs.limit !== undefined) body.limit = Number(qs.limit);
	if (qs.hidden !== undefined) body.hidden = Boolean(qs.hidden) && qs.hidden !== '0';
	if (qs.cellFormat !== undefined) body.cellFormat = qs.cellFormat;
	return body;
}

/**
 * GET …/records with `filter`, `sort`, `limit`, `hidden` as given, where the query string is
 * short (URL_QUERY_CHARS). A longer one (a filter of many values) goes in the body of POST
 * …/records/list (grist-core 1.7.14 and later), one request per LIST_BODY_BYTES of it; an older
 * server (404 for that route) and OAuth2 connections (whose tokens Grist grants that route to
 * no scope the package knows) read it with several GETs, the filter's longest list split so
 * that each URL stays short. Several requests give each row once, in row ID order; a Sort
 * cannot be merged across them and is refused before any request.
 */
export async function fetchRecords(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	itemIndex?: number,
): Promise<GristRecord[]> {
	const get = async (query: IDataObject) => {
		const res = await client.request<{ records?: GristRecord[] }>({
			method: 'GET',
			...tableEndpoint(client, t, 'records'),
			qs: query,
			itemIndex,
		});
		return res?.records ?? [];
	};
	if (typeof qs.filter !== 'string' || queryChars(qs) <= URL_QUERY_CHARS) return await get(qs);
	const filter = JSON.parse(qs.filter) as Filter;
	if (!client.isOAuth) {
		const sizes = JSON.stringify(listBody(qs, {})).length;
		const bodies = splitFilter(filter, bodySize, LIST_BODY_BYTES - sizes);
		refuseSortedSplit(
			qs,
			bodies,
			'(over 1 MB of values)',
			"Remove the Sort (and sort the items with n8n's Sort node), or read fewer values per item.",
		);
		const parts: GristRecord[][] = [];
		const failure = await (async () => {
			for (const part of bodies) {
				const res = await client.request<{ records?: GristRecord[] }>({
					method: 'POST',
					...tableEndpoint(client, t, 'records', 'list'),
					body: listBody(qs, part),
					itemIndex,
				});
				parts.push(res?.records ?? []);
			}
		})().then(
			() => undefined,
			(error: unknown) => error,
		);
		if (failure === undefined) return mergeParts(parts, qs.limit);
		if (!isMissingRoute(failure)) return await Promise.reject(failure as Error);
	}
	const rest = { ...qs, filter: '' };
	const urls = splitFilter(filter, urlSize, URL_QUERY_CHARS - queryChars(rest));
	refuseSortedSplit(
		qs,
		urls,
		client.isOAuth ? 'with an OAuth2 connection' : 'to this Grist server (older than 1.7.14)',
		client.isOAuth
			? "Connect with an API key (Grist then takes the filter in one request), or remove the Sort and sort the items with n8n's Sort node."
			: "Update Grist to 1.7.14 or later (it takes the filter in one request), or remove the Sort and sort the items with n8n's Sort node.",
	);
	const parts: GristRecord[][] = [];
	for (const part of urls) parts.push(await get({ ...qs, filter: JSON.stringify(part) }));
	return mergeParts(parts, qs.limit);
}

/**
 * The rows GET …/records gives for `qs` (`filter`, `sort`, `limit`), read with an API key from GET
 * …/data, the same rows column by column: a smaller answer that Grist builds and n8n parses
 * faster (docs/PERFORMANCE.md). OAuth2 connections, which Grist refuses /data, a server
 * without that route and a query too long for a URL read /records (fetchRecords). The rows come
 * back as they were sent: columns (with `includeHidden`, which columns of them a read shows) or
 * records.
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
	if (client.isOAuth || queryChars(qs) > URL_QUERY_CHARS) return await records();
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

/**
 * The rows `ids` of the table that exist (one record each, in Grist's order), read with filter
 * `{"id": […]}` (fetchRecords: one request however many IDs where the server takes the filter
 * in a body); `qs` adds the other parameters (e.g. `hidden`).
 */
export async function fetchRecordsById(
	client: GristClient,
	t: Target,
	ids: number[],
	qs: IDataObject,
	itemIndex?: number,
): Promise<GristRecord[]> {
	if (ids.length === 0) return [];
	return await fetchRecords(client, t, { ...qs, filter: JSON.stringify({ id: ids }) }, itemIndex);
}

/** Whether a 404 says the route is missing (an older server), not that the table or doc is. */
export function isMissingRoute(error: unknown): boolean {
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
