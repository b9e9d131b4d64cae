/**
 * Formulas (the Python subset that index.ts's header lists) evaluated for formula columns
 * (RowEvaluator) and trigger formulas (data columns with a formula: evalTrigger). Errors become
 * error cells `["E", kind, message]`.
 */
import { convertCell, isErrorCell } from './cells-convert';
import type { Column, Row, Table } from './model';
import { baseType, defaultFor } from './model';

/**
 * objtypes.py `AltText`: text held by a non-text column, as formulas see it. `str()` gives the
 * text, `int()`/`float()` parse it, and arithmetic raises TypeError (Python finds no operator
 * for an AltText), so `$Age * 2` of a Numeric cell holding "old" is an error, not "oldold".
 */
class AltText {
	constructor(readonly text: string) {}
}
/** Column types whose cells are not text: a string there is an AltText (cells-convert.ts). */
const TEXT_TYPES = new Set(['Text', 'Choice', 'Any']);

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
	if (v instanceof AltText && (op === 'int' || op === 'float')) {
		const n = Number(v.text);
		if (v.text.trim() !== '' && Number.isFinite(n)) return n;
		throw new FormulaError('ValueError', `could not convert string to float: '${v.text}'`);
	}
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
	if (v instanceof AltText) return 'AltText';
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
			if (y === 0)
				throw new FormulaError('ZeroDivisionError', 'integer division or modulo by zero');
			return Math.floor(x / y);
		case '%':
			if (y === 0)
				throw new FormulaError('ZeroDivisionError', 'integer division or modulo by zero');
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
	str: (_c, a) =>
		a[0] === null || a[0] === undefined
			? 'None'
			: a[0] instanceof AltText
				? a[0].text
				: String(a[0]),
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
		if (!t || (v !== undefined && t.v !== v))
			throw new FormulaError('SyntaxError', 'invalid syntax');
		p++;
		return t;
	};
	/** A left-associative level of binary operators `ops` over operands parsed by `next`. */
	const binaryLevel = (ops: string[], next: () => Node) => (): Node => {
		let left = next();
		while (peek() && peek().t === 'op' && ops.includes(peek().v)) {
			const op = eat().v;
			const l = left;
			const r = next();
			left = (c) => binop(op, l(c), r(c));
		}
		return left;
	};
	const expr = (): Node => additive();
	const additive = binaryLevel(['+', '-'], () => term());
	const term = binaryLevel(['*', '/', '//', '%'], () => unary());
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

/** A formula's compiled form (cached by its text), or the error that compiling it raised. */
function compiled(formula: string): Node | FormulaError {
	let node = formulaCache.get(formula);
	if (!node) {
		try {
			node = formula.trim() === '' ? () => null : parseFormula(formula);
		} catch (e) {
			node = e instanceof FormulaError ? e : new FormulaError('SyntaxError', String(e));
		}
		formulaCache.set(formula, node);
	}
	return node;
}

/** `$colId` of a row: an unknown column raises AttributeError. */
function columnValue(t: Table, row: Row, colId: string): unknown {
	const col = t.columns.find((c) => c.id === colId);
	if (colId !== 'id' && !col)
		throw new FormulaError('AttributeError', `Table '${t.id}' has no column '${colId}'`);
	const v = row[colId];
	return typeof v === 'string' && col && !TEXT_TYPES.has(baseType(col.type)) ? new AltText(v) : v;
}

/** A formula reading an error cell raises that error again. */
function raiseIfError(v: unknown): unknown {
	if (isErrorCell(v)) throw new FormulaError(String(v[1]), String(v[2] ?? ''));
	return v;
}

/** The error cell a formula's exception leaves: `["E", kind, message]`. */
function errorCell(e: unknown): unknown[] {
	return e instanceof FormulaError ? ['E', e.kind, e.message] : ['E', 'Exception', String(e)];
}

/** Evaluates every formula column of `t` for one row; returns a full row (data + formulas). */
export class RowEvaluator {
	private formulas: Array<{ col: Column; node: Node | FormulaError }>;
	constructor(
		private t: Table,
		private now: number,
	) {
		this.formulas = t.columns
			.filter((c) => c.isFormula)
			.map((col) => ({ col, node: compiled(col.formula) }));
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
				// an empty formula column holds its type's default (Text "", Numeric 0, Any None)
				const v = f.col.formula.trim() === '' ? defaultFor(f.col.type) : f.node(ctx);
				out[colId] = v instanceof AltText ? v.text : v;
			} catch (e) {
				out[colId] = errorCell(e);
			}
			inProgress.delete(colId);
			done.add(colId);
		};
		const ctx: Ctx = {
			row: out,
			now: this.now,
			get: (colId) => {
				if (!byId.has(colId)) return columnValue(this.t, out, colId);
				if (inProgress.has(colId)) throw new FormulaError('CircularReferenceError', '');
				if (!done.has(colId)) compute(colId);
				return raiseIfError(out[colId]);
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
	const node = compiled(col.formula);
	const full = new RowEvaluator(t, now).full(row, id);
	try {
		if (node instanceof FormulaError) throw node;
		const v = node({ row: full, now, get: (colId) => raiseIfError(columnValue(t, full, colId)) });
		return convertCell(col, v);
	} catch (e) {
		return errorCell(e);
	}
}
