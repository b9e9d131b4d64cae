/**
 * Pure parts of batched writes: chunking records into request-sized chunks (≤500 records,
 * <1 MB of JSON), and the texts of a failed batch (which items were written, which failed,
 * which were not sent). The executor that sends the chunks is actions/batch.ts.
 */
import type { IDataObject } from 'n8n-workflow';

export const GRIST_BODY_LIMIT = 1024 * 1024;
/** What we aim below the limit, for headers of the JSON envelope and safety. */
export const DEFAULT_MAX_BYTES = GRIST_BODY_LIMIT - 2048;
export const DEFAULT_MAX_ITEMS = 500;

export interface Chunk<T> {
	items: T[];
	/** Position of each item in the input list. */
	indices: number[];
	/** JSON bytes of the items plus separators (without the envelope). */
	bytes: number;
}

export interface ChunkOptions<T> {
	maxItems?: number;
	maxBytes?: number;
	/** Bytes of the envelope around the list, e.g. `{"records":[` + `]}`. */
	envelopeBytes?: number;
	/** JSON size of one item; defaults to the UTF-8 length of JSON.stringify(item). */
	sizeOf?: (item: T) => number;
	/**
	 * A cheap upper bound of `sizeOf(item)` (e.g. `jsonUpperBound`): `sizeOf` is then called only
	 * for items of a chunk that the bounds say might not fit. The chunks are the same as with
	 * `sizeOf` alone; a chunk's `bytes` may then be an upper bound.
	 */
	boundOf?: (item: T) => number;
}

export function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/**
 * An upper bound of `jsonBytes(value)` without serialising: JSON.stringify writes at most 6
 * bytes of UTF-8 per UTF-16 unit of a string (`\u001f`, a lone surrogate; `é` 2, `€` 3, a
 * surrogate pair 4 for 2 units), at most 25 characters for a number, `false` or `null` for the
 * other primitives; keys count like strings, `undefined` values as if they were written.
 * Objects with `toJSON` (Date…) and anything unusual are measured exactly.
 */
export function jsonUpperBound(value: unknown): number {
	switch (typeof value) {
		case 'string':
			return value.length * 6 + 2;
		case 'number':
			return 25;
		case 'boolean':
		case 'undefined':
			return 5;
		case 'object': {
			if (value === null) return 4;
			if (Array.isArray(value)) {
				let n = 2 + value.length;
				for (let k = 0; k < value.length; k++) n += jsonUpperBound(value[k]);
				return n;
			}
			if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return jsonBytes(value);
			let n = 2;
			for (const key in value as IDataObject)
				n += key.length * 6 + 4 + jsonUpperBound((value as IDataObject)[key]);
			return n;
		}
		default:
			return jsonBytes(value);
	}
}

/**
 * Splits records into request-sized chunks: at most `maxItems` records and at most `maxBytes` of
 * JSON body (Grist's express.json limit is 1 MB). Order is kept; each chunk remembers the indices
 * of the records it holds so results can be mapped back to input items. A record larger than the
 * budget alone gets a chunk of its own (the batch executor refuses such items before chunking).
 */
export function chunkRecords<T>(items: T[], options: ChunkOptions<T> = {}): Array<Chunk<T>> {
	const maxItems = Math.max(1, options.maxItems ?? DEFAULT_MAX_ITEMS);
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const budget = maxBytes - (options.envelopeBytes ?? 0);
	const sizeOf = options.sizeOf ?? jsonBytes;
	const boundOf = options.boundOf;
	const chunks: Array<Chunk<T>> = [];
	let current: Chunk<T> = { items: [], indices: [], bytes: 0 };
	// With bounds: the size counted for each item of the current chunk, and whether it is exact.
	let sizes: number[] = [];
	let exact: boolean[] = [];
	for (let index = 0; index < items.length; index++) {
		const item = items[index];
		let size = boundOf ? boundOf(item) : sizeOf(item);
		let sizeExact = !boundOf;
		const count = current.items.length;
		let full = count > 0 && count >= maxItems;
		if (!full && count > 0 && current.bytes + size + 1 > budget) {
			// The bounds say it might not fit: measure what is still a bound, then decide exactly.
			if (boundOf) {
				for (let k = 0; k < count; k++) {
					if (exact[k]) continue;
					const s = sizeOf(current.items[k]);
					current.bytes += s - sizes[k];
					sizes[k] = s;
					exact[k] = true;
				}
				size = sizeOf(item);
				sizeExact = true;
			}
			full = current.bytes + size + 1 > budget;
		}
		if (full) {
			chunks.push(current);
			current = { items: [], indices: [], bytes: size };
			sizes = [];
			exact = [];
		} else {
			current.bytes += count === 0 ? size : size + 1; // comma
		}
		current.items.push(item);
		current.indices.push(index);
		if (boundOf) {
			sizes.push(size);
			exact.push(sizeExact);
		}
	}
	if (current.items.length > 0) chunks.push(current);
	return chunks;
}

/** The field with the most bytes of JSON among records' `fields`/`require` (or top-level keys): for the error of an oversized item. */
export function largestField(records: unknown[]): { name: string; bytes: number } | undefined {
	let best: { name: string; bytes: number } | undefined;
	const visit = (o: unknown) => {
		if (!o || typeof o !== 'object' || Array.isArray(o)) return;
		for (const [name, value] of Object.entries(o as IDataObject)) {
			const bytes = jsonBytes(value ?? null);
			if (!best || bytes > best.bytes) best = { name, bytes };
		}
	};
	for (const r of records) {
		const rec = r as { fields?: unknown; require?: unknown };
		if (rec && typeof rec === 'object' && ('fields' in rec || 'require' in rec)) {
			visit(rec.fields);
			visit(rec.require);
		} else visit(r);
	}
	return best;
}

/** Units may hold several records: keep every request at most `maxItems` records. */
export function splitByRecordCount<U extends { records: unknown[] }>(
	chunks: U[][],
	maxItems: number,
): U[][] {
	const out: U[][] = [];
	for (const chunk of chunks) {
		let current: U[] = [];
		let count = 0;
		for (const u of chunk) {
			if (current.length > 0 && count + u.records.length > maxItems) {
				out.push(current);
				current = [];
				count = 0;
			}
			current.push(u);
			count += u.records.length;
		}
		if (current.length > 0) out.push(current);
	}
	return out;
}

/** `[0,1,2,5,7,8]` → `0–2, 5, 7–8`; after `maxParts` parts, `… (N items in all)`. */
export function describeIndices(indices: number[], maxParts = 20): string {
	const sorted = [...indices].sort((a, b) => a - b);
	const parts: string[] = [];
	let start = sorted[0];
	let prev = sorted[0];
	for (let k = 1; k <= sorted.length; k++) {
		const n = sorted[k];
		if (n === prev + 1) {
			prev = n;
			continue;
		}
		parts.push(start === prev ? String(start) : `${start}–${prev}`);
		start = n;
		prev = n;
	}
	if (parts.length > maxParts)
		return `${parts.slice(0, maxParts).join(', ')}, … (${sorted.length} items in all)`;
	return parts.join(', ');
}

/** Items of a failed request whose records name `column` (top level, `fields` or `require`). */
export function itemsWithColumn(
	units: Array<{ itemIndex: number; records: unknown[] }>,
	column: string,
): number[] {
	const has = (o: unknown) =>
		!!o &&
		typeof o === 'object' &&
		!Array.isArray(o) &&
		Object.prototype.hasOwnProperty.call(o, column);
	const found = new Set<number>();
	for (const u of units) {
		for (const r of u.records) {
			const rec = r as { fields?: unknown; require?: unknown };
			if (has(r) || has(rec?.fields) || has(rec?.require)) found.add(u.itemIndex);
		}
	}
	return [...found];
}

export interface BatchFailure {
	/** Items of the failed request. */
	failed: number[];
	/** Items written (confirmed by Grist's answers) before the failed request. */
	written: number;
	/** Items never sent because the batch stopped. */
	later: number[];
	verb: string;
	units: Array<{ itemIndex: number; records: unknown[] }>;
}

/**
 * What the error of a failed batch adds: how many items are written and which are not, or
 * which may be when the failed request's answer was lost.
 */
export function batchFailureNote(
	f: BatchFailure & { uncertain: boolean; column?: string; withColumn?: number[] },
): string {
	const s = (n: number) => (n === 1 ? '' : 's');
	const where =
		f.column !== undefined && f.withColumn?.length
			? `The column "${f.column}" is in item${s(f.withColumn.length)} ${describeIndices(f.withColumn)}. `
			: '';
	const later = f.later.length
		? ` Later item${s(f.later.length)} (${describeIndices(f.later)}) ${f.later.length === 1 ? 'was' : 'were'} not sent.`
		: '';
	const them = f.failed.length === 1 ? 'it' : 'them';
	if (f.uncertain) {
		return (
			where +
			`At least ${f.written} item${s(f.written)} ${f.written === 1 ? 'was' : 'were'} ${f.verb}: the ${f.written} sent before this request. ` +
			`Uncertain: the request holding item${s(f.failed.length)} ${describeIndices(f.failed)} lost its answer, so ${f.failed.length === 1 ? 'it' : 'they'} may or may not have been ${f.verb} ` +
			`(at most ${f.written + f.failed.length} items in all); check in Grist whether ${f.failed.length === 1 ? 'it is' : 'they are'} there before sending ${them} again.${later}`
		);
	}
	return (
		where +
		`${f.written} item${s(f.written)} had been ${f.verb} before this request failed. ` +
		`The failed request held item${s(f.failed.length)} ${describeIndices(f.failed)} (none of them was ${f.verb}: Grist answered with an error, and it applies a request entirely or not at all).${later}`
	);
}
