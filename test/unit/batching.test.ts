import {
	DEFAULT_MAX_BYTES,
	ItemTooLargeError,
	chunkRecords,
	groupBy,
	jsonBytes,
} from '../../nodes/Grist/helpers/batching';

const rec = (i: number, text = 'x') => ({ fields: { n: i, t: text } });

describe('chunkRecords', () => {
	it('splits by count (500 by default) and keeps order and indices', () => {
		const items = Array.from({ length: 1201 }, (_, i) => rec(i));
		const chunks = chunkRecords(items);
		expect(chunks.map((c) => c.items.length)).toEqual([500, 500, 201]);
		expect(chunks.flatMap((c) => c.indices)).toEqual(items.map((_, i) => i));
		expect(chunks[1].items[0]).toBe(items[500]);
	});

	it('splits by JSON size so that every body stays under the limit', () => {
		const big = 'é'.repeat(100_000); // 200 kB of UTF-8 per record
		const items = Array.from({ length: 12 }, (_, i) => rec(i, big));
		const envelope = '{"records":[]}';
		const chunks = chunkRecords(items, { envelopeBytes: envelope.length });
		expect(chunks.length).toBeGreaterThan(1);
		for (const chunk of chunks) {
			const body = JSON.stringify({ records: chunk.items });
			expect(Buffer.byteLength(body)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
			expect(chunk.bytes + envelope.length).toBe(Buffer.byteLength(body));
		}
		// Chunks are as full as the limit allows: adding the next record would overflow.
		const first = chunks[0];
		expect(first.bytes + jsonBytes(items[first.items.length]) + 1 + envelope.length).toBeGreaterThan(DEFAULT_MAX_BYTES);
	});

	it('names the item that alone exceeds the limit', () => {
		const items = [rec(0), rec(1, 'y'.repeat(2_000_000)), rec(2)];
		expect(() => chunkRecords(items)).toThrow(ItemTooLargeError);
		try {
			chunkRecords(items);
		} catch (error) {
			expect((error as ItemTooLargeError).index).toBe(1);
			expect((error as Error).message).toMatch(/^Item 1 is \d+ bytes/);
		}
	});

	it('honours custom limits and an empty list', () => {
		expect(chunkRecords([])).toEqual([]);
		const chunks = chunkRecords([1, 2, 3, 4, 5], { maxItems: 2 });
		expect(chunks.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5]]);
	});
});

describe('groupBy', () => {
	it('groups in first-seen order with input indices', () => {
		const groups = groupBy(['a1', 'b1', 'a2', 'c1', 'b2'], (s) => s[0]);
		expect(groups.map((g) => [g.key, g.items, g.indices])).toEqual([
			['a', ['a1', 'a2'], [0, 2]],
			['b', ['b1', 'b2'], [1, 4]],
			['c', ['c1'], [3]],
		]);
	});
});
