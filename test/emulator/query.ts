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

function isEmptyVal(v: unknown): boolean {
	return (
		v === null ||
		v === undefined ||
		v === '' ||
		(Array.isArray(v) && v[0] === 'L' && v.length === 1)
	);
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
			if (opts.includes('orderByChoice') && typeof resolved !== 'string') {
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
				if (s.emptyLast) {
					const ea = isEmptyVal(va);
					const eb = isEmptyVal(vb);
					if (ea !== eb) return ea ? 1 : -1;
				}
				let r: number;
				if (s.choiceOrder) {
					const ia =
						typeof va === 'string' && s.choiceOrder.has(va) ? s.choiceOrder.get(va)! : Infinity;
					const ib =
						typeof vb === 'string' && s.choiceOrder.has(vb) ? s.choiceOrder.get(vb)! : Infinity;
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
