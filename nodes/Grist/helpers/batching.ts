/**
 * Splits records into request-sized chunks: at most `maxItems` records and at most `maxBytes` of
 * JSON body (Grist's express.json limit is 1 MB). Order is kept; each chunk remembers the indices
 * of the records it holds so results can be mapped back to input items.
 */

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
}

export class ItemTooLargeError extends Error {
	constructor(
		readonly index: number,
		readonly bytes: number,
		readonly maxBytes: number,
	) {
		super(
			`Item ${index} is ${bytes} bytes of JSON, more than Grist accepts in one request (${maxBytes} bytes)`,
		);
	}
}

export function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

export function chunkRecords<T>(items: T[], options: ChunkOptions<T> = {}): Array<Chunk<T>> {
	const maxItems = Math.max(1, options.maxItems ?? DEFAULT_MAX_ITEMS);
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const budget = maxBytes - (options.envelopeBytes ?? 0);
	const sizeOf = options.sizeOf ?? jsonBytes;
	const chunks: Array<Chunk<T>> = [];
	let current: Chunk<T> = { items: [], indices: [], bytes: 0 };
	items.forEach((item, index) => {
		const size = sizeOf(item);
		if (size > budget) throw new ItemTooLargeError(index, size, budget);
		const added = current.items.length === 0 ? size : size + 1; // comma
		if (current.items.length >= maxItems || current.bytes + added > budget) {
			chunks.push(current);
			current = { items: [], indices: [], bytes: 0 };
			current.bytes = size;
		} else {
			current.bytes += added;
		}
		current.items.push(item);
		current.indices.push(index);
	});
	if (current.items.length > 0) chunks.push(current);
	return chunks;
}

/** Groups values by a key, keeping first-seen order of keys and input order within a group. */
export function groupBy<T>(items: T[], keyOf: (item: T, index: number) => string): Array<{ key: string; items: T[]; indices: number[] }> {
	const groups = new Map<string, { key: string; items: T[]; indices: number[] }>();
	items.forEach((item, index) => {
		const key = keyOf(item, index);
		let g = groups.get(key);
		if (!g) {
			g = { key, items: [], indices: [] };
			groups.set(key, g);
		}
		g.items.push(item);
		g.indices.push(index);
	});
	return [...groups.values()];
}
