/** Doc-worker routes: tables, columns, records, /data, attachments, downloads (§4–§9). */
import type { Ctx, Route } from './context';
import { RAW, docWorkerAccess, integerParam, json } from './context';
import type { Query, QueryRow } from './cells';
import {
	RowEvaluator,
	convertCell,
	dependsOn,
	displayValue,
	evalTrigger,
	isAffirmative,
	isTriggerCol,
	parseCell,
	parseFilter,
	parseLimit,
	parseSort,
	runQuery,
	typedValue,
	tzOffsetMs,
} from './cells';
import { ApiError, contentDisposition, sendRaw } from './http';
import { validateBody } from './payload';
import type { Column, Doc, Row, Table } from './model';
import { baseType, defaultFor, isHiddenCol, newColId, tableIdent, typeArg, uniqueIdent, widgetOptionsString } from './model';
import { buildXlsx, toCsv } from './zip';
import type { SheetCell } from './zip';

function invalidPayload(msg: string): ApiError {
	return new ApiError(400, 'Invalid payload', { userError: `Error: ${msg}` });
}

function getTable(c: Ctx, doc: Doc, raw: string): Table {
	const tableId = decodeURIComponent(raw);
	const t = c.store.table(doc, tableId);
	if (!t) throw new ApiError(404, `Table not found "${tableId}"`);
	return t;
}

function sandbox(msg: string): ApiError {
	return new ApiError(400, `Error manipulating data: [Sandbox] ${msg}`);
}

// ------------------------------------------------------------------ reading
function flag(c: Ctx, name: string): boolean {
	return isAffirmative(c.query[name]);
}

function header(c: Ctx, name: string): string | undefined {
	const v = c.req.headers[name.toLowerCase()];
	return Array.isArray(v) ? v[0] : v;
}

function queryFromRequest(c: Ctx): Query {
	return {
		filter: parseFilter(c.query.filter),
		sort: parseSort(c.query.sort ?? header(c, 'X-Sort')),
		limit: parseLimit(c.query.limit ?? header(c, 'X-Limit')),
	};
}

function resolver(c: Ctx, doc: Doc, t: Table) {
	return (key: string): Column | undefined => {
		if (/^\d+$/.test(key)) {
			const col = t.columns.find((x) => x.colRef === Number(key));
			return col;
		}
		return t.columns.find((x) => x.id === key);
	};
}

function evaluatedRows(c: Ctx, t: Table): QueryRow[] {
	const ev = new RowEvaluator(t, c.store.clock());
	const ids = c.store.rowIds(t);
	const out: QueryRow[] = new Array(ids.length);
	for (let i = 0; i < ids.length; i++) out[i] = { id: ids[i], row: ev.full(t.rows.get(ids[i])!, ids[i]) };
	return out;
}

function queryRows(c: Ctx, doc: Doc, t: Table, q: Query): QueryRow[] {
	const known = new Set(t.columns.map((x) => x.id));
	return runQuery(evaluatedRows(c, t), q, (k) => known.has(k), resolver(c, doc, t));
}

function recordsResponse(c: Ctx, doc: Doc, t: Table, q: Query, hidden: boolean, typed: boolean) {
	const rows = queryRows(c, doc, t, q);
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
			else if (Array.isArray(v) && v[0] === 'E') {
				(errors ??= {})[col.id] = String(v[1]);
				v = null;
			}
			fields[col.id] = v;
		}
		records[i] = errors ? { id, fields, errors } : { id, fields };
	}
	return { records };
}

// ------------------------------------------------------------------ writing
interface Writer {
	doc: Doc;
	t: Table;
	noparse: boolean;
}

function colMap(t: Table): Map<string, Column> {
	return new Map(t.columns.map((x) => [x.id, x]));
}

/** Validates field names; returns the columns that must be converted from empty formula to data. */
function checkFields(w: Writer, cols: Map<string, Column>, fields: Record<string, unknown>, toConvert: Set<Column>): void {
	for (const k of Object.keys(fields)) {
		const col = cols.get(k);
		if (!col) throw new ApiError(400, `Invalid column "${k}"`);
		if (col.isFormula) {
			if (col.formula.trim() === '') toConvert.add(col);
			else throw sandbox(`ValueError Can't save value to formula column ${k}`);
		}
	}
}

function convertEmptyColumns(w: Writer, toConvert: Set<Column>) {
	for (const col of toConvert) {
		col.isFormula = false;
		const d = defaultFor(col.type);
		for (const row of w.t.rows.values()) if (!(col.id in row)) row[col.id] = d;
	}
}

/** The value stored for `v` written to `col`: parsed unless `noparse`, then converted by the data engine. */
function storeValue(c: Ctx, doc: Doc, col: Column, v: unknown, noparse: boolean): unknown {
	return convertCell(col, noparse ? v : parseCell(c.store, doc, col, v));
}

function encode(c: Ctx, w: Writer, cols: Map<string, Column>, fields: Record<string, unknown>): Row {
	const out: Row = {};
	for (const [k, v] of Object.entries(fields)) out[k] = storeValue(c, w.doc, cols.get(k)!, v, w.noparse);
	return out;
}

/**
 * Adds rows like the data engine's BulkAddRecord: a trigger-formula column (recalcWhen 0 or 2)
 * that a row was not given a value for gets its formula's value.
 */
function addRows(c: Ctx, t: Table, rows: Row[], ids?: Array<number | undefined>): number[] {
	const out = c.store.insertRows(t, rows, ids);
	const triggers = t.columns.filter((col) => isTriggerCol(col) && col.recalcWhen !== 1);
	if (triggers.length) {
		const now = c.store.clock();
		out.forEach((id, i) => {
			const row = t.rows.get(id)!;
			for (const col of triggers) if (!(col.id in rows[i])) row[col.id] = evalTrigger(t, col, row, id, now);
		});
	}
	return out;
}

/**
 * Updates rows like the data engine's BulkUpdateRecord: only rows where a value really changes
 * count; then trigger formulas recalculate on those rows (recalcWhen 2: any change; 0: a change
 * to a column listed in recalcDeps), except a column the update itself set (unless it lists
 * itself in recalcDeps).
 */
function updateRows(c: Ctx, t: Table, updates: Array<{ id: number; values: Row }>): void {
	const changedCols = new Set<string>();
	const changedRows: number[] = [];
	for (const u of updates) {
		const row = t.rows.get(u.id)!;
		let changed = false;
		for (const [k, v] of Object.entries(u.values)) {
			if (keyOf(row[k]) === keyOf(v)) continue;
			changedCols.add(k);
			changed = true;
		}
		if (changed) changedRows.push(u.id);
	}
	for (const u of updates) Object.assign(t.rows.get(u.id)!, u.values);
	const triggers = t.columns.filter(isTriggerCol);
	if (!triggers.length || !changedRows.length) return;
	const refs = t.columns.filter((col) => changedCols.has(col.id)).map((col) => col.colRef);
	const now = c.store.clock();
	for (const col of triggers) {
		const selfDep = col.recalcWhen === 0 && dependsOn(col, col.colRef);
		if (changedCols.has(col.id) && !selfDep) continue;
		const due = col.recalcWhen === 2 || (col.recalcWhen === 0 && refs.some((r) => dependsOn(col, r)));
		if (!due) continue;
		for (const id of changedRows) {
			const row = t.rows.get(id)!;
			row[col.id] = evalTrigger(t, col, row, id, now);
		}
	}
}

function asObject(v: unknown, what: string): Record<string, unknown> {
	if (v === undefined) return {};
	if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalidPayload(`${what} is not an object`);
	return v as Record<string, unknown>;
}

function recordsArray(c: Ctx, type: 'RecordsPost' | 'RecordsPatch' | 'RecordsPut'): unknown[] {
	const body = json(c);
	validateBody(type, body);
	return (body as { records: unknown[] }).records;
}

function postRecords(c: Ctx, doc: Doc, t: Table) {
	const recs = recordsArray(c, 'RecordsPost') as Array<{ fields?: unknown }>;
	const w: Writer = { doc, t, noparse: flag(c, 'noparse') };
	const cols = colMap(t);
	const toConvert = new Set<Column>();
	const fieldsList = recs.map((r, i) => asObject(r.fields, `body.records[${i}].fields`));
	for (const f of fieldsList) checkFields(w, cols, f, toConvert);
	convertEmptyColumns(w, toConvert);
	const rows = fieldsList.map((f) => encode(c, w, cols, f));
	const ids = addRows(c, t, rows);
	doc.updatedAt = c.store.now();
	return { records: ids.map((id) => ({ id })) };
}

function patchRecords(c: Ctx, doc: Doc, t: Table) {
	const recs = recordsArray(c, 'RecordsPatch') as Array<{ id: number; fields: Record<string, unknown> }>;
	const w: Writer = { doc, t, noparse: flag(c, 'noparse') };
	const cols = colMap(t);
	const toConvert = new Set<Column>();
	let shape: string | undefined;
	const items = recs.map((r) => {
		const fields = r.fields;
		const s = Object.keys(fields).sort().join('\u0000');
		if (shape === undefined) shape = s;
		else if (shape !== s) throw new ApiError(400, 'PATCH requires all records to have same fields');
		return { id: r.id, fields };
	});
	for (const it of items) checkFields(w, cols, it.fields, toConvert);
	for (const it of items) if (!t.rows.has(it.id)) throw new ApiError(400, `Invalid row id ${it.id}`);
	convertEmptyColumns(w, toConvert);
	updateRows(
		c,
		t,
		items.map((it) => ({ id: it.id, values: encode(c, w, cols, it.fields) })),
	);
	doc.updatedAt = c.store.now();
	return null;
}

function keyOf(v: unknown): unknown {
	return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}

function putRecords(c: Ctx, doc: Doc, t: Table) {
	const recs = recordsArray(c, 'RecordsPut') as Array<{ require: Record<string, unknown>; fields?: Record<string, unknown> }>;
	const onmany = c.query.onmany ?? 'first';
	if (!['first', 'none', 'all'].includes(onmany))
		throw new ApiError(400, `onmany parameter ${onmany} should be one of first,none,all`);
	const noadd = flag(c, 'noadd');
	const noupdate = flag(c, 'noupdate');
	const allowEmpty = flag(c, 'allow_empty_require');
	const w: Writer = { doc, t, noparse: flag(c, 'noparse') };
	const cols = colMap(t);
	const toConvert = new Set<Column>();
	const items = recs.map((r, i) => ({ i, require: r.require, fields: r.fields ?? {} }));
	// validate everything first (atomic)
	for (const it of items) {
		for (const k of Object.keys(it.require)) if (k !== 'id' && !cols.has(k)) throw new ApiError(400, `Invalid column "${k}"`);
		checkFields(w, cols, it.fields, toConvert);
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
			const k = JSON.stringify(Object.keys(it.require).sort().map((key) => [key, it.require[key]]));
			if (seen.has(k)) throw sandbox('ValueError require values must be unique');
			seen.add(k);
		}
	}
	convertEmptyColumns(w, toConvert);
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
		const composite = (get: (k: string) => unknown) => JSON.stringify(reqKeys.map((k) => keyOf(get(k))));
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
			const req = w.noparse ? it.require : encodeRequire(c, w, cols, it.require);
			return { it, req, matches: lookup(req) };
		});
		const adds: Array<{ it: (typeof items)[0]; row: Row; id?: number }> = [];
		const updates: Array<{ id: number; values: Row }> = [];
		for (const p of plans) {
			const fieldsEnc = encode(c, w, cols, p.it.fields);
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

function encodeRequire(c: Ctx, w: Writer, cols: Map<string, Column>, req: Record<string, unknown>): Row {
	const out: Row = {};
	for (const [k, v] of Object.entries(req)) out[k] = k === 'id' ? v : storeValue(c, w.doc, cols.get(k)!, v, false);
	return out;
}

/** BulkRemoveRecord: ids that do not exist are ignored (the data engine skips them). */
function deleteRows(c: Ctx, doc: Doc, t: Table, body: unknown) {
	if (!Array.isArray(body)) throw invalidPayload('body is not an array');
	for (const id of body) if (typeof id !== 'number') throw new ApiError(400, `Invalid row id ${id}`);
	c.store.removeRows(t, body as number[]);
	doc.updatedAt = c.store.now();
	return null;
}

// ------------------------------------------------------------------ columnar /data
function getData(c: Ctx, doc: Doc, t: Table) {
	const rows = queryRows(c, doc, t, queryFromRequest(c));
	const out: Record<string, unknown[]> = { id: rows.map((r) => r.id) };
	for (const col of t.columns) out[col.id] = rows.map((r) => r.row[col.id] ?? null);
	return out;
}

function columnarBody(body: unknown): Record<string, unknown[]> {
	if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidPayload('body is not an object');
	const b = body as Record<string, unknown>;
	let len: number | undefined;
	for (const [k, v] of Object.entries(b)) {
		if (!Array.isArray(v)) throw invalidPayload(`body.${k} is not an array`);
		if (len === undefined) len = v.length;
		else if (len !== v.length) throw new ApiError(400, 'Error manipulating data: column lengths differ');
	}
	return b as Record<string, unknown[]>;
}

function postData(c: Ctx, doc: Doc, t: Table) {
	const body = columnarBody(json(c));
	const w: Writer = { doc, t, noparse: flag(c, 'noparse') };
	const cols = colMap(t);
	const toConvert = new Set<Column>();
	const keys = Object.keys(body).filter((k) => k !== 'id');
	const fieldsProbe: Record<string, unknown> = {};
	for (const k of keys) fieldsProbe[k] = null;
	checkFields(w, cols, fieldsProbe, toConvert);
	convertEmptyColumns(w, toConvert);
	const n = keys.length ? body[keys[0]].length : 0;
	const rows: Row[] = [];
	for (let i = 0; i < n; i++) {
		const f: Record<string, unknown> = {};
		for (const k of keys) f[k] = body[k][i];
		rows.push(encode(c, w, cols, f));
	}
	const ids = addRows(c, t, rows, Array.isArray(body.id) ? (body.id as number[]) : undefined);
	doc.updatedAt = c.store.now();
	return ids;
}

function patchData(c: Ctx, doc: Doc, t: Table) {
	const body = columnarBody(json(c));
	if (!body.id) throw invalidPayload('body.id is missing');
	const w: Writer = { doc, t, noparse: flag(c, 'noparse') };
	const cols = colMap(t);
	const toConvert = new Set<Column>();
	const keys = Object.keys(body).filter((k) => k !== 'id');
	const probe: Record<string, unknown> = {};
	for (const k of keys) probe[k] = null;
	checkFields(w, cols, probe, toConvert);
	for (const id of body.id) if (typeof id !== 'number' || !t.rows.has(id)) throw new ApiError(400, `Invalid row id ${id}`);
	convertEmptyColumns(w, toConvert);
	updateRows(
		c,
		t,
		body.id.map((id, i) => {
			const f: Record<string, unknown> = {};
			for (const k of keys) f[k] = body[k][i];
			return { id: id as number, values: encode(c, w, cols, f) };
		}),
	);
	doc.updatedAt = c.store.now();
	return null;
}

// ------------------------------------------------------------------ tables & columns
export function columnFields(t: Table, col: Column, pos: number) {
	return {
		colRef: col.colRef,
		parentId: t.tableRef,
		parentPos: pos,
		type: col.type,
		widgetOptions: col.widgetOptions,
		isFormula: col.isFormula,
		formula: col.formula,
		label: col.label,
		description: col.description,
		untieColIdFromLabel: col.untieColIdFromLabel,
		summarySourceCol: 0,
		displayCol: col.displayCol,
		visibleCol: col.visibleCol,
		rules: null,
		reverseCol: 0,
		recalcWhen: col.recalcWhen,
		recalcDeps: col.recalcDeps,
	};
}

function columnsJson(t: Table, hidden: boolean) {
	return t.columns
		.map((col, i) => ({ col, i }))
		.filter(({ col }) => hidden || !isHiddenCol(col.id))
		.map(({ col, i }) => ({ id: col.id, fields: columnFields(t, col, i + 1) }));
}

function tablesJson(c: Ctx, doc: Doc) {
	const expand = c.query.expand === 'column';
	return {
		tables: doc.tables.map((t) => {
			const out: Record<string, unknown> = {
				id: t.id,
				fields: {
					tableRef: t.tableRef,
					primaryViewId: t.primaryViewId,
					summarySourceTable: t.summarySourceTable,
					onDemand: false,
					rawViewSectionRef: t.rawViewSectionRef,
					recordCardViewSectionRef: t.recordCardViewSectionRef,
				},
			};
			if (expand) out.columns = columnsJson(t, false);
			return out;
		}),
	};
}

const COL_FIELDS = [
	'type',
	'label',
	'formula',
	'isFormula',
	'widgetOptions',
	'visibleCol',
	'recalcWhen',
	'recalcDeps',
	'untieColIdFromLabel',
	'description',
	'colId',
];

type SpecBody = 'ColumnsPost' | 'ColumnsPatch' | 'ColumnsPut' | 'TablesPost' | 'TablesPatch';

function colSpecs(body: unknown, type: SpecBody): Array<Record<string, unknown>> {
	validateBody(type, body);
	return (body as Record<string, Array<Record<string, unknown>>>)[type.startsWith('Tables') ? 'tables' : 'columns'];
}

function checkColFields(fields: Record<string, unknown>) {
	for (const k of Object.keys(fields)) if (!COL_FIELDS.includes(k)) throw invalidPayload(`fields.${k} is extraneous`);
}

/**
 * Adds columns. `mode` gives grist-core's defaults for a column without `isFormula`: `column`
 * (AddColumn, POST/PUT /columns): an empty formula column; `table` (AddTable, POST /tables): a
 * data column unless it has a formula. `type` defaults to Any for formula columns, else Text.
 */
function addColumns(c: Ctx, doc: Doc, t: Table, specs: Array<Record<string, unknown>>, mode: 'column' | 'table'): string[] {
	return specs.map((s) => {
		const fields = asObject(s.fields, 'fields');
		checkColFields(fields);
		const id = newColId(t, String(s.id || fields.label || ''));
		const formula = typeof fields.formula === 'string' ? fields.formula : '';
		const isFormula = typeof fields.isFormula === 'boolean' ? fields.isFormula : mode === 'column' || Boolean(formula);
		const col = c.store.addColumn(doc, t, {
			id,
			type: typeof fields.type === 'string' ? fields.type : isFormula ? 'Any' : 'Text',
			label: typeof fields.label === 'string' ? fields.label : id,
			formula,
			isFormula,
			widgetOptions: fields.widgetOptions,
			visibleCol: typeof fields.visibleCol === 'number' ? fields.visibleCol : 0,
			recalcWhen: typeof fields.recalcWhen === 'number' ? fields.recalcWhen : 0,
			recalcDeps: fields.recalcDeps ?? null,
			untieColIdFromLabel: Boolean(fields.untieColIdFromLabel),
			description: typeof fields.description === 'string' ? fields.description : '',
		});
		return col.id;
	});
}

function updateColumn(c: Ctx, t: Table, col: Column, fields: Record<string, unknown>) {
	checkColFields(fields);
	if (typeof fields.colId === 'string' && fields.colId !== col.id) {
		const newId = uniqueIdent(tableIdent(fields.colId, false), (x) => t.columns.some((o) => o !== col && o.id === x));
		for (const row of t.rows.values()) {
			if (col.id in row) {
				row[newId] = row[col.id];
				delete row[col.id];
			}
		}
		if (col.label === col.id && fields.label === undefined) col.label = newId;
		col.id = newId;
	}
	if (typeof fields.isFormula === 'boolean' && fields.isFormula !== col.isFormula) {
		// a formula column turned into data keeps the values its (old) formula had
		col.isFormula = fields.isFormula;
		if (!col.isFormula) {
			const ev = new RowEvaluator({ ...t, columns: t.columns.map((x) => (x === col ? { ...x, isFormula: true } : x)) }, c.store.clock());
			for (const [id, row] of t.rows) {
				const v = ev.full(row, id)[col.id];
				row[col.id] = v === undefined ? defaultFor(col.type) : v;
			}
		} else {
			for (const row of t.rows.values()) delete row[col.id];
		}
	}
	if (typeof fields.type === 'string') col.type = fields.type;
	if (typeof fields.label === 'string') col.label = fields.label;
	if (typeof fields.formula === 'string') col.formula = fields.formula;
	if ('widgetOptions' in fields) col.widgetOptions = widgetOptionsString(fields.widgetOptions);
	if (typeof fields.visibleCol === 'number') col.visibleCol = fields.visibleCol;
	if (typeof fields.description === 'string') col.description = fields.description;
	if (typeof fields.untieColIdFromLabel === 'boolean') col.untieColIdFromLabel = fields.untieColIdFromLabel;
	if (typeof fields.recalcWhen === 'number') col.recalcWhen = fields.recalcWhen;
	if ('recalcDeps' in fields) col.recalcDeps = fields.recalcDeps;
}

function removeColumn(t: Table, col: Column) {
	t.columns = t.columns.filter((x) => x !== col);
	for (const row of t.rows.values()) delete row[col.id];
}

// ------------------------------------------------------------------ attachments
const MIME: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	gif: 'image/gif',
	webp: 'image/webp',
	svg: 'image/svg+xml',
	bmp: 'image/bmp',
	ico: 'image/vnd.microsoft.icon',
	pdf: 'application/pdf',
	txt: 'text/plain',
	csv: 'text/csv',
	tsv: 'text/tab-separated-values',
	json: 'application/json',
	xml: 'application/xml',
	html: 'text/html',
	htm: 'text/html',
	md: 'text/markdown',
	zip: 'application/zip',
	gz: 'application/gzip',
	mp3: 'audio/mpeg',
	wav: 'audio/wav',
	mp4: 'video/mp4',
	webm: 'video/webm',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	js: 'application/javascript',
};

export function mimeFor(fileName: string): string {
	const m = fileName.toLowerCase().match(/\.([a-z0-9]+)$/);
	return (m && MIME[m[1]]) || 'application/octet-stream';
}

function attachmentId(raw: string): number {
	return integerParam(raw, 'attId');
}

function getAttachment(doc: Doc, id: number) {
	const a = doc.attachments.get(id);
	if (!a) throw new ApiError(404, `Attachment not found: ${id}`);
	return a;
}

function formatMB(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

// ------------------------------------------------------------------ exports
function exportRows(c: Ctx, doc: Doc, t: Table, header: 'label' | 'colId'): SheetCell[][] {
	const cols = t.columns.filter((x) => !isHiddenCol(x.id));
	const rows: SheetCell[][] = [cols.map((x) => (header === 'colId' ? x.id : x.label))];
	for (const { row } of evaluatedRows(c, t)) {
		rows.push(
			cols.map((col) => {
				const v = row[col.id];
				const bt = baseType(col.type);
				if (typeof v === 'number' && (bt === 'Numeric' || bt === 'Int' || bt === 'Any')) return v;
				if (typeof v === 'boolean') return v;
				const text = displayValue(c.store, doc, col, v);
				if (typeof v === 'number' && bt === 'Date') return { date: v, text: String(text) };
				if (typeof v === 'number' && bt === 'DateTime') {
					// Excel has no time zones: write the wall-clock time of the column's zone
					const tz = typeArg(col.type) || 'UTC';
					return { dateTime: v + tzOffsetMs(tz, v * 1000) / 1000, text: String(text) };
				}
				return text;
			}),
		);
	}
	return rows;
}

// ------------------------------------------------------------------ routes
const D = '^\\/api\\/docs\\/([^/]+)';
const T = `${D}\\/tables\\/([^/]+)`;
const re = (s: string) => new RegExp(`${s}$`);

export const docRoutes: Route[] = [
	{ method: 'GET', re: re(`${D}\\/tables`), handler: (c, m) => tablesJson(c, docWorkerAccess(c, m[1], 'viewers')) },
	{
		method: 'POST',
		re: re(`${D}\\/tables`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const specs = colSpecs(json(c), 'TablesPost');
			const ids = specs.map((s) => {
				const t = c.store.addTable(doc, c.store.newTableId(doc, String(s.id ?? '')));
				addColumns(c, doc, t, s.columns as Array<Record<string, unknown>>, 'table');
				return { id: t.id };
			});
			return { tables: ids };
		},
	},
	{
		method: 'PATCH',
		re: re(`${D}\\/tables`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const specs = colSpecs(json(c), 'TablesPatch');
			const targets = specs.map((s) => getTable(c, doc, String(s.id)));
			specs.forEach((s, i) => {
				const fields = asObject(s.fields, 'fields');
				if (typeof fields.tableId === 'string') targets[i].id = tableIdent(fields.tableId, true);
			});
			return null;
		},
	},
	{
		method: 'GET',
		re: re(`${T}\\/columns`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			return { columns: columnsJson(getTable(c, doc, m[2]), flag(c, 'hidden')) };
		},
	},
	{
		method: 'POST',
		re: re(`${T}\\/columns`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const t = getTable(c, doc, m[2]);
			const ids = addColumns(c, doc, t, colSpecs(json(c), 'ColumnsPost'), 'column');
			return { columns: ids.map((id) => ({ id })) };
		},
	},
	{
		method: 'PATCH',
		re: re(`${T}\\/columns`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const t = getTable(c, doc, m[2]);
			const specs = colSpecs(json(c), 'ColumnsPatch');
			const shapes = new Set(specs.map((s) => Object.keys(asObject(s.fields, 'fields')).sort().join(',')));
			if (shapes.size > 1) throw new ApiError(400, 'PATCH requires all records to have same fields');
			const cols = specs.map((s) => {
				const col = t.columns.find((x) => x.id === s.id);
				if (!col) throw new ApiError(404, `Column not found "${s.id}"`);
				checkColFields(asObject(s.fields, 'fields'));
				return col;
			});
			specs.forEach((s, i) => updateColumn(c, t, cols[i], asObject(s.fields, 'fields')));
			return null;
		},
	},
	{
		method: 'PUT',
		re: re(`${T}\\/columns`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const t = getTable(c, doc, m[2]);
			const specs = colSpecs(json(c), 'ColumnsPut');
			const noadd = flag(c, 'noadd');
			const noupdate = flag(c, 'noupdate');
			const replaceall = flag(c, 'replaceall');
			for (const s of specs) checkColFields(asObject(s.fields, 'fields'));
			const listed = new Set<Column>();
			const toAdd: Array<Record<string, unknown>> = [];
			for (const s of specs) {
				const col = t.columns.find((x) => x.id === s.id);
				if (col) {
					listed.add(col);
					if (!noupdate) updateColumn(c, t, col, asObject(s.fields, 'fields'));
				} else if (!noadd) toAdd.push(s);
			}
			if (replaceall) for (const col of [...t.columns]) if (!listed.has(col) && !isHiddenCol(col.id)) removeColumn(t, col);
			addColumns(c, doc, t, toAdd, 'column');
			return null;
		},
	},
	{
		method: 'DELETE',
		re: re(`${T}\\/columns\\/([^/]+)`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const tableId = decodeURIComponent(m[2]);
			const colId = decodeURIComponent(m[3]);
			const t = c.store.table(doc, tableId);
			const col = t?.columns.find((x) => x.id === colId);
			if (!t || !col) throw new ApiError(404, `Table or column not found "${tableId}.${colId}"`);
			removeColumn(t, col);
			return null;
		},
	},
	{
		method: 'GET',
		re: re(`${T}\\/records`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const t = getTable(c, doc, m[2]);
			const q = queryFromRequest(c);
			return recordsResponse(c, doc, t, q, flag(c, 'hidden'), c.query.cellFormat === 'typed');
		},
	},
	{
		method: 'POST',
		re: re(`${T}\\/records\\/list`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const t = getTable(c, doc, m[2]);
			const b = json(c) as Record<string, unknown>;
			validateBody('RecordsListPost', b);
			const q: Query = { filter: parseFilter(b.filter), sort: parseSort(b.sort), limit: parseLimit(b.limit) };
			return recordsResponse(c, doc, t, q, isAffirmative(b.hidden), b.cellFormat === 'typed');
		},
	},
	{
		method: 'POST',
		re: re(`${T}\\/records\\/delete`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return deleteRows(c, doc, getTable(c, doc, m[2]), json(c));
		},
	},
	{
		method: 'POST',
		re: re(`${T}\\/records`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return postRecords(c, doc, getTable(c, doc, m[2]));
		},
	},
	{
		method: 'PATCH',
		re: re(`${T}\\/records`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return patchRecords(c, doc, getTable(c, doc, m[2]));
		},
	},
	{
		method: 'PUT',
		re: re(`${T}\\/records`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return putRecords(c, doc, getTable(c, doc, m[2]));
		},
	},
	{
		method: 'GET',
		re: re(`${T}\\/data`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			return getData(c, doc, getTable(c, doc, m[2]));
		},
	},
	{
		method: 'POST',
		re: re(`${T}\\/data\\/delete`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return deleteRows(c, doc, getTable(c, doc, m[2]), json(c));
		},
	},
	{
		method: 'POST',
		re: re(`${T}\\/data`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return postData(c, doc, getTable(c, doc, m[2]));
		},
	},
	{
		method: 'PATCH',
		re: re(`${T}\\/data`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			return patchData(c, doc, getTable(c, doc, m[2]));
		},
	},
	{
		method: 'POST',
		re: re(`${D}\\/attachments`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			const files = (c.body.files ?? []).filter((f) => f.field === 'upload');
			if (c.body.kind !== 'multipart' || !files.length) throw new ApiError(400, 'missing payload');
			for (const f of files)
				if (f.data.length > c.opts.attachmentMaxBytes)
					throw new ApiError(413, `Attachments must not exceed ${formatMB(c.opts.attachmentMaxBytes)}`);
			const ids = files.map((f) => {
				const id = ++doc.maxAttId;
				doc.attachments.set(id, {
					id,
					fileName: f.fileName,
					fileSize: f.data.length,
					timeUploaded: c.store.now(),
					data: f.data,
				});
				return id;
			});
			return ids;
		},
	},
	{
		method: 'GET',
		re: re(`${D}\\/attachments`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const rows: QueryRow[] = [...doc.attachments.values()]
				.sort((a, b) => a.id - b.id)
				.map((a) => ({ id: a.id, row: { fileName: a.fileName, fileSize: a.fileSize, timeUploaded: a.timeUploaded } }));
			const known = new Set(['fileName', 'fileSize', 'timeUploaded']);
			const out = runQuery(rows, queryFromRequest(c), (k) => known.has(k), (k) => (known.has(k) ? k : undefined));
			return { records: out.map((r) => ({ id: r.id, fields: r.row })) };
		},
	},
	{
		method: 'GET',
		re: re(`${D}\\/attachments\\/([^/]+)`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const a = getAttachment(doc, attachmentId(m[2]));
			return { fileName: a.fileName, fileSize: a.fileSize, timeUploaded: a.timeUploaded };
		},
	},
	{
		method: 'GET',
		re: re(`${D}\\/attachments\\/([^/]+)\\/download`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const a = getAttachment(doc, attachmentId(m[2]));
			const name = c.query.name || a.fileName;
			const type = mimeFor(name);
			const inline = flag(c, 'inline') && type !== 'text/html';
			sendRaw(
				c.res,
				200,
				{
					'Content-Type': type,
					'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', name),
					'Cache-Control': 'private, max-age=3600',
					'Content-Security-Policy': "sandbox; default-src 'none'",
				},
				a.data,
			);
			return RAW;
		},
	},
	{
		method: 'GET',
		re: re(`${D}\\/download\\/xlsx`),
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const header = c.query.header === 'colId' ? 'colId' : 'label';
			let tables = doc.tables;
			if (c.query.tableId) tables = [getTableForExport(c, doc, c.query.tableId)];
			const xlsx = buildXlsx(tables.map((t) => ({ name: t.id, rows: exportRows(c, doc, t, header) })));
			const title = c.query.title || doc.name;
			sendRaw(
				c.res,
				200,
				{
					'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
					'Content-Disposition': contentDisposition('attachment', `${title}.xlsx`),
				},
				xlsx,
			);
			return RAW;
		},
	},
	...(['csv', 'tsv'] as const).map((fmt) => ({
		method: 'GET',
		re: re(`${D}\\/download\\/${fmt}`),
		handler: (c: Ctx, m: RegExpMatchArray) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			if (!c.query.tableId) throw new ApiError(400, 'tableId parameter is required');
			const t = getTableForExport(c, doc, c.query.tableId);
			const header = c.query.header === 'colId' ? 'colId' : 'label';
			const text = toCsv(exportRows(c, doc, t, header), fmt === 'tsv' ? '\t' : ',');
			const title = c.query.title || `${doc.name}-${t.id}`;
			sendRaw(
				c.res,
				200,
				{
					'Content-Type': fmt === 'csv' ? 'text/csv; charset=utf-8' : 'text/tab-separated-values; charset=utf-8',
					'Content-Disposition': contentDisposition('attachment', `${title}.${fmt}`),
				},
				text,
			);
			return RAW;
		},
	})),
];

function getTableForExport(c: Ctx, doc: Doc, tableId: string): Table {
	const t = c.store.table(doc, tableId);
	if (!t) throw new ApiError(404, `Table ${tableId} not found.`);
	return t;
}

// ------------------------------------------------------------------ POST /apply (a small subset of user actions)
function cloneTables(doc: Doc): Table[] {
	return doc.tables.map((t) => ({
		...t,
		columns: t.columns.map((col) => ({ ...col })),
		rows: new Map([...t.rows].map(([id, row]) => [id, { ...row }])),
	}));
}

function applyActions(c: Ctx, doc: Doc, actions: unknown): unknown {
	if (!Array.isArray(actions) || actions.some((a) => !Array.isArray(a) || typeof a[0] !== 'string'))
		throw invalidPayload('body is not an array of user actions');
	const noparse = flag(c, 'noparse');
	const backup = cloneTables(doc);
	const backupRef = doc.nextRef;
	const sbx = (msg: string) => new ApiError(500, `[Sandbox] ${msg}`);
	const tableOf = (id: unknown): Table => {
		const t = c.store.table(doc, String(id));
		if (!t) throw sbx(`KeyError '${String(id)}'`);
		return t;
	};
	const colValues = (t: Table, values: Record<string, unknown[]> | Record<string, unknown>, i?: number): Row => {
		const cols = colMap(t);
		const out: Row = {};
		for (const [k, v] of Object.entries(values ?? {})) {
			const col = cols.get(k);
			if (!col) throw sbx(`KeyError '${k}'`);
			if (col.isFormula && col.formula.trim() !== '') throw sbx(`ValueError Can't save value to formula column ${k}`);
			if (col.isFormula) col.isFormula = false;
			const raw = i === undefined ? v : (v as unknown[])[i];
			out[k] = storeValue(c, doc, col, raw, noparse);
		}
		return out;
	};
	// all or nothing: an action that fails rolls back the ones before it (the error propagates as is)
	let applied = false;
	try {
		const retValues = (actions as unknown[][]).map((a) => {
			const [name, ...args] = a;
			switch (name) {
				case 'AddRecord': {
					const t = tableOf(args[0]);
					return addRows(c, t, [colValues(t, args[2] as Record<string, unknown>)], [(args[1] as number) ?? undefined])[0];
				}
				case 'BulkAddRecord': {
					const t = tableOf(args[0]);
					const ids = args[1] as Array<number | null>;
					const vals = (args[2] ?? {}) as Record<string, unknown[]>;
					return addRows(
						c,
						t,
						ids.map((_id, i) => colValues(t, vals, i)),
						ids.map((id) => id ?? undefined),
					);
				}
				case 'UpdateRecord':
				case 'BulkUpdateRecord': {
					const t = tableOf(args[0]);
					const bulk = name === 'BulkUpdateRecord';
					const ids = (bulk ? args[1] : [args[1]]) as number[];
					for (const id of ids) if (!t.rows.has(id)) throw sbx(`KeyError "Can't update non-existent record #${id}"`);
					updateRows(
						c,
						t,
						ids.map((id, i) => ({ id, values: colValues(t, args[2] as Record<string, unknown[]>, bulk ? i : undefined) })),
					);
					return null;
				}
				case 'RemoveRecord':
				case 'BulkRemoveRecord': {
					const t = tableOf(args[0]);
					// ids that do not exist are ignored, as by the data engine
					c.store.removeRows(t, (name === 'BulkRemoveRecord' ? args[1] : [args[1]]) as number[]);
					return null;
				}
				case 'AddTable': {
					const t = c.store.addTable(doc, c.store.newTableId(doc, String(args[0] ?? '')));
					const infos = (args[1] ?? []) as Array<Record<string, unknown>>;
					addColumns(
						c,
						doc,
						t,
						infos.map(({ id: colId, ...fields }) => ({ id: colId, fields })),
						'table',
					);
					return { id: t.tableRef, table_id: t.id, columns: t.columns.filter((x) => !isHiddenCol(x.id)).map((x) => x.id) };
				}
				case 'RemoveTable': {
					const t = tableOf(args[0]);
					doc.tables = doc.tables.filter((x) => x !== t);
					return null;
				}
				case 'RenameTable': {
					const t = tableOf(args[0]);
					t.id = uniqueIdent(tableIdent(String(args[1]), true), (x) => doc.tables.some((o) => o !== t && o.id === x));
					return t.id;
				}
				case 'AddColumn':
				case 'AddVisibleColumn': {
					const t = tableOf(args[0]);
					const [colId] = addColumns(c, doc, t, [{ id: args[1], fields: (args[2] ?? {}) as Record<string, unknown> }], 'column');
					const col = t.columns.find((x) => x.id === colId)!;
					return { colRef: col.colRef, colId };
				}
				case 'RemoveColumn': {
					const t = tableOf(args[0]);
					const col = t.columns.find((x) => x.id === args[1]);
					if (!col) throw sbx(`KeyError '${String(args[1])}'`);
					removeColumn(t, col);
					return null;
				}
				case 'ModifyColumn': {
					const t = tableOf(args[0]);
					const col = t.columns.find((x) => x.id === args[1]);
					if (!col) throw sbx(`KeyError '${String(args[1])}'`);
					updateColumn(c, t, col, (args[2] ?? {}) as Record<string, unknown>);
					return null;
				}
				case 'RenameColumn': {
					const t = tableOf(args[0]);
					const col = t.columns.find((x) => x.id === args[1]);
					if (!col) throw sbx(`KeyError '${String(args[1])}'`);
					updateColumn(c, t, col, { colId: args[2] });
					return col.id;
				}
				default:
					throw sbx(`AttributeError 'UserActions' object has no attribute '${String(name)}'`);
			}
		});
		applied = true;
		doc.updatedAt = c.store.now();
		return { actionNum: ++applyCounter, actionHash: null, retValues, isModification: true };
	} finally {
		if (!applied) {
			doc.tables = backup;
			doc.nextRef = backupRef;
		}
	}
}
let applyCounter = 0;

docRoutes.push({
	method: 'POST',
	re: re(`${D}\\/apply`),
	handler: (c, m) => applyActions(c, docWorkerAccess(c, m[1], 'editors'), json(c)),
});
