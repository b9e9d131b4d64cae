/**
 * The cheap size bound of batched writes: `jsonUpperBound` is never below the real
 * JSON size, and chunking with it (`boundOf`) gives exactly the chunks of exact measuring.
 */
import { chunkRecords, jsonBytes, jsonUpperBound } from '../../nodes/Grist/write/chunking';

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const NASTY = ['a', '"', '\\', '\n', '\u0001', 'é', '€', '😀', '\ud800', '\u2028', ' '];

function text(rnd: () => number, max: number): string {
	const n = Math.floor(rnd() * max);
	let s = '';
	for (let k = 0; k < n; k++) s += NASTY[Math.floor(rnd() * NASTY.length)];
	return s;
}

function value(rnd: () => number, depth = 0): unknown {
	const pick = Math.floor(rnd() * (depth > 2 ? 7 : 10));
	switch (pick) {
		case 0:
			return text(rnd, 40);
		case 1:
			return [-0.0000012345678901234567, -1.7976931348623157e308, -123456789012345680000][
				Math.floor(rnd() * 3)
			];
		case 2:
			return rnd() * 1e6 - 5e5;
		case 3:
			return rnd() < 0.5;
		case 4:
			return null;
		case 5:
			return undefined;
		case 6:
			return [NaN, Infinity, -0][Math.floor(rnd() * 3)];
		case 7:
			return new Date(Math.floor(rnd() * 2e12));
		case 8:
			return Array.from({ length: Math.floor(rnd() * 4) }, () => value(rnd, depth + 1));
		default: {
			const o: Record<string, unknown> = {};
			const n = Math.floor(rnd() * 5);
			for (let k = 0; k < n; k++) o[text(rnd, 6) || 'k'] = value(rnd, depth + 1);
			return o;
		}
	}
}

describe('jsonUpperBound', () => {
	it('is never below the UTF-8 bytes of JSON.stringify', () => {
		const rnd = random(17);
		for (let k = 0; k < 5000; k++) {
			const v = value(rnd);
			expect(jsonUpperBound(v)).toBeGreaterThanOrEqual(jsonBytes(v));
		}
	});

	it('holds for the worst cases of strings and numbers', () => {
		for (const v of [
			'\u0001'.repeat(100),
			'\ud800'.repeat(50),
			'😀'.repeat(30),
			-0.0000012345678901234567,
			-1.7976931348623157e308,
			-123456789012345680000,
			{ ['\u0001'.repeat(10)]: undefined },
			[undefined, () => 1],
		])
			expect(jsonUpperBound(v)).toBeGreaterThanOrEqual(jsonBytes(v));
	});
});

describe('chunkRecords with boundOf', () => {
	it('gives the chunks of exact sizes, measuring only near the limit', () => {
		const rnd = random(4);
		for (let round = 0; round < 40; round++) {
			const records = Array.from({ length: 300 }, () => ({
				fields: { Name: text(rnd, 200), Score: rnd() * 100, Note: value(rnd) },
			}));
			const maxBytes = 2000 + Math.floor(rnd() * 60_000);
			const maxItems = 1 + Math.floor(rnd() * 120);
			const exact = chunkRecords(records, { maxBytes, maxItems, envelopeBytes: 14 });
			let measured = 0;
			const bounded = chunkRecords(records, {
				maxBytes,
				maxItems,
				envelopeBytes: 14,
				sizeOf: (r) => {
					measured++;
					return jsonBytes(r);
				},
				boundOf: jsonUpperBound,
			});
			expect(bounded.map((c) => c.indices)).toEqual(exact.map((c) => c.indices));
			for (const c of bounded) {
				const body = JSON.stringify({ records: c.items });
				expect(Buffer.byteLength(body)).toBeLessThanOrEqual(maxBytes);
			}
			expect(measured).toBeLessThanOrEqual(records.length);
		}
	});

	it('measures nothing when the bounds fit', () => {
		const records = Array.from({ length: 1200 }, (_, i) => ({ fields: { n: i, t: 'text' } }));
		const sizeOf = jest.fn(jsonBytes);
		const chunks = chunkRecords(records, { sizeOf, boundOf: jsonUpperBound });
		expect(chunks.map((c) => c.items.length)).toEqual([500, 500, 200]);
		expect(sizeOf).not.toHaveBeenCalled();
	});
});
