/**
 * Request sizes of a write, pure: the JSON bytes of records (exact, or a cheap upper bound) and
 * the one chunking function that cuts them into request-sized chunks (≤ 500 records, < 1 MB of
 * JSON: Grist's body limit).
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
	/**
	 * Records an item holds (default 1): a chunk holds at most `maxItems` records, and an item
	 * with more than `maxItems` records gets a chunk of its own (an item is never split).
	 */
	countOf?: (item: T) => number;
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
 * budget alone gets a chunk of its own (collect.ts refuses such items before chunking).
 * With `countOf`, the items are units of several records and `maxItems` counts their records.
 */
export function chunkRecords<T>(items: T[], options: ChunkOptions<T> = {}): Array<Chunk<T>> {
	const maxItems = Math.max(1, options.maxItems ?? DEFAULT_MAX_ITEMS);
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const budget = maxBytes - (options.envelopeBytes ?? 0);
	const sizeOf = options.sizeOf ?? jsonBytes;
	const boundOf = options.boundOf;
	const countOf = options.countOf;
	const chunks: Array<Chunk<T>> = [];
	let current: Chunk<T> = { items: [], indices: [], bytes: 0 };
	// Records in the current chunk (its items when `countOf` is not given).
	let records = 0;
	// With bounds: the size counted for each item of the current chunk, and whether it is exact.
	let sizes: number[] = [];
	let exact: boolean[] = [];
	for (let index = 0; index < items.length; index++) {
		const item = items[index];
		let size = boundOf ? boundOf(item) : sizeOf(item);
		let sizeExact = !boundOf;
		const n = countOf ? countOf(item) : 1;
		const count = current.items.length;
		let full = count > 0 && records + n > maxItems;
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
			records = 0;
			sizes = [];
			exact = [];
		} else {
			current.bytes += count === 0 ? size : size + 1; // comma
		}
		current.items.push(item);
		current.indices.push(index);
		records += n;
		if (boundOf) {
			sizes.push(size);
			exact.push(sizeExact);
		}
	}
	if (current.items.length > 0) chunks.push(current);
	return chunks;
}

/** JSON bytes of records written one after the other with commas, each measured by `size`. */
export function recordsBytes(records: unknown[], size: (r: unknown) => number): number {
	let bytes = records.length > 1 ? records.length - 1 : 0;
	for (let k = 0; k < records.length; k++) bytes += size(records[k]);
	return bytes;
}
