/**
 * Query evaluation of GET /records, POST /records/list, GET /data and GET /attachments (§5):
 * parsing `filter`, `sort` and `limit` (query string, X-Sort/X-Limit headers or body) and
 * applying them to evaluated rows. Values compare with JSON equality (`valueKey`).
 */
import { ApiError, tryParseJson } from './http';
import type { Column, Row } from './model';

/** Grist's `isAffirmative` (flags such as `noparse`, `hidden`): 1, on, true, yes. */
export function isAffirmative(v: unknown): boolean {
	return typeof v === 'string' ? /^(1|on|true|yes)$/i.test(v.trim()) : v === true || v === 1;
}

/** A value's identity for equality (filters, upsert lookups, change detection): JSON text for lists and objects. */
export function valueKey(v: unknown): unknown {
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
	if (!f || typeof f !== 'object' || Array.isArray(f))
		throw new ApiError(400, 'Invalid query: filter values must be arrays');
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

/**
 * grist-core's SortFunc.ts (`GET …/records?sort=` sorts with it, DocApiUtils.applySort):
 * typedCompare orders values first by the name of their JS type (`boolean` < `number` <
 * `object`, i.e. null and lists, < `string`), null before lists, lists element by element,
 * strings with an en-US collator, others natively; so an ascending sort puts null after
 * numbers (measured on grist-core 1.7.17). `-col` reverses the whole comparison.
 */
function nativeCompare(a: unknown, b: unknown): number {
	return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}
const localeCollator = new Intl.Collator('en-US');
export function typedCompare(a: unknown, b: unknown): number {
	const ta = typeof a;
	let r = nativeCompare(ta, typeof b);
	if (r !== 0) return r;
	if (ta === 'object') {
		const la = Array.isArray(a);
		r = nativeCompare(la, Array.isArray(b));
		if (r !== 0) return r;
		if (la) return arrayCompare(a as unknown[], b as unknown[]);
	}
	if (ta === 'string') return localeCollator.compare(a as string, b as string);
	return nativeCompare(a, b);
}
function arrayCompare(a: unknown[], b: unknown[]): number {
	for (let i = 0; i < a.length; i++) {
		if (i >= b.length) return 1;
		const r = typedCompare(a[i], b[i]);
		if (r) return r;
	}
	return a.length === b.length ? 0 : -1;
}
/** SortFunc.ts's naturalSort: numeric collation for two strings, typedCompare otherwise. */
const naturalCollator = new Intl.Collator(undefined, { numeric: true });
function naturalCompare(a: unknown, b: unknown): number {
	if (typeof a === 'string' && typeof b === 'string') return naturalCollator.compare(a, b);
	return typedCompare(a, b);
}
/** SortFunc.ts's emptyLast: falsy values other than numbers (null, '', false) go last. */
function isEmptyVal(v: unknown): boolean {
	return !v && typeof v !== 'number';
}

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
			if (col !== 'id' && !known(col))
				throw new ApiError(400, `Error manipulating data: [Sandbox] KeyError '${col}'`);
		const sets = entries.map(([col, vals]) => [col, new Set(vals.map(valueKey))] as const);
		out = out.filter((r) =>
			sets.every(([col, set]) => set.has(valueKey(col === 'id' ? r.id : r.row[col]))),
		);
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
			if (
				opts.includes('orderByChoice') &&
				typeof resolved !== 'string' &&
				resolved.type === 'Choice' // ServerColumnGetters: Choice columns only
			) {
				try {
					const wo = resolved.widgetOptions ? JSON.parse(resolved.widgetOptions) : {};
					if (Array.isArray(wo.choices))
						choiceOrder = new Map(wo.choices.map((c: string, i: number) => [c, i]));
				} catch {
					/* no choices */
				}
			}
			return {
				colId,
				desc,
				natural: opts.includes('naturalSort'),
				emptyLast: opts.includes('emptyLast'),
				choiceOrder,
			};
		});
		const cmp = (a: QueryRow, b: QueryRow): number => {
			for (const s of specs) {
				let va = s.colId === 'id' ? a.id : a.row[s.colId];
				let vb = s.colId === 'id' ? b.id : b.row[s.colId];
				if (s.choiceOrder) {
					// SortFunc.ts's choiceGetter: a choice's index padded to 5 digits, other values as they are
					const order = s.choiceOrder;
					const key = (v: unknown) =>
						typeof v === 'string' && order.has(v) ? String(order.get(v)).padStart(5, '0') : v;
					va = key(va);
					vb = key(vb);
				}
				const compare = s.natural ? naturalCompare : typedCompare;
				let r: number;
				if (s.emptyLast && isEmptyVal(va) !== isEmptyVal(vb)) r = isEmptyVal(va) ? 1 : -1;
				else r = compare(va, vb);
				if (r !== 0) return s.desc ? -r : r;
			}
			// then manualSort (ServerColumnGetters.getManualSortGetter), then the row id
			return typedCompare(a.row.manualSort, b.row.manualSort) || a.id - b.id;
		};
		out = out === rows ? [...out] : out;
		out.sort(cmp);
	}
	if (q.limit !== undefined && q.limit > 0) out = out.slice(0, q.limit);
	return out;
}
