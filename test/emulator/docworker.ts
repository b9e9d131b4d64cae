/**
 * What the doc-worker route sections (§4 downloads, §5–§8, /apply) share: route builders for
 * `/api/docs/{docId}/…` and `/api/docs/{docId}/tables/{tableId}/…` with the access check, the
 * common errors, request flags, and reading a table's rows through a query.
 */
import type { Ctx, Route } from './context';
import { docWorkerAccess, scanned } from './context';
import { RowEvaluator } from './formula';
import { ApiError } from './http';
import type { Column, Doc, Table } from './model';
import type { Query, QueryRow } from './query';
import { isAffirmative, parseFilter, parseLimit, parseSort, runQuery } from './query';

const DOC = '^/api/docs/([^/]+)';
const TABLE = `${DOC}/tables/([^/]+)`;
type Needed = 'viewers' | 'editors' | 'owners';

/**
 * The document a request opens (ActiveDoc), after the access check. A document whose file holds
 * no Grist document (`noMetadata`: a failed `.grist` import) cannot be opened: DocStorage's
 * `_updateMetadata` finds no `_grist_Tables_column` and fails with `NO_METADATA_ERROR: <docId>
 * has no metadata`, an error without a status, so 500; each request tries again and fails again.
 */
export function openDoc(c: Ctx, raw: string, needed: Needed): Doc {
	const doc = docWorkerAccess(c, raw, needed);
	if (doc.noMetadata) throw new ApiError(500, `NO_METADATA_ERROR: ${doc.id} has no metadata`);
	doc.openedName ??= doc.name;
	return doc;
}

/**
 * A route on `/api/docs/{docId}/<suffix>` (suffix: a regexp source such as `attachments/([^/]+)`;
 * its groups follow the doc's in `m`) for callers with at least `needed` access to the document.
 */
export function docRoute(
	method: string,
	suffix: string,
	needed: Needed,
	handler: (c: Ctx, doc: Doc, m: RegExpMatchArray) => unknown,
): Route {
	return {
		method,
		re: new RegExp(`${DOC}/${suffix}$`),
		handler: (c, m) => handler(c, openDoc(c, m[1], needed), m),
	};
}

/** A route on `/api/docs/{docId}/tables/{tableId}/<suffix>`; an unknown table is 404 `Table not found "T"`. */
export function tableRoute(
	method: string,
	suffix: string,
	needed: Needed,
	handler: (c: Ctx, doc: Doc, t: Table) => unknown,
): Route {
	return {
		method,
		re: new RegExp(`${TABLE}/${suffix}$`),
		handler: (c, m) => {
			const doc = openDoc(c, m[1], needed);
			return handler(c, doc, getTable(c, doc, m[2]));
		},
	};
}

export function getTable(c: Ctx, doc: Doc, raw: string): Table {
	const tableId = decodeURIComponent(raw);
	const t = c.store.table(doc, tableId);
	if (!t) throw new ApiError(404, `Table not found "${tableId}"`);
	return t;
}

/** 400 `Invalid payload` with ts-interface-checker's kind of detail (see payload.ts). */
export function invalidPayload(msg: string): ApiError {
	return new ApiError(400, 'Invalid payload', { userError: `Error: ${msg}` });
}

/** 400 `Error manipulating data: [Sandbox] …`: an error of the data engine behind a REST route. */
export function sandbox(msg: string): ApiError {
	return new ApiError(400, `Error manipulating data: [Sandbox] ${msg}`);
}

export function asObject(v: unknown, what: string): Record<string, unknown> {
	if (v === undefined) return {};
	if (!v || typeof v !== 'object' || Array.isArray(v))
		throw invalidPayload(`${what} is not an object`);
	return v as Record<string, unknown>;
}

/** A yes/no query parameter (`noparse`, `hidden`, `noadd`…), Grist's isAffirmative. */
export function flag(c: Ctx, name: string): boolean {
	return isAffirmative(c.query[name]);
}

function header(c: Ctx, name: string): string | undefined {
	const v = c.req.headers[name.toLowerCase()];
	return Array.isArray(v) ? v[0] : v;
}

/** `filter`, `sort` (or X-Sort) and `limit` (or X-Limit) of a GET request. */
export function queryFromRequest(c: Ctx): Query {
	return {
		filter: parseFilter(c.query.filter),
		sort: parseSort(c.query.sort ?? header(c, 'X-Sort')),
		limit: parseLimit(c.query.limit ?? header(c, 'X-Limit')),
	};
}

/** Every row of `t` with its formulas evaluated, in row id order. */
export function evaluatedRows(c: Ctx, t: Table): QueryRow[] {
	const ev = new RowEvaluator(t, c.store.clock());
	const ids = c.store.rowIds(t);
	const out: QueryRow[] = new Array(ids.length);
	for (let i = 0; i < ids.length; i++)
		out[i] = { id: ids[i], row: ev.full(t.rows.get(ids[i])!, ids[i]) };
	return out;
}

/** The rows of `t` a query selects; sort keys are column ids or colRefs. */
export function queryRows(c: Ctx, t: Table, q: Query): QueryRow[] {
	const known = new Set(t.columns.map((x) => x.id));
	const resolveCol = (key: string): Column | undefined =>
		/^\d+$/.test(key)
			? t.columns.find((x) => x.colRef === Number(key))
			: t.columns.find((x) => x.id === key);
	const rows = evaluatedRows(c, t);
	scanned(c, rows.length);
	return runQuery(rows, q, (k) => known.has(k), resolveCol);
}
