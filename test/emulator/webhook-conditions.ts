/**
 * Webhook conditions (`condition` of POST/PATCH /webhooks), as grist-core's Triggers.ts
 * (`_compileCondition`, `_shouldTriggerActions`), TriggerConditionEval.ts and ColumnFilterFunc.ts
 * evaluate them:
 *
 * - Text mode (`"$Amount > 10"`, or `{"text": …}`): a predicate with `rec` (the row now),
 *   `oldRec` (before; a new row's is all empty with id 0) and `$Col` = `rec.Col`. An unknown
 *   variable fails to compile and the condition is then IGNORED (every row passes); a syntax
 *   error is a 400 when registering; an exception while evaluating counts as false.
 * - Config mode (`{"config": {columnFilters, requiredColumns, customExpression, notifyWhen}}`):
 *   M(row) = every column filter (`included` / `excluded` values; `min` / `max` on number and
 *   date columns, dates rounded to whole days; a list column matches when any element does, an
 *   empty list is tested as "" or null) and every required column truthy and the custom
 *   expression (with `rec` only; one that fails to compile NEVER matches). `notifyWhen`: absent
 *   M(now); enters M(now) and not (existed and M(old)); leaves M(old) and not M(now); updated
 *   M(now) and existed and M(old). A new row's "old" is an empty record, so an `excluded` filter
 *   with `leaves` fires for a new row that does not match (measured).
 * - Before-values (webhooks.ts): grist-core keeps them for only 10 rows of a bulk action unless
 *   some webhook of the document watches columns; rows past those 10 are evaluated with the old
 *   row = the current one (measured: 15 rows entering, 10 sent as enters).
 *
 * Not modelled: relative-date bounds (`min`/`max` as specs), DateTime bounds in the column's
 * timezone (days are UTC here), which 10 rows keep their before-values (here the first 10 the
 * request touched; measured on Grist: not simply the first ten), string methods other than
 * `.lower()` / `.upper()`.
 */
import type { Column, Row } from './model';

type Node =
	| { k: 'const'; v: unknown }
	| { k: 'list'; items: Node[] }
	| { k: 'name'; name: string }
	| { k: 'attr'; obj: Node; name: string }
	| { k: 'call'; obj: Node; name: string }
	| { k: 'not'; x: Node }
	| { k: 'neg'; x: Node }
	| { k: 'bool'; op: 'and' | 'or'; xs: Node[] }
	| { k: 'bin'; op: string; a: Node; b: Node }
	| { k: 'cmp'; ops: string[]; xs: Node[] };

export class ConditionSyntaxError extends Error {}

type Tok = { t: 'num' | 'str' | 'name' | 'col' | 'op'; v: string };

function tokenize(src: string): Tok[] {
	const out: Tok[] = [];
	let i = 0;
	while (i < src.length) {
		const rest = src.slice(i);
		let m: RegExpMatchArray | null;
		if ((m = rest.match(/^\s+/))) {
			i += m[0].length;
			continue;
		}
		if ((m = rest.match(/^(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)/))) out.push({ t: 'num', v: m[1] });
		else if ((m = rest.match(/^\$([A-Za-z_]\w*)/))) out.push({ t: 'col', v: m[1] });
		else if ((m = rest.match(/^[A-Za-z_]\w*/))) out.push({ t: 'name', v: m[0] });
		else if ((m = rest.match(/^("([^"\\]|\\.)*"|'([^'\\]|\\.)*')/)))
			out.push({ t: 'str', v: m[0].slice(1, -1).replace(/\\(.)/g, '$1') });
		else if ((m = rest.match(/^(==|!=|<=|>=|[<>+\-*/%()[\],.])/))) out.push({ t: 'op', v: m[1] });
		else throw new ConditionSyntaxError(`invalid syntax on line 1 col ${i + 1}`);
		i += m[0].length;
	}
	return out;
}

/** Parses a predicate; a syntax error throws ConditionSyntaxError. */
export function parsePredicate(src: string): Node {
	const toks = tokenize(src);
	let p = 0;
	const peek = (v?: string) => (v === undefined ? toks[p] : toks[p]?.v === v ? toks[p] : undefined);
	const isWord = (v: string) => toks[p]?.t === 'name' && toks[p].v === v;
	const expect = (v: string) => {
		if (toks[p]?.v !== v) throw new ConditionSyntaxError('invalid syntax');
		p++;
	};
	const orExpr = (): Node => {
		const xs = [andExpr()];
		while (isWord('or')) {
			p++;
			xs.push(andExpr());
		}
		return xs.length === 1 ? xs[0] : { k: 'bool', op: 'or', xs };
	};
	const andExpr = (): Node => {
		const xs = [notExpr()];
		while (isWord('and')) {
			p++;
			xs.push(notExpr());
		}
		return xs.length === 1 ? xs[0] : { k: 'bool', op: 'and', xs };
	};
	const notExpr = (): Node => {
		if (isWord('not')) {
			p++;
			return { k: 'not', x: notExpr() };
		}
		return comparison();
	};
	const compOp = (): string | undefined => {
		const t = toks[p];
		if (!t) return undefined;
		if (t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) return (p++, t.v);
		if (isWord('in')) return (p++, 'in');
		if (isWord('not') && toks[p + 1]?.v === 'in') return ((p += 2), 'not in');
		if (isWord('is')) {
			p++;
			if (isWord('not')) return (p++, 'is not');
			return 'is';
		}
		return undefined;
	};
	const comparison = (): Node => {
		const xs = [arith()];
		const ops: string[] = [];
		for (let op = compOp(); op; op = compOp()) {
			ops.push(op);
			xs.push(arith());
		}
		return ops.length ? { k: 'cmp', ops, xs } : xs[0];
	};
	const arith = (): Node => {
		let a = term();
		while (peek('+') || peek('-')) {
			const op = toks[p++].v;
			a = { k: 'bin', op, a, b: term() };
		}
		return a;
	};
	const term = (): Node => {
		let a = unary();
		while (peek('*') || peek('/') || peek('%')) {
			const op = toks[p++].v;
			a = { k: 'bin', op, a, b: unary() };
		}
		return a;
	};
	const unary = (): Node => {
		if (peek('-')) {
			p++;
			return { k: 'neg', x: unary() };
		}
		return postfix();
	};
	const postfix = (): Node => {
		let x = atom();
		while (peek('.')) {
			p++;
			const t = toks[p++];
			if (!t || t.t !== 'name') throw new ConditionSyntaxError('invalid syntax');
			if (peek('(')) {
				p++;
				expect(')');
				x = { k: 'call', obj: x, name: t.v };
			} else x = { k: 'attr', obj: x, name: t.v };
		}
		return x;
	};
	const atom = (): Node => {
		const t = toks[p++];
		if (!t) throw new ConditionSyntaxError('unexpected EOF while parsing');
		if (t.t === 'num') return { k: 'const', v: Number(t.v) };
		if (t.t === 'str') return { k: 'const', v: t.v };
		if (t.t === 'col') return { k: 'attr', obj: { k: 'name', name: 'rec' }, name: t.v };
		if (t.t === 'name') {
			if (t.v === 'True') return { k: 'const', v: true };
			if (t.v === 'False') return { k: 'const', v: false };
			if (t.v === 'None') return { k: 'const', v: null };
			if (['and', 'or', 'not', 'in', 'is'].includes(t.v))
				throw new ConditionSyntaxError('invalid syntax');
			return { k: 'name', name: t.v };
		}
		if (t.v === '(') {
			const x = orExpr();
			expect(')');
			return x;
		}
		if (t.v === '[') {
			const items: Node[] = [];
			while (!peek(']')) {
				items.push(orExpr());
				if (!peek(']')) expect(',');
			}
			p++;
			return { k: 'list', items };
		}
		throw new ConditionSyntaxError('invalid syntax');
	};
	const node = orExpr();
	if (p < toks.length) throw new ConditionSyntaxError('invalid syntax');
	return node;
}

/** Names a compiled predicate may read; any other fails to compile (PredicateFormula). */
function checkNames(n: Node): void {
	switch (n.k) {
		case 'name':
			if (n.name !== 'rec' && n.name !== 'oldRec') throw new Error(`Unknown variable '${n.name}'`);
			return;
		case 'list':
			return n.items.forEach(checkNames);
		case 'attr':
		case 'call':
			return checkNames(n.obj);
		case 'not':
		case 'neg':
			return checkNames(n.x);
		case 'bool':
		case 'cmp':
			return n.xs.forEach(checkNames);
		case 'bin':
			checkNames(n.a);
			return checkNames(n.b);
		default:
			return;
	}
}

type Env = { rec: Row; oldRec: Row };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function contains(container: unknown, x: unknown): boolean {
	if (typeof container === 'string') return typeof x === 'string' && container.includes(x);
	if (Array.isArray(container)) {
		const items = container[0] === 'L' ? container.slice(1) : container;
		return items.some((i) => same(i, x));
	}
	throw new TypeError('argument is not iterable');
}

function evaluate(n: Node, env: Env): unknown {
	switch (n.k) {
		case 'const':
			return n.v;
		case 'list':
			return n.items.map((i) => evaluate(i, env));
		case 'name':
			return env[n.name as keyof Env];
		case 'attr': {
			const obj = evaluate(n.obj, env) as Record<string, unknown> | null | undefined;
			if (obj === null || obj === undefined) throw new TypeError('no attribute of None');
			return obj[n.name];
		}
		case 'call': {
			const obj = evaluate(n.obj, env);
			if (typeof obj !== 'string' || (n.name !== 'lower' && n.name !== 'upper'))
				throw new TypeError(`no method ${n.name}`);
			return n.name === 'lower' ? obj.toLowerCase() : obj.toUpperCase();
		}
		case 'not':
			return !evaluate(n.x, env);
		case 'neg':
			return -(evaluate(n.x, env) as number);
		case 'bool': {
			let v: unknown;
			for (const x of n.xs) {
				v = evaluate(x, env);
				if (n.op === 'and' ? !v : v) return v;
			}
			return v;
		}
		case 'bin': {
			const a = evaluate(n.a, env) as number;
			const b = evaluate(n.b, env) as number;
			if (n.op === '+') return a + b;
			if (n.op === '-') return a - b;
			if (n.op === '*') return a * b;
			if (n.op === '/') return a / b;
			return a % b;
		}
		case 'cmp': {
			let left = evaluate(n.xs[0], env);
			for (let i = 0; i < n.ops.length; i++) {
				const right = evaluate(n.xs[i + 1], env);
				const op = n.ops[i];
				const l = left as number;
				const r = right as number;
				const ok =
					op === '=='
						? same(left, right)
						: op === '!='
							? !same(left, right)
							: op === '<'
								? l < r
								: op === '<='
									? l <= r
									: op === '>'
										? l > r
										: op === '>='
											? l >= r
											: op === 'in'
												? contains(right, left)
												: op === 'not in'
													? !contains(right, left)
													: op === 'is'
														? (left ?? null) === (right ?? null)
														: (left ?? null) !== (right ?? null);
				if (!ok) return false;
				left = right;
			}
			return true;
		}
	}
}

/** A compiled predicate, or null when it did not compile. Exceptions while evaluating: false. */
function compile(src: string): ((env: Env) => boolean) | null {
	let node: Node;
	try {
		node = parsePredicate(src);
		checkNames(node);
	} catch {
		return null;
	}
	return (env) => {
		try {
			return Boolean(evaluate(node, env));
		} catch {
			return false;
		}
	};
}

interface FilterSpec {
	included?: unknown[];
	excluded?: unknown[];
	min?: unknown;
	max?: unknown;
}

const LIST_TYPES = new Set(['ChoiceList', 'RefList', 'Attachments']);
const base = (type: string) => type.split(':')[0];

/** ColumnFilterFunc.makeFilterFunc for one column. */
function columnFilter(spec: FilterSpec, type: string): (value: unknown) => boolean {
	const t = base(type);
	if (spec.included === undefined && spec.excluded === undefined) {
		if (!['Numeric', 'Int', 'Date', 'DateTime', 'ManualSortPos', 'PositionNumber'].includes(t))
			return () => true;
		const dated = t === 'Date' || t === 'DateTime';
		const day = 86400;
		const min =
			typeof spec.min === 'number'
				? dated
					? Math.floor(spec.min / day) * day
					: spec.min
				: undefined;
		const max =
			typeof spec.max === 'number'
				? dated
					? Math.floor(spec.max / day) * day + day - 1
					: spec.max
				: undefined;
		return (v) =>
			typeof v === 'number' && (max === undefined || v <= max) && (min === undefined || min <= v);
	}
	const include = spec.included !== undefined;
	const values = new Set((spec.included ?? spec.excluded ?? []).map((v) => JSON.stringify(v)));
	const has = (v: unknown) => values.has(JSON.stringify(v === undefined ? undefined : v));
	return (value) => {
		let v = value;
		if (Array.isArray(v) && v[0] === 'L' && LIST_TYPES.has(t)) {
			const list = v.slice(1);
			if (list.length) return list.some((x) => has(x) === include);
			v = t === 'ChoiceList' ? '' : null;
		}
		return has(v) === include;
	};
}

export interface CompiledCondition {
	/** Whether a row is sent: `now` the row after, `old` before (a new row: null). */
	matches(now: Row, old: Row | null): boolean;
}

/** The stored condition as Grist's `_compileCondition` sees it; null: no condition. */
export function compileCondition(
	condition: string | null | undefined,
	columns: Column[],
): CompiledCondition | null {
	if (!condition) return null;
	let parsed: { text?: unknown; config?: Record<string, unknown> } | undefined;
	try {
		const p = JSON.parse(condition) as unknown;
		if (p && typeof p === 'object' && !Array.isArray(p)) parsed = p as typeof parsed;
	} catch {
		// plain text
	}
	const text = parsed ? parsed.text : condition;
	const emptyOld = (): Row => ({ id: 0 });
	if (typeof text === 'string') {
		const fn = compile(text);
		if (!fn) return null; // an unknown variable: the condition is ignored
		return {
			matches: (now, old) => {
				const oldRec: Row = old ?? Object.fromEntries(columns.map((c) => [c.id, null]));
				return fn({ rec: now, oldRec: { ...oldRec, id: old ? now.id : 0 } });
			},
		};
	}
	const config = parsed?.config;
	if (!config) return null;
	const byRef = new Map(columns.map((c) => [c.colRef, c]));
	const filters: Array<{ colId: string; f: (v: unknown) => boolean }> = [];
	for (const cf of (config.columnFilters as Array<{ colRef: number; filter: string }>) ?? []) {
		const col = byRef.get(cf.colRef);
		if (!col || !cf.filter) continue;
		filters.push({ colId: col.id, f: columnFilter(JSON.parse(cf.filter) as FilterSpec, col.type) });
	}
	const required = ((config.requiredColumns as number[]) ?? [])
		.map((r) => byRef.get(r)?.id)
		.filter((id): id is string => id !== undefined);
	const custom =
		typeof config.customExpression === 'string'
			? (compile(config.customExpression) ?? (() => false))
			: undefined;
	const m = (rec: Row): boolean =>
		filters.every(({ colId, f }) => f(rec[colId])) &&
		required.every((c) => Boolean(rec[c])) &&
		(!custom || custom({ rec, oldRec: { id: 0 } }));
	const when = config.notifyWhen;
	return {
		matches: (now, old) => {
			const oldRec = old ?? emptyOld();
			if (when === 'leaves') return m(oldRec) && !m(now);
			if (!m(now)) return false;
			if (when === 'enters') return !(old && m(old));
			if (when === 'updated') return Boolean(old) && m(oldRec);
			return true;
		},
	};
}

/** Checks a condition when it is registered: a syntax error is Grist's 400. */
export function conditionSyntaxError(condition: string): string | undefined {
	if (!condition) return undefined;
	let text: unknown = condition;
	try {
		const p = JSON.parse(condition) as { text?: unknown; config?: { customExpression?: unknown } };
		if (p && typeof p === 'object') text = p.text ?? p.config?.customExpression;
	} catch {
		// plain text
	}
	if (typeof text !== 'string') return undefined;
	try {
		parsePredicate(text);
		return undefined;
	} catch (e) {
		return (e as Error).message;
	}
}

/** How GET /triggers shows a stored condition (the config as given; text with `parsed`). */
export function storedCondition(condition: string | undefined): string {
	if (!condition) return '';
	try {
		const p = JSON.parse(condition) as Record<string, unknown>;
		if (p && typeof p === 'object' && !Array.isArray(p)) {
			if (typeof p.text === 'string') return JSON.stringify({ text: p.text, parsed: [] });
			if (p.config && typeof p.config === 'object') {
				const config = { ...(p.config as Record<string, unknown>) };
				if (typeof config.customExpression === 'string') config.customExpressionParsed = [];
				return JSON.stringify({ config });
			}
		}
	} catch {
		// plain text
	}
	return JSON.stringify({ text: condition, parsed: [] });
}
