/**
 * Cell values: string parsing (what Grist does without `noparse`), the data engine's conversion
 * of every written value to the column's type, a tiny formula evaluator (formula columns and
 * trigger formulas), query evaluation (filter/sort/limit) and display formatting for exports.
 */
import { ApiError, tryParseJson } from './http';
import type { Column, Doc, Row, Store, Table } from './model';
import { baseType, typeArg } from './model';

// ---------------------------------------------------------------- formulas
type Tok = { t: 'num' | 'str' | 'col' | 'name' | 'op'; v: string };

class FormulaError extends Error {
	constructor(
		public kind: string,
		message: string,
	) {
		super(message);
	}
}

function tokenize(src: string): Tok[] {
	const out: Tok[] = [];
	let i = 0;
	while (i < src.length) {
		const c = src[i];
		if (/\s/.test(c)) {
			i++;
			continue;
		}
		let m: RegExpMatchArray | null;
		const rest = src.slice(i);
		if ((m = rest.match(/^(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)/))) {
			out.push({ t: 'num', v: m[1] });
		} else if ((m = rest.match(/^\$([A-Za-z_][A-Za-z0-9_]*)/))) {
			out.push({ t: 'col', v: m[1] });
		} else if ((m = rest.match(/^rec\.([A-Za-z_][A-Za-z0-9_]*)/))) {
			out.push({ t: 'col', v: m[1] });
		} else if ((m = rest.match(/^[A-Za-z_][A-Za-z0-9_]*/))) {
			out.push({ t: 'name', v: m[0] });
		} else if ((m = rest.match(/^("([^"\\]|\\.)*"|'([^'\\]|\\.)*')/))) {
			out.push({ t: 'str', v: m[0].slice(1, -1).replace(/\\(.)/g, '$1') });
		} else if ((m = rest.match(/^(\*\*|\/\/|[-+*/%(),])/))) {
			out.push({ t: 'op', v: m[1] });
		} else {
			throw new FormulaError('SyntaxError', 'invalid syntax');
		}
		i += m[0].length;
	}
	return out;
}

type Ctx = { row: Row; get: (colId: string) => unknown; now: number };
type Node = (ctx: Ctx) => unknown;

function num(v: unknown, op: string, other: unknown): number {
	if (typeof v === 'number') return v;
	if (typeof v === 'boolean') return v ? 1 : 0;
	throw new FormulaError(
		'TypeError',
		`unsupported operand type(s) for ${op}: '${pyType(v)}' and '${pyType(other)}'`,
	);
}
function pyType(v: unknown): string {
	if (v === null || v === undefined) return 'NoneType';
	if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
	if (typeof v === 'string') return 'str';
	if (typeof v === 'boolean') return 'bool';
	return 'list';
}

function binop(op: string, a: unknown, b: unknown): unknown {
	if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
	if (op === '*' && typeof a === 'string' && typeof b === 'number') return a.repeat(Math.max(0, b));
	const x = num(a, op, b);
	const y = num(b, op, a);
	switch (op) {
		case '+':
			return x + y;
		case '-':
			return x - y;
		case '*':
			return x * y;
		case '**':
			return x ** y;
		case '/':
			if (y === 0) throw new FormulaError('ZeroDivisionError', 'division by zero');
			return x / y;
		case '//':
			if (y === 0) throw new FormulaError('ZeroDivisionError', 'integer division or modulo by zero');
			return Math.floor(x / y);
		case '%':
			if (y === 0) throw new FormulaError('ZeroDivisionError', 'integer division or modulo by zero');
			return ((x % y) + y) % y;
	}
	throw new FormulaError('SyntaxError', 'invalid syntax');
}

const FUNCS: Record<string, (ctx: Ctx, args: unknown[]) => unknown> = {
	NOW: (ctx) => ctx.now / 1000,
	TODAY: (ctx) => Math.floor(ctx.now / 86400000) * 86400,
	len: (_c, a) => {
		const v = a[0];
		if (typeof v === 'string') return v.length;
		if (Array.isArray(v)) return v[0] === 'L' ? v.length - 1 : v.length;
		throw new FormulaError('TypeError', `object of type '${pyType(v)}' has no len()`);
	},
	str: (_c, a) => (a[0] === null || a[0] === undefined ? 'None' : String(a[0])),
	int: (_c, a) => Math.trunc(num(a[0], 'int', a[0])),
	float: (_c, a) => num(a[0], 'float', a[0]),
	round: (_c, a) => {
		const p = 10 ** (a.length > 1 ? num(a[1], 'round', a[1]) : 0);
		return Math.round(num(a[0], 'round', a[0]) * p) / p;
	},
	UPPER: (_c, a) => String(a[0] ?? '').toUpperCase(),
	LOWER: (_c, a) => String(a[0] ?? '').toLowerCase(),
};

function parseFormula(src: string): Node {
	const toks = tokenize(src.replace(/^\s*return\s+/, ''));
	let p = 0;
	const peek = () => toks[p];
	const eat = (v?: string): Tok => {
		const t = toks[p];
		if (!t || (v !== undefined && t.v !== v)) throw new FormulaError('SyntaxError', 'invalid syntax');
		p++;
		return t;
	};
	const expr = (): Node => additive();
	const additive = (): Node => {
		let left = term();
		while (peek() && peek().t === 'op' && (peek().v === '+' || peek().v === '-')) {
			const op = eat().v;
			const l = left;
			const r = term();
			left = (c) => binop(op, l(c), r(c));
		}
		return left;
	};
	const term = (): Node => {
		let left = unary();
		while (peek() && peek().t === 'op' && ['*', '/', '//', '%'].includes(peek().v)) {
			const op = eat().v;
			const l = left;
			const r = unary();
			left = (c) => binop(op, l(c), r(c));
		}
		return left;
	};
	const unary = (): Node => {
		if (peek() && peek().t === 'op' && (peek().v === '-' || peek().v === '+')) {
			const op = eat().v;
			const inner = unary();
			return (c) => (op === '-' ? -num(inner(c), 'unary -', null) : num(inner(c), 'unary +', null));
		}
		return power();
	};
	const power = (): Node => {
		const base = atom();
		if (peek() && peek().v === '**') {
			eat();
			const exp = unary();
			return (c) => binop('**', base(c), exp(c));
		}
		return base;
	};
	const atom = (): Node => {
		const t = eat();
		if (t.t === 'num') {
			const v = Number(t.v);
			return () => v;
		}
		if (t.t === 'str') return () => t.v;
		if (t.t === 'col') return (c) => c.get(t.v);
		if (t.t === 'op' && t.v === '(') {
			const e = expr();
			eat(')');
			return e;
		}
		if (t.t === 'name') {
			if (t.v === 'None') return () => null;
			if (t.v === 'True') return () => true;
			if (t.v === 'False') return () => false;
			if (peek() && peek().v === '(') {
				eat('(');
				const args: Node[] = [];
				while (peek() && peek().v !== ')') {
					args.push(expr());
					if (peek() && peek().v === ',') eat(',');
				}
				eat(')');
				const fn = FUNCS[t.v];
				return (c) => {
					if (!fn) throw new FormulaError('NameError', `name '${t.v}' is not defined`);
					return fn(
						c,
						args.map((a) => a(c)),
					);
				};
			}
			return () => {
				throw new FormulaError('NameError', `name '${t.v}' is not defined`);
			};
		}
		throw new FormulaError('SyntaxError', 'invalid syntax');
	};
	const node = expr();
	if (p !== toks.length) throw new FormulaError('SyntaxError', 'invalid syntax');
	return node;
}

const formulaCache = new Map<string, Node | FormulaError>();

/** Evaluates every formula column of `t` for one row; returns a full row (data + formulas). */
export class RowEvaluator {
	private formulas: Array<{ col: Column; node: Node | FormulaError }>;
	constructor(
		private t: Table,
		private now: number,
	) {
		this.formulas = t.columns
			.filter((c) => c.isFormula)
			.map((col) => {
				let node = formulaCache.get(col.formula);
				if (!node) {
					try {
						node = col.formula.trim() === '' ? () => null : parseFormula(col.formula);
					} catch (e) {
						node = e instanceof FormulaError ? e : new FormulaError('SyntaxError', String(e));
					}
					formulaCache.set(col.formula, node);
				}
				return { col, node };
			});
	}
	get hasFormulas(): boolean {
		return this.formulas.length > 0;
	}
	full(row: Row, id: number): Row {
		const out: Row = { ...row, id };
		if (!this.formulas.length) return out;
		const inProgress = new Set<string>();
		const done = new Set<string>();
		const byId = new Map(this.formulas.map((f) => [f.col.id, f]));
		const compute = (colId: string) => {
			const f = byId.get(colId)!;
			inProgress.add(colId);
			try {
				if (f.node instanceof FormulaError) throw f.node;
				out[colId] = f.node(ctx);
			} catch (e) {
				out[colId] = e instanceof FormulaError ? ['E', e.kind, e.message] : ['E', 'Exception', String(e)];
			}
			inProgress.delete(colId);
			done.add(colId);
		};
		const ctx: Ctx = {
			row: out,
			now: this.now,
			get: (colId) => {
				if (byId.has(colId)) {
					if (inProgress.has(colId)) throw new FormulaError('CircularReferenceError', '');
					if (!done.has(colId)) compute(colId);
					const v = out[colId];
					if (Array.isArray(v) && v[0] === 'E') throw new FormulaError(String(v[1]), String(v[2] ?? ''));
					return v;
				}
				if (colId !== 'id' && !this.t.columns.some((c) => c.id === colId))
					throw new FormulaError('AttributeError', `Table '${this.t.id}' has no column '${colId}'`);
				return out[colId];
			},
		};
		for (const f of this.formulas) if (!done.has(f.col.id)) compute(f.col.id);
		return out;
	}
}

/** A data column with a trigger formula (Grist's `recalcWhen`: 0 on new rows + `recalcDeps`, 1 never, 2 any change). */
export function isTriggerCol(col: Column): boolean {
	return !col.isFormula && col.formula.trim() !== '';
}

/** Whether `recalcDeps` (`["L", colRef, …]`) lists `colRef`. */
export function dependsOn(col: Column, colRef: number): boolean {
	const deps = col.recalcDeps;
	return Array.isArray(deps) && deps[0] === 'L' && deps.slice(1).includes(colRef);
}

/**
 * Evaluates `col`'s trigger formula for one row (`row` already holds the row's new data) and
 * returns the value the data engine stores: the result converted to the column's type, or an
 * error cell.
 */
export function evalTrigger(t: Table, col: Column, row: Row, id: number, now: number): unknown {
	let node = formulaCache.get(col.formula);
	if (!node) {
		try {
			node = parseFormula(col.formula);
		} catch (e) {
			node = e instanceof FormulaError ? e : new FormulaError('SyntaxError', String(e));
		}
		formulaCache.set(col.formula, node);
	}
	const full = new RowEvaluator(t, now).full(row, id);
	try {
		if (node instanceof FormulaError) throw node;
		const v = node({
			row: full,
			now,
			get: (colId) => {
				if (colId !== 'id' && !t.columns.some((c) => c.id === colId))
					throw new FormulaError('AttributeError', `Table '${t.id}' has no column '${colId}'`);
				const v = full[colId];
				if (Array.isArray(v) && v[0] === 'E') throw new FormulaError(String(v[1]), String(v[2] ?? ''));
				return v;
			},
		});
		return convertCell(col, v);
	} catch (e) {
		return e instanceof FormulaError ? ['E', e.kind, e.message] : ['E', 'Exception', String(e)];
	}
}

// ---------------------------------------------------------------- parsing
function parseNumber(s: string): number | undefined {
	let t = s.trim().replace(/,/g, '');
	let neg = false;
	if (/^\(.*\)$/.test(t)) {
		neg = true;
		t = t.slice(1, -1);
	}
	let pct = false;
	if (t.endsWith('%')) {
		pct = true;
		t = t.slice(0, -1);
	}
	t = t.replace(/^[$€£]/, '');
	if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return undefined;
	let n = Number(t);
	if (pct) n /= 100;
	return neg ? -n : n;
}

/** The data engine's ISO date (`YYYY-MM-DD`, any time part ignored). */
function parseIsoDate(s: string): number | undefined {
	const m = s.trim().match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/);
	return m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) / 1000 : undefined;
}

function parseDateOnly(s: string): number | undefined {
	const t = s.trim();
	let m = t.match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/);
	if (m) return Date.UTC(+m[1], +m[2] - 1, +m[3]) / 1000;
	m = t.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
	if (m) return Date.UTC(+m[3], +m[1] - 1, +m[2]) / 1000;
	return undefined;
}

/** Offset (ms) of `tz` from UTC at the given UTC instant. */
export function tzOffsetMs(tz: string, utcMs: number): number {
	try {
		const fmt = new Intl.DateTimeFormat('en-US', {
			timeZone: tz,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		const parts: Record<string, number> = {};
		for (const p of fmt.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
		const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
		return asUtc - Math.floor(utcMs / 1000) * 1000;
	} catch {
		return 0;
	}
}

function parseDateTime(s: string, tz: string): number | undefined {
	const t = s.trim();
	const m = t.match(
		/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i,
	);
	if (!m) return undefined;
	const local = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), m[7] ? Math.round(Number(m[7]) * 1000) : 0);
	if (m[8]) {
		if (m[8].toUpperCase() === 'Z') return local / 1000;
		const sign = m[8][0] === '-' ? -1 : 1;
		const digits = m[8].slice(1).replace(':', '');
		const off = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
		return (local - off) / 1000;
	}
	const zone = tz || 'UTC';
	let guess = local - tzOffsetMs(zone, local);
	guess = local - tzOffsetMs(zone, guess);
	return guess / 1000;
}

function splitList(s: string): string[] | undefined {
	const t = s.trim();
	if (t === '') return [];
	if (t.startsWith('[')) {
		try {
			const a = JSON.parse(t);
			if (Array.isArray(a)) return a.map((x) => String(x));
		} catch {
			/* fall through to CSV */
		}
	}
	return t.split(',').map((x) => x.trim()).filter((x) => x !== '');
}

/**
 * Grist's ValueParser (app/common/ValueParser.ts), run on strings written without `noparse`:
 * Numeric/Int, Date, DateTime, ChoiceList, Ref, RefList and Attachments columns have a parser;
 * an empty string and every other type (Bool, Text, Any…) are left alone; unparseable text
 * stays text. The data engine's conversion (`convertCell`) runs after it either way.
 */
export function parseCell(store: Store, doc: Doc, col: Column, value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	const bt = baseType(col.type);
	switch (bt) {
		case 'Numeric':
		case 'Int': {
			const n = parseNumber(value);
			return n === undefined ? value : n;
		}
		case 'Date': {
			const d = parseDateOnly(value);
			return d === undefined ? value : d;
		}
		case 'DateTime': {
			const d = parseDateTime(value, typeArg(col.type));
			return d === undefined ? value : d;
		}
		case 'ChoiceList': {
			const l = splitList(value);
			if (!l) return value;
			return l.length ? ['L', ...l] : null;
		}
		case 'Ref': {
			if (value.trim() === '') return 0;
			const id = lookupRef(store, doc, col, value.trim());
			return id === undefined ? value : id;
		}
		case 'RefList':
		case 'Attachments': {
			const l = splitList(value);
			if (!l) return value;
			if (!l.length) return null;
			const ids: number[] = [];
			for (const part of l) {
				const id = bt === 'Attachments' ? intOf(part) : lookupRef(store, doc, col, part);
				if (id === undefined) return value;
				ids.push(id);
			}
			return ['L', ...ids];
		}
		default:
			return value;
	}
}

/** Python's `float(s)` for finite results (inf/nan cannot be stored in JSON answers: kept as text). */
function pyFloat(s: string): number | undefined {
	const t = s.trim();
	if (!/^[-+]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][-+]?\d(_?\d)*)?$/.test(t)) return undefined;
	const n = Number(t.replace(/_/g, ''));
	return Number.isFinite(n) ? n : undefined;
}

/** Python's `'%.15g' % v` (how the data engine turns a non-integer number into text). */
function pyG15(v: number): string {
	const [mant, expStr] = v.toExponential(14).split('e');
	const exp = Number(expStr);
	if (exp < -4 || exp >= 15) {
		const m = mant.replace(/\.?0+$/, '');
		return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
	}
	return v.toFixed(Math.max(0, 14 - exp)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** Python's `str()` of a JSON value (objects: JSON text, a guess). */
function pyStr(x: unknown): string {
	if (typeof x === 'string') return x;
	if (x === null) return 'None';
	if (typeof x === 'boolean') return x ? 'True' : 'False';
	if (typeof x === 'number') return String(x);
	return JSON.stringify(x);
}

const TRUTHY = new Set(['true', 'yes', '1']);
const FALSY = new Set(['false', 'no', '0']);
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

function isErrorCell(v: unknown): boolean {
	return Array.isArray(v) && v[0] === 'E';
}

/**
 * The data engine's conversion of a value written to a data column (sandbox/grist/usertypes.py
 * `convert`, also with `noparse`): a value of the right type is stored, a convertible one is
 * converted ("41" → 41 in Numeric, 41 → "41" in Text, "yes" → true in Bool, an ISO date string
 * → epoch seconds), anything else is kept as text (an AltText cell, returned as that string).
 */
export function convertCell(col: Column, v: unknown): unknown {
	if (isErrorCell(v)) return v;
	switch (baseType(col.type)) {
		case 'Text':
		case 'Choice':
			if (typeof v === 'boolean') return v ? 'True' : 'False';
			if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? String(v) : pyG15(v);
			return v;
		case 'Numeric':
			if (v === '' || v === null || v === undefined) return null;
			if (typeof v === 'boolean') return v ? 1 : 0;
			if (typeof v === 'string') return pyFloat(v) ?? v;
			return v;
		case 'Int': {
			if (v === '' || v === null || v === undefined) return null;
			let n: number | undefined;
			if (typeof v === 'boolean') n = v ? 1 : 0;
			else if (typeof v === 'number') n = v;
			else if (typeof v === 'string') n = pyFloat(v);
			if (n === undefined || !Number.isFinite(n)) return v;
			n = Math.trunc(n);
			return n < INT_MIN || n > INT_MAX ? String(v) : n;
		}
		case 'Bool':
			if (!v) return false;
			if (typeof v === 'number' || v === true) return true;
			if (typeof v === 'string') {
				const low = v.toLowerCase();
				if (FALSY.has(low)) return false;
				if (TRUTHY.has(low)) return true;
			}
			return v;
		case 'Date':
		case 'DateTime': {
			if (v === '' || v === null || v === undefined) return null;
			if (typeof v === 'boolean') return v ? 1 : 0;
			if (typeof v !== 'string') return v;
			const d = baseType(col.type) === 'Date' ? parseIsoDate(v) : parseDateTime(v, typeArg(col.type));
			return d ?? v;
		}
		case 'ChoiceList':
			if (!v) return null;
			if (typeof v === 'string' && v.startsWith('[')) {
				const parsed = tryParseJson(v);
				if (parsed.ok && Array.isArray(parsed.value)) {
					const items = parsed.value.map(pyStr);
					return items.length ? ['L', ...items] : null;
				}
			}
			return v;
		case 'Ref':
			if (!v) return 0;
			if (v === true) return 1;
			return v;
		case 'RefList':
		case 'Attachments':
			if (!v) return null;
			if (typeof v === 'number' && Number.isInteger(v)) return ['L', v];
			if (typeof v === 'string' && v.startsWith('[')) {
				const parsed = tryParseJson(v);
				if (parsed.ok && Array.isArray(parsed.value) && parsed.value.every((x) => Number.isInteger(x) && (x as number) > 0))
					return parsed.value.length ? ['L', ...parsed.value] : null;
			}
			return v;
		default:
			return v;
	}
}

function intOf(s: string): number | undefined {
	return /^\d+$/.test(s.trim()) ? Number(s.trim()) : undefined;
}

function lookupRef(store: Store, doc: Doc, col: Column, s: string): number | undefined {
	const target = store.table(doc, typeArg(col.type));
	if (!target) return undefined;
	const vis = col.visibleCol ? store.colByRef(doc, col.visibleCol)?.col : undefined;
	if (!vis) {
		const id = intOf(s);
		return id !== undefined && target.rows.has(id) ? id : undefined;
	}
	const ev = new RowEvaluator(target, store.clock());
	for (const id of store.rowIds(target)) {
		const row = vis.isFormula ? ev.full(target.rows.get(id)!, id) : target.rows.get(id)!;
		const v = row[vis.id];
		if (v === s || (typeof v === 'number' && String(v) === s)) return id;
	}
	return undefined;
}

// ---------------------------------------------------------------- queries
export function isAffirmative(v: unknown): boolean {
	return typeof v === 'string' ? /^(1|on|true|yes)$/i.test(v.trim()) : v === true || v === 1;
}

function key(v: unknown): unknown {
	return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}

export interface Query {
	filter?: Record<string, unknown[]>;
	sort?: string[];
	limit?: number;
}

/** Parses the `filter` query string/body value. */
export function parseFilter(raw: unknown): Record<string, unknown[]> | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	let f: unknown = raw;
	if (typeof raw === 'string') {
		const parsed = tryParseJson(raw);
		if (!parsed.ok) throw new ApiError(500, parsed.message);
		f = parsed.value;
	}
	if (!f || typeof f !== 'object' || Array.isArray(f)) throw new ApiError(400, 'Invalid query: filter values must be arrays');
	for (const v of Object.values(f as object))
		if (!Array.isArray(v)) throw new ApiError(400, 'Invalid query: filter values must be arrays');
	return f as Record<string, unknown[]>;
}

export function parseSort(raw: unknown): string[] | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	if (Array.isArray(raw)) return raw.map(String);
	return String(raw)
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
}

export function parseLimit(raw: unknown): number | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const n = typeof raw === 'number' ? raw : Number(String(raw));
	if (!Number.isFinite(n) || (typeof raw === 'string' && !/^\s*-?\d+(\.\d+)?\s*$/.test(raw)))
		throw new ApiError(500, 'limit is not a number');
	return n;
}

function isEmptyVal(v: unknown): boolean {
	return v === null || v === undefined || v === '' || (Array.isArray(v) && v[0] === 'L' && v.length === 1);
}

function typeRank(v: unknown): number {
	if (typeof v === 'boolean') return 1;
	if (typeof v === 'number') return 2;
	if (typeof v === 'string') return 3;
	return 4;
}
function nativeCmp(a: unknown, b: unknown): number {
	const ra = typeRank(a);
	const rb = typeRank(b);
	if (ra !== rb) return ra - rb;
	if (ra === 4) {
		const sa = JSON.stringify(a);
		const sb = JSON.stringify(b);
		return sa < sb ? -1 : sa > sb ? 1 : 0;
	}
	return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}
const naturalCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export interface QueryRow {
	id: number;
	row: Row;
}

/**
 * Applies filter, sort and limit to rows. `colIds` is the set of known column ids (incl. hidden
 * ones); `resolveCol` maps a sort key (colId or colRef) to a column id.
 */
export function runQuery(
	rows: QueryRow[],
	q: Query,
	known: (colId: string) => boolean,
	resolveCol: (key: string) => Column | string | undefined,
): QueryRow[] {
	let out = rows;
	if (q.filter) {
		const entries = Object.entries(q.filter);
		for (const [col] of entries)
			if (col !== 'id' && !known(col)) throw new ApiError(400, `Error manipulating data: [Sandbox] KeyError '${col}'`);
		const sets = entries.map(([col, vals]) => [col, new Set(vals.map(key))] as const);
		out = out.filter((r) => sets.every(([col, set]) => set.has(key(col === 'id' ? r.id : r.row[col]))));
	}
	if (q.sort && q.sort.length) {
		const specs = q.sort.map((s) => {
			let spec = s;
			let opts: string[] = [];
			const colon = spec.indexOf(':');
			if (colon >= 0) {
				opts = spec
					.slice(colon + 1)
					.split(';')
					.map((o) => o.trim());
				spec = spec.slice(0, colon);
			}
			let desc = false;
			if (spec.startsWith('-')) {
				desc = true;
				spec = spec.slice(1);
			}
			const resolved = spec === 'id' ? 'id' : resolveCol(spec);
			if (!resolved) throw new ApiError(500, `unknown key ${spec}`);
			const colId = typeof resolved === 'string' ? resolved : resolved.id;
			let choiceOrder: Map<string, number> | undefined;
			if (opts.includes('orderByChoice') && typeof resolved !== 'string') {
				try {
					const wo = resolved.widgetOptions ? JSON.parse(resolved.widgetOptions) : {};
					if (Array.isArray(wo.choices)) choiceOrder = new Map(wo.choices.map((c: string, i: number) => [c, i]));
				} catch {
					/* no choices */
				}
			}
			return { colId, desc, natural: opts.includes('naturalSort'), emptyLast: opts.includes('emptyLast'), choiceOrder };
		});
		const cmp = (a: QueryRow, b: QueryRow): number => {
			for (const s of specs) {
				let va = s.colId === 'id' ? a.id : a.row[s.colId];
				let vb = s.colId === 'id' ? b.id : b.row[s.colId];
				if (s.emptyLast) {
					const ea = isEmptyVal(va);
					const eb = isEmptyVal(vb);
					if (ea !== eb) return ea ? 1 : -1;
				}
				let r: number;
				if (s.choiceOrder) {
					const ia = typeof va === 'string' && s.choiceOrder.has(va) ? s.choiceOrder.get(va)! : Infinity;
					const ib = typeof vb === 'string' && s.choiceOrder.has(vb) ? s.choiceOrder.get(vb)! : Infinity;
					r = ia === ib ? nativeCmp(va, vb) : ia < ib ? -1 : 1;
				} else if (s.natural && typeof va === 'string' && typeof vb === 'string') {
					r = naturalCollator.compare(va, vb);
				} else {
					if (isEmptyVal(va) && !isEmptyVal(vb)) r = -1;
					else if (!isEmptyVal(va) && isEmptyVal(vb)) r = 1;
					else {
						va = va ?? '';
						vb = vb ?? '';
						r = nativeCmp(va, vb);
					}
				}
				if (r !== 0) return s.desc ? -r : r;
			}
			return a.id - b.id;
		};
		out = out === rows ? [...out] : out;
		out.sort(cmp);
	}
	if (q.limit !== undefined && q.limit > 0) out = out.slice(0, q.limit);
	return out;
}

// ---------------------------------------------------------------- formatting
export function typedValue(col: Column, v: unknown): unknown {
	if (Array.isArray(v) && v[0] === 'E') return v;
	const bt = baseType(col.type);
	if (typeof v === 'string' && bt !== 'Text' && bt !== 'Choice' && bt !== 'Any') return v;
	switch (bt) {
		case 'Date':
			return typeof v === 'number' ? ['d', v] : v;
		case 'DateTime':
			return typeof v === 'number' ? ['D', v, typeArg(col.type) || 'UTC'] : v;
		case 'Ref':
			return typeof v === 'number' ? ['R', typeArg(col.type), v] : v;
		case 'RefList':
			return Array.isArray(v) && v[0] === 'L' ? ['r', typeArg(col.type), v.slice(1)] : v;
		case 'Attachments':
			return Array.isArray(v) && v[0] === 'L' ? ['r', '_grist_Attachments', v.slice(1)] : v;
		default:
			return v;
	}
}

function pad(n: number, w = 2): string {
	return String(n).padStart(w, '0');
}

/** Display text of a cell (exports). */
export function displayValue(store: Store, doc: Doc, col: Column, v: unknown): string | number | boolean {
	if (v === null || v === undefined) return '';
	if (Array.isArray(v) && v[0] === 'E') return `#${v[1]}`;
	const bt = baseType(col.type);
	if (typeof v === 'string') return v;
	switch (bt) {
		case 'Date': {
			const d = new Date(Number(v) * 1000);
			return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
		}
		case 'DateTime': {
			const tz = typeArg(col.type) || 'UTC';
			const ms = Number(v) * 1000;
			const d = new Date(ms + tzOffsetMs(tz, ms));
			// Grist's default DateTime format: dateFormat YYYY-MM-DD, timeFormat h:mma
			const h = d.getUTCHours();
			return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${h % 12 || 12}:${pad(d.getUTCMinutes())}${h < 12 ? 'am' : 'pm'}`;
		}
		case 'Ref':
			return refDisplay(store, doc, col, Number(v));
		case 'RefList':
			return Array.isArray(v) ? v.slice(1).map((id) => refDisplay(store, doc, col, Number(id))).join(', ') : '';
		case 'Attachments':
			return Array.isArray(v)
				? v
						.slice(1)
						.map((id) => doc.attachments.get(Number(id))?.fileName ?? String(id))
						.join(', ')
				: '';
		case 'ChoiceList':
			return Array.isArray(v) ? v.slice(1).join(', ') : '';
		default:
			if (typeof v === 'number' || typeof v === 'boolean') return v;
			return JSON.stringify(v);
	}
}

function refDisplay(store: Store, doc: Doc, col: Column, id: number): string {
	if (!id) return '';
	const target = store.table(doc, typeArg(col.type));
	const row = target?.rows.get(id);
	if (!target || !row) return `${typeArg(col.type)}[${id}]`;
	const vis = col.visibleCol ? store.colByRef(doc, col.visibleCol)?.col : undefined;
	if (!vis) return String(id);
	const full = vis.isFormula ? new RowEvaluator(target, store.clock()).full(row, id) : row;
	const v = full[vis.id];
	return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}
