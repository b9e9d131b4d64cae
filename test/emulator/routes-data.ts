/**
 * §6 Deprecated `/data` (column-oriented): GET /data (hidden columns included, error cells
 * raw), POST /data (add), PATCH /data (update), POST /data/delete, on
 * /api/docs/{docId}/tables/{tableId}.
 */
import { isErrorCell } from './cells-convert';
import type { Ctx, Route } from './context';
import { json } from './context';
import { RowWriter, deleteRows } from './actions';
import { invalidPayload, queryFromRequest, queryRows, tableRoute } from './docworker';
import { ApiError } from './http';
import type { Doc, Table } from './model';

function getData(c: Ctx, t: Table) {
	const rows = queryRows(c, t, queryFromRequest(c));
	const out: Record<string, unknown[]> = { id: rows.map((r) => r.id) };
	// measured: an error cell is `["E", kind]` here, without the message
	for (const col of t.columns)
		out[col.id] = rows.map((r) => {
			const v = r.row[col.id] ?? null;
			return isErrorCell(v) ? (v as unknown[]).slice(0, 2) : v;
		});
	return out;
}

/** A columnar body `{"A":[…],"B":[…]}`: arrays of one length, and the written column ids (all but `id`). */
function columnarBody(c: Ctx): { body: Record<string, unknown[]>; keys: string[] } {
	const body = json(c);
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw invalidPayload('body is not an object');
	const b = body as Record<string, unknown>;
	let len: number | undefined;
	for (const [k, v] of Object.entries(b)) {
		if (!Array.isArray(v)) throw invalidPayload(`body.${k} is not an array`);
		if (len === undefined) len = v.length;
		else if (len !== v.length)
			throw new ApiError(400, 'Error manipulating data: column lengths differ');
	}
	return { body: b as Record<string, unknown[]>, keys: Object.keys(b).filter((k) => k !== 'id') };
}

/** Row `i` of a columnar body as a record's fields. */
function rowFields(
	body: Record<string, unknown[]>,
	keys: string[],
	i: number,
): Record<string, unknown> {
	const f: Record<string, unknown> = {};
	for (const k of keys) f[k] = body[k][i];
	return f;
}

/** A writer that has checked the body's column ids (also when it holds no rows). */
function checkedWriter(c: Ctx, doc: Doc, t: Table, keys: string[]): RowWriter {
	const w = new RowWriter(c, doc, t);
	w.check(Object.fromEntries(keys.map((k) => [k, null])));
	return w;
}

function postData(c: Ctx, doc: Doc, t: Table) {
	const { body, keys } = columnarBody(c);
	const w = checkedWriter(c, doc, t, keys);
	const n = keys.length ? body[keys[0]].length : 0;
	const rows = Array.from({ length: n }, (_, i) => rowFields(body, keys, i));
	return w.add(rows, Array.isArray(body.id) ? (body.id as number[]) : undefined);
}

function patchData(c: Ctx, doc: Doc, t: Table) {
	const { body, keys } = columnarBody(c);
	if (!body.id) throw invalidPayload('body.id is missing');
	const w = checkedWriter(c, doc, t, keys);
	w.update(body.id.map((id, i) => ({ id, fields: rowFields(body, keys, i) })));
	return null;
}

export const dataRoutes: Route[] = [
	tableRoute('GET', 'data', 'viewers', (c, _doc, t) => getData(c, t)),
	tableRoute('POST', 'data/delete', 'editors', (c, doc, t) => deleteRows(c, doc, t, json(c))),
	tableRoute('POST', 'data', 'editors', postData),
	tableRoute('PATCH', 'data', 'editors', patchData),
];
