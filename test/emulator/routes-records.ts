/**
 * §5 Records: GET /records, POST /records/list, POST /records (add), PATCH /records (update),
 * PUT /records (add or update), POST /records/delete, on /api/docs/{docId}/tables/{tableId}.
 */
import type { Ctx, Route } from './context';
import { json } from './context';
import { RowWriter, addRows, deleteRows, updateRows } from './actions';
import { isErrorCell } from './cells-convert';
import { typedValue } from './cells-format';
import { asObject, flag, queryFromRequest, queryRows, sandbox, tableRoute } from './docworker';
import { RowEvaluator } from './formula';
import { ApiError } from './http';
import type { Doc, Row, Table } from './model';
import { isHiddenCol } from './model';
import { validateBody } from './payload';
import type { Query } from './query';
import { isAffirmative, parseFilter, parseLimit, parseSort, valueKey } from './query';

function recordsResponse(c: Ctx, t: Table, q: Query, hidden: boolean, typed: boolean) {
	const rows = queryRows(c, t, q);
	const cols = t.columns.filter((x) => hidden || !isHiddenCol(x.id));
	const records = new Array(rows.length);
	for (let i = 0; i < rows.length; i++) {
		const { id, row } = rows[i];
		const fields: Row = {};
		let errors: Record<string, string> | undefined;
		for (const col of cols) {
			let v = row[col.id];
			if (v === undefined) v = null;
			if (typed) v = typedValue(col, v);
			else if (isErrorCell(v)) {
				(errors ??= {})[col.id] = String(v[1]);
				v = null;
			}
			fields[col.id] = v;
		}
		records[i] = errors ? { id, fields, errors } : { id, fields };
	}
	return { records };
}

function recordsArray(c: Ctx, type: 'RecordsPost' | 'RecordsPatch' | 'RecordsPut'): unknown[] {
	const body = json(c);
	validateBody(type, body);
	return (body as { records: unknown[] }).records;
}

function postRecords(c: Ctx, doc: Doc, t: Table) {
	const recs = recordsArray(c, 'RecordsPost') as Array<{ fields?: unknown }>;
	const given = recs.map((r, i) => asObject(r.fields, `body.records[${i}].fields`));
	// DocApi sends one BulkAddRecord of the union of the records' fields (DocActions.ts
	// getColValues): a field another record names is null in a record without it, stored as an
	// explicit null is (null in a Text column, not ''; measured on grist-core 1.7.17)
	const named = [...new Set(given.flatMap((f) => Object.keys(f)))];
	const fieldsList = given.map((f) =>
		Object.fromEntries(named.map((k) => [k, k in f ? f[k] : null])),
	);
	const ids = new RowWriter(c, doc, t).add(fieldsList);
	return { records: ids.map((id) => ({ id })) };
}

function patchRecords(c: Ctx, doc: Doc, t: Table) {
	const recs = recordsArray(c, 'RecordsPatch') as Array<{
		id: number;
		fields: Record<string, unknown>;
	}>;
	const shapes = new Set(recs.map((r) => Object.keys(r.fields).sort().join('\u0000')));
	if (shapes.size > 1) throw new ApiError(400, 'PATCH requires all records to have same fields');
	new RowWriter(c, doc, t).update(recs);
	return null;
}

function putRecords(c: Ctx, doc: Doc, t: Table) {
	const recs = recordsArray(c, 'RecordsPut') as Array<{
		require: Record<string, unknown>;
		fields?: Record<string, unknown>;
	}>;
	const onmany = c.query.onmany ?? 'first';
	if (!['first', 'none', 'all'].includes(onmany))
		throw new ApiError(400, `onmany parameter ${onmany} should be one of first,none,all`);
	const noadd = flag(c, 'noadd');
	const noupdate = flag(c, 'noupdate');
	const allowEmpty = flag(c, 'allow_empty_require');
	const w = new RowWriter(c, doc, t);
	const cols = w.cols;
	const items = recs.map((r, i) => ({ i, require: r.require, fields: r.fields ?? {} }));
	// validate everything first (atomic)
	for (const it of items) {
		for (const k of Object.keys(it.require))
			if (k !== 'id' && !cols.has(k)) throw new ApiError(400, `Invalid column "${k}"`);
		w.check(it.fields);
		if (!Object.keys(it.require).length && !allowEmpty)
			throw sandbox("ValueError require is empty but allow_empty_require isn't set");
	}
	// group by shape
	const groups = new Map<string, typeof items>();
	for (const it of items) {
		const shape = JSON.stringify([Object.keys(it.require).sort(), Object.keys(it.fields).sort()]);
		const g = groups.get(shape);
		if (g) g.push(it);
		else groups.set(shape, [it]);
	}
	for (const g of groups.values()) {
		const seen = new Set<string>();
		for (const it of g) {
			const k = JSON.stringify(
				Object.keys(it.require)
					.sort()
					.map((key) => [key, it.require[key]]),
			);
			if (seen.has(k)) throw sandbox('ValueError require values must be unique');
			seen.add(k);
		}
	}
	w.convertEmptyColumns();
	const recordIds: number[][] = items.map(() => []);
	const addRecordIds: number[] = [];
	const updateRecordIds: number[][] = [];
	const updatedByItem = new Map<number, number[]>();
	const ev = new RowEvaluator(t, c.store.clock());
	for (const g of groups.values()) {
		// lookups see the table as it is before this group's action; one index per group
		const reqKeys = Object.keys(g[0].require).sort();
		const needFormula = reqKeys.some((k) => cols.get(k)?.isFormula);
		let index: Map<string, number[]> | undefined;
		const composite = (get: (k: string) => unknown) =>
			JSON.stringify(reqKeys.map((k) => valueKey(get(k))));
		const lookup = (req: Row): number[] => {
			if (reqKeys.length === 1 && reqKeys[0] === 'id') {
				const id = Number(req.id);
				return t.rows.has(id) ? [id] : [];
			}
			if (!index) {
				index = new Map();
				for (const id of c.store.rowIds(t)) {
					const stored = t.rows.get(id)!;
					const row = needFormula ? ev.full(stored, id) : stored;
					const k = composite((col) => (col === 'id' ? id : row[col]));
					const list = index.get(k);
					if (list) list.push(id);
					else index.set(k, [id]);
				}
			}
			return index.get(composite((col) => req[col])) ?? [];
		};
		const plans = g.map((it) => {
			const req = w.noparse ? it.require : w.encodeRequire(it.require);
			return { it, req, matches: lookup(req) };
		});
		const adds: Array<{ it: (typeof items)[0]; row: Row; id?: number }> = [];
		const updates: Array<{ id: number; values: Row }> = [];
		for (const p of plans) {
			const fieldsEnc = w.encode(p.it.fields);
			if (p.matches.length === 0) {
				if (noadd) continue;
				const row: Row = {};
				let forcedId: number | undefined;
				for (const [k, v] of Object.entries(p.req)) {
					if (k === 'id') forcedId = Number(v);
					else if (!cols.get(k)!.isFormula) row[k] = v;
				}
				Object.assign(row, fieldsEnc);
				adds.push({ it: p.it, row, id: forcedId });
			} else {
				if (noupdate) continue;
				let targets = p.matches;
				if (onmany === 'first') targets = [p.matches[0]];
				else if (onmany === 'none' && p.matches.length > 1) targets = [];
				if (!targets.length) continue;
				for (const id of targets) updates.push({ id, values: fieldsEnc });
				recordIds[p.it.i].push(...targets);
				updatedByItem.set(p.it.i, targets);
			}
		}
		if (updates.length) updateRows(c, t, updates);
		if (adds.length) {
			const ids = addRows(
				c,
				t,
				adds.map((a) => a.row),
				adds.map((a) => a.id),
			);
			adds.forEach((a, k) => {
				recordIds[a.it.i].push(ids[k]);
				addRecordIds.push(ids[k]);
			});
		}
	}
	for (const it of items) {
		const u = updatedByItem.get(it.i);
		if (u) updateRecordIds.push(u);
	}
	doc.updatedAt = c.store.now();
	return { recordIds, addRecordIds, updateRecordIds };
}

export const recordsRoutes: Route[] = [
	tableRoute('GET', 'records', 'viewers', (c, _doc, t) =>
		recordsResponse(c, t, queryFromRequest(c), flag(c, 'hidden'), c.query.cellFormat === 'typed'),
	),
	tableRoute('POST', 'records/list', 'viewers', (c, _doc, t) => {
		const b = json(c) as Record<string, unknown>;
		validateBody('RecordsListPost', b);
		const q: Query = {
			filter: parseFilter(b.filter),
			sort: parseSort(b.sort),
			limit: parseLimit(b.limit),
		};
		return recordsResponse(c, t, q, isAffirmative(b.hidden), b.cellFormat === 'typed');
	}),
	tableRoute('POST', 'records/delete', 'editors', (c, doc, t) => deleteRows(c, doc, t, json(c))),
	tableRoute('POST', 'records', 'editors', postRecords),
	tableRoute('PATCH', 'records', 'editors', patchRecords),
	tableRoute('PUT', 'records', 'editors', putRecords),
];
