import {
	DEFAULT_MAX_BYTES,
	chunkRecords,
	jsonBytes,
	recordsBytes,
} from '../../nodes/Grist/write/chunking';
import { oversizedItemText, uncertainItemNote } from '../../nodes/Grist/write/outcomeTexts';

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

describe('chunkRecords of units of several records (countOf)', () => {
	const unit = (n: number, i: number) => ({ i, records: Array.from({ length: n }, (_, k) => k) });
	const countOf = (u: { records: unknown[] }) => u.records.length;

	it('counts records, not units, against maxItems', () => {
		const units = Array.from({ length: 10 }, (_, i) => unit(2, i));
		const chunks = chunkRecords(units, { maxItems: 5, countOf });
		expect(chunks.map((c) => c.items.map((u) => u.i))).toEqual([
			[0, 1],
			[2, 3],
			[4, 5],
			[6, 7],
			[8, 9],
		]);
		expect(chunks.flatMap((c) => c.indices)).toEqual(units.map((_, i) => i));
	});

	it('never splits a unit: one with more records than maxItems gets a chunk of its own', () => {
		const units = [unit(1, 0), unit(7, 1), unit(1, 2), unit(2, 3)];
		const chunks = chunkRecords(units, { maxItems: 3, countOf });
		expect(chunks.map((c) => c.items.map((u) => u.i))).toEqual([[0], [1], [2, 3]]);
	});

	it('limits bytes and records together', () => {
		const big = (i: number) => ({ i, records: [{ t: 'x'.repeat(400_000) }, { t: '' }] });
		const chunks = chunkRecords([big(0), big(1), big(2), unit(1, 3)], {
			maxItems: 3,
			countOf,
			sizeOf: (u) => recordsBytes(u.records, jsonBytes),
		});
		expect(chunks.map((c) => c.items.map((u) => u.i))).toEqual([[0], [1], [2, 3]]);
		const byBytes = chunkRecords([big(0), big(1), big(2), unit(1, 3)], {
			maxItems: 10,
			countOf,
			sizeOf: (u) => recordsBytes(u.records, jsonBytes),
		});
		expect(byBytes.map((c) => c.items.map((u) => u.i))).toEqual([
			[0, 1],
			[2, 3],
		]);
	});
});

describe('sizing and notes of the executor', () => {
	it('recordsBytes: the records with commas, as JSON.stringify writes a list without brackets', () => {
		const records = [{ a: 'é' }, { b: 1 }, null];
		expect(recordsBytes(records, jsonBytes)).toBe(Buffer.byteLength(JSON.stringify(records)) - 2);
		expect(recordsBytes([], jsonBytes)).toBe(0);
		expect(recordsBytes([{ a: 1 }], jsonBytes)).toBe(7);
	});

	it('oversizedItemText names the item, its bytes and its largest field', () => {
		const text = oversizedItemText(4, 1_200_000, 1_046_510, [
			{ fields: { Big: 'x'.repeat(10), n: 1 } },
		]);
		expect(text.message).toBe(
			'Item 4 is 1200000 bytes of JSON (its largest field, "Big", is 12 bytes), more than Grist accepts in one request (1046510 bytes)',
		);
		expect(text.description).toMatch(/^Grist limits a request body to 1 MB\./);
		expect(oversizedItemText(0, 10, 5, []).message).toBe(
			'Item 0 is 10 bytes of JSON, more than Grist accepts in one request (5 bytes)',
		);
	});

	it('uncertainItemNote says the answer was lost and names the items sent together', () => {
		expect(uncertainItemNote(3, [2, 3], 'written')).toBe(
			'Uncertain: item 3 was sent in one request with items 2–3, and its answer was lost, so they may or may not have been written. ' +
				'Check in Grist whether they are there before sending them again.',
		);
		expect(uncertainItemNote(0, [0], 'deleted')).toMatch(
			/^Uncertain: item 0 was sent in one request with item 0,/,
		);
	});
});
