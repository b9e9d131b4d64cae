/**
 * A read's filter too long for a URL (api/records.ts): split into filters that match the same
 * rows, each under its budget, and the body of POST …/records/list built from GET's parameters.
 */
import {
	LIST_BODY_BYTES,
	URL_QUERY_CHARS,
	listBody,
	queryChars,
	splitFilter,
} from '../../nodes/Grist/api/records';

const email = (i: number) => `person${i}@example.com`;
const urlSize = (v: unknown) => encodeURIComponent(JSON.stringify(v)).length + 3;
const encoded = (f: object) => encodeURIComponent(JSON.stringify(f)).length;

describe('splitFilter', () => {
	it('keeps a filter that fits as it is', () => {
		const filter = { Email: [email(1), email(2)], Active: [true] };
		expect(splitFilter(filter, urlSize, URL_QUERY_CHARS)).toEqual([filter]);
	});

	it('cuts 1,000 e-mail addresses into URLs under the budget, every value once, in order', () => {
		const values = Array.from({ length: 1000 }, (_, k) => email(k));
		const parts = splitFilter({ Email: values, Active: [true] }, urlSize, URL_QUERY_CHARS);
		expect(parts.length).toBeGreaterThan(4);
		for (const part of parts) {
			expect(encoded(part)).toBeLessThanOrEqual(URL_QUERY_CHARS);
			expect(part.Active).toEqual([true]);
		}
		expect(parts.flatMap((p) => p.Email)).toEqual(values);
		// runs are filled: no more requests than one more than the bare minimum
		const minimum = Math.ceil(encoded({ Email: values }) / URL_QUERY_CHARS);
		expect(parts.length).toBeLessThanOrEqual(minimum + 1);
	});

	it('10,000 row IDs and 2,000 e-mail addresses: parts that together match exactly the same rows', () => {
		const filter = {
			id: Array.from({ length: 10_000 }, (_, k) => k + 1),
			Email: Array.from({ length: 2000 }, (_, k) => email(k)),
		};
		const parts = splitFilter(filter, urlSize, URL_QUERY_CHARS);
		for (const part of parts) expect(encoded(part)).toBeLessThanOrEqual(URL_QUERY_CHARS);
		// disjoint parts whose union is every (id, Email) pair of the filter: as many pairs in all,
		// and each pair (a sample of them) in exactly one part
		const pairs = parts.reduce((n, p) => n + p.id.length * p.Email.length, 0);
		expect(pairs).toBe(10_000 * 2000);
		const sets = parts.map((p) => ({ id: new Set(p.id), Email: new Set(p.Email) }));
		for (let k = 0; k < 2000; k++) {
			const [id, mail] = [filter.id[(k * 7919) % 10_000], filter.Email[(k * 104_729) % 2000]];
			expect(sets.filter((p) => p.id.has(id) && p.Email.has(mail))).toHaveLength(1);
		}
	});

	it('leaves a single value that is too long by itself in one part (Grist answers it)', () => {
		const long = 'x'.repeat(URL_QUERY_CHARS * 2);
		expect(splitFilter({ Name: [long] }, urlSize, URL_QUERY_CHARS)).toEqual([{ Name: [long] }]);
		const parts = splitFilter({ Name: [long, 'a', 'b'] }, urlSize, URL_QUERY_CHARS);
		expect(parts.flatMap((p) => p.Name)).toEqual([long, 'a', 'b']);
	});

	it('bodies: 100,000 e-mail addresses in bodies under 1 MB', () => {
		const values = Array.from({ length: 100_000 }, (_, k) => email(k));
		const bodySize = (v: unknown) => Buffer.byteLength(JSON.stringify(v)) + 1;
		const parts = splitFilter({ Email: values }, bodySize, LIST_BODY_BYTES);
		expect(parts.length).toBe(
			Math.ceil(Buffer.byteLength(JSON.stringify(values)) / LIST_BODY_BYTES),
		);
		for (const part of parts)
			expect(Buffer.byteLength(JSON.stringify({ filter: part }))).toBeLessThan(1024 * 1024);
		expect(parts.flatMap((p) => p.Email)).toEqual(values);
	});
});

describe('listBody and queryChars', () => {
	it("turns GET's parameters into POST …/records/list's body", () => {
		expect(
			listBody(
				{ filter: '{"A":[1]}', sort: '-A,B:naturalSort;emptyLast', limit: 5, hidden: 1 },
				{
					A: [1],
				},
			),
		).toEqual({
			filter: { A: [1] },
			sort: ['-A', 'B:naturalSort;emptyLast'],
			limit: 5,
			hidden: true,
		});
		expect(listBody({ filter: '{}' }, {})).toEqual({ filter: {} });
		expect(listBody({ sort: '', hidden: 0 }, {})).toEqual({ filter: {}, hidden: false });
	});

	it('counts the query string as sent, encoded', () => {
		expect(queryChars({ filter: '{"A":["a b"]}', limit: 10 })).toBe(
			'filter='.length + encodeURIComponent('{"A":["a b"]}').length + 1 + 'limit=10'.length + 1,
		);
		expect(queryChars({ filter: undefined })).toBe(0);
	});
});
