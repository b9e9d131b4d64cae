/**
 * Reads of given rows that ask `/sql` first and fall back to Grist's record filter where `/sql`
 * is refused (OAuth tokens, which Grist does not allow it; 403 for a user who may not read the
 * whole document; remembered in `sqlRefused` by document for the rest of the execution): which
 * IDs are missing (the reference check before a write), the cells of given rows (the shown
 * columns of referenced rows) and the rows whose cell in a column is one of given values (the
 * names typed for references).
 */
import { NodeApiError } from 'n8n-workflow';

import { sqlRecord } from '../query/recordConditions';
import { sqlIdentifier, sqlIdList, sqlToCellValue } from '../query/sqlQuery';
import type { GristClient } from './client';
import type { Target } from './paths';
import { fetchRecords, fetchRecordsById } from './records';
import { runSql } from './sql';

/** Row IDs per `/sql` query (a JSON argument: ~7 bytes an ID, far below Grist's 1 MB body limit). */
const SQL_ID_CHUNK = 50000;

/**
 * Runs `sql`, whose one argument is a JSON list of IDs, once per SQL_ID_CHUNK of `ids`, handing
 * every answered row to `onRow`; resolves to the error that stopped it, or undefined.
 */
async function sqlOverIds(
	client: GristClient,
	docId: string,
	sql: string,
	ids: number[],
	itemIndex: number | undefined,
	onRow: (row: Record<string, unknown>) => void,
): Promise<unknown> {
	try {
		for (let k = 0; k < ids.length; k += SQL_ID_CHUNK) {
			const chunk = ids.slice(k, k + SQL_ID_CHUNK);
			const rows = await runSql(client, docId, sql, [sqlIdList(chunk)], undefined, itemIndex);
			for (const row of rows) onRow(row);
		}
		return undefined;
	} catch (error) {
		return error;
	}
}

/**
 * Which of `ids` are not rows of table `tableId`; `undefined` when the table itself does not
 * exist. Asks `POST /sql`
 * `SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM "T" WHERE id = value)`:
 * answered from the document's SQLite file, one primary-key search per ID, and the answer lists
 * only the missing IDs (usually none), one request per SQL_ID_CHUNK IDs (the quickest and
 * smallest of the queries tried: docs/PERFORMANCE.md, Reference check). The fallback reads the
 * rows by ID with Grist's filter (fetchRecordsById).
 */
export async function missingRowIds(
	client: GristClient,
	docId: string,
	tableId: string,
	ids: number[],
	itemIndex: number,
	sqlRefused: Set<string>,
): Promise<Set<number> | undefined> {
	const missing = new Set<number>();
	if (ids.length === 0) return missing;
	if (!client.isOAuth && !sqlRefused.has(docId)) {
		const sql = `SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM ${sqlIdentifier(tableId)} WHERE id = value)`;
		const failure = await sqlOverIds(client, docId, sql, ids, itemIndex, (row) =>
			missing.add(Number(row.id)),
		);
		if (failure === undefined) return missing;
		const api = failure instanceof NodeApiError;
		if (api && /no such table/i.test(failure.message)) return undefined;
		if (!api || failure.httpCode !== '403') return await Promise.reject(failure as Error);
		sqlRefused.add(docId);
		missing.clear();
	}
	const byRecords = async () => {
		const rows = await fetchRecordsById(client, { docId, tableId }, ids, {}, itemIndex);
		const found = new Set<number>();
		for (const row of rows) found.add(row.id);
		for (const id of ids) if (!found.has(id)) missing.add(id);
	};
	const failure = await byRecords().then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure === undefined) return missing;
	if (
		failure instanceof NodeApiError &&
		failure.httpCode === '404' &&
		/table/i.test(failure.message)
	)
		return undefined;
	return await Promise.reject(failure as Error);
}

/**
 * Cells of the rows `ids` of table `tableId`, only of the columns `colIds`, in /records' encoding
 * (`types`: the table's column types); rows that do not exist are absent from the map. Asks
 * `POST /sql` `SELECT id, "A" FROM "T" WHERE id IN (SELECT value FROM json_each(?))`, one
 * request per SQL_ID_CHUNK IDs: only the columns asked for, in a request body rather than a
 * URL (docs/PERFORMANCE.md, Reference display). The fallback reads whole records by ID with
 * Grist's filter (fetchRecordsById).
 */
export async function readRowsById(
	client: GristClient,
	target: Target,
	colIds: string[],
	types: Record<string, string>,
	ids: number[],
	sqlRefused: Set<string>,
	itemIndex?: number,
): Promise<Map<number, Record<string, unknown>>> {
	const found = new Map<number, Record<string, unknown>>();
	if (ids.length === 0) return found;
	const { docId, tableId } = target;
	if (!client.isOAuth && !sqlRefused.has(docId)) {
		const columns = ['id', ...colIds.filter((c) => c !== 'id')].map(sqlIdentifier).join(', ');
		const sql = `SELECT ${columns} FROM ${sqlIdentifier(tableId)} WHERE id IN (SELECT value FROM json_each(?))`;
		const failure = await sqlOverIds(client, docId, sql, ids, itemIndex, (row) => {
			const record = sqlRecord(row, types);
			found.set(record.id, record.fields);
		});
		if (failure === undefined) return found;
		if (!(failure instanceof NodeApiError) || failure.httpCode !== '403')
			return await Promise.reject(failure as Error);
		sqlRefused.add(docId);
		found.clear();
	}
	for (const row of await fetchRecordsById(client, target, ids, {}, itemIndex)) {
		const fields: Record<string, unknown> = {};
		for (const c of colIds) if (c !== 'id') fields[c] = row.fields?.[c] ?? null;
		found.set(row.id, fields);
	}
	return found;
}

/** JSON characters of values per `/sql` query of findRowsByValue (far below the 1 MB body limit). */
const SQL_VALUE_CHARS = 200000;

/** `values` in runs of about `chars` characters of JSON. */
function valueChunks<V>(values: V[], chars: number): V[][] {
	const chunks: V[][] = [];
	let chunk: V[] = [];
	let size = 0;
	for (const v of values) {
		const length = JSON.stringify(v).length + 1;
		if (chunk.length > 0 && size + length > chars) {
			chunks.push(chunk);
			chunk = [];
			size = 0;
		}
		chunk.push(v);
		size += length;
	}
	if (chunk.length > 0) chunks.push(chunk);
	return chunks;
}

/**
 * The rows of table `target` whose column `colId` (of type `type`) holds one of `values` (stored
 * values: text, numbers, booleans), as `{ id, value }` with the value in /records' encoding. Asks
 * `POST /sql` `SELECT id, "C" FROM "T" WHERE "C" IN (SELECT value FROM json_each(?))`: all the
 * values in one request body (exact matches, as Grist's filter); the fallback is Grist's filter
 * `{"C":[…]}` (fetchRecords: in one POST …/records/list body, or in several URLs).
 */
export async function findRowsByValue(
	client: GristClient,
	target: Target,
	colId: string,
	type: string,
	values: Array<string | number | boolean>,
	sqlRefused: Set<string>,
	itemIndex?: number,
): Promise<Array<{ id: number; value: unknown }>> {
	const found: Array<{ id: number; value: unknown }> = [];
	if (values.length === 0) return found;
	const { docId, tableId } = target;
	if (!client.isOAuth && !sqlRefused.has(docId)) {
		const col = sqlIdentifier(colId);
		const sql = `SELECT id, ${col} FROM ${sqlIdentifier(tableId)} WHERE ${col} IN (SELECT value FROM json_each(?))`;
		const failure = await (async () => {
			for (const chunk of valueChunks(values, SQL_VALUE_CHARS)) {
				const rows = await runSql(
					client,
					docId,
					sql,
					[JSON.stringify(chunk)],
					undefined,
					itemIndex,
				);
				for (const row of rows)
					found.push({ id: Number(row.id), value: sqlToCellValue(row[colId], type) });
			}
		})().then(
			() => undefined,
			(error: unknown) => error,
		);
		if (failure === undefined) return found;
		if (!(failure instanceof NodeApiError) || failure.httpCode !== '403')
			return await Promise.reject(failure as Error);
		sqlRefused.add(docId);
		found.length = 0;
	}
	const filter = JSON.stringify({ [colId]: values });
	for (const row of await fetchRecords(client, target, { filter }, itemIndex))
		found.push({ id: row.id, value: row.fields?.[colId] ?? null });
	return found;
}
