import { DEFAULT_MAX_BYTES, chunkRecords, jsonBytes } from '../../nodes/Grist/helpers/batch';

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
		expect(
			first.bytes + jsonBytes(items[first.items.length]) + 1 + envelope.length,
		).toBeGreaterThan(DEFAULT_MAX_BYTES);
	});

	it('honours custom limits and an empty list', () => {
		expect(chunkRecords([])).toEqual([]);
		const chunks = chunkRecords([1, 2, 3, 4, 5], { maxItems: 2 });
		expect(chunks.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5]]);
	});
});
