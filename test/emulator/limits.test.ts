/* eslint-disable @n8n/community-nodes/no-restricted-globals -- timers sequence concurrent requests in this test */
/** Emulator: body limits, malformed JSON, per-document concurrency (429) and fault injection. */
import { startEmulator, type DemoSite, type GristEmulator } from './index';
import { client, raw, rawAnswer, type ErrorBody, type RecordsBody } from './testutil';
import { emulatorOnly } from '../harness/target';
import { until } from '../harness/until';

const limitSwitch = emulatorOnly('bodyLimitBytes is an emulator switch');
// The proxy in front of a real server delays a request before the server sees it: no slot is held.
const concurrency = emulatorOnly(
	'the per-document limit is reached with requests the emulator holds (fault delays) in its slots',
);

let emu: GristEmulator;
let demo: DemoSite;
let api: ReturnType<typeof client>;

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
	api = client(emu, demo.apiKey);
});
afterAll(() => emu.close());
beforeEach(() => {
	emu.clearFaults();
	emu.clearLog();
});

/** Waits (without timing assertions) until `count` requests have reached the emulator `e`. */
async function arrived(e: GristEmulator, count: number): Promise<void> {
	await until(`${count} requests reached the emulator`, () => e.log.length === count, {
		timeoutMs: 5000,
		intervalMs: 1,
	});
	await new Promise((r) => setTimeout(r, 20)); // let their (empty) bodies be read
}

const records = () => `/api/docs/${demo.docId}/tables/Customers/records`;

/**
 * The raw answer to a request whose head (request line and headers) is `headBytes` long: to the
 * real server itself with GRIST_TARGET=real (the test's proxy is a Node server too), else to the
 * emulator.
 */
async function answerToHead(headBytes: number): Promise<string> {
	const real = process.env.GRIST_TARGET === 'real' ? new URL(process.env.GRIST_URL ?? '') : null;
	const host = real ? real.hostname : '127.0.0.1';
	const port = real ? Number(real.port || 80) : emu.port;
	const start = `GET /api/docs/${demo.docId}/tables/Customers/records?filter=`;
	const end = ` HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`;
	const head = start + 'x'.repeat(headBytes - start.length - end.length) + end;
	return await rawAnswer(host, port, head);
}

describe('URL limit', () => {
	it("a request head over Node's 16 KB is 431 with no body and the connection closed", async () => {
		const refused = 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n';
		expect(await answerToHead(16 * 1024 + 100)).toBe(refused);
		expect(await answerToHead(100_000)).toBe(refused);
		// just under the limit the request is read (and answered as any other: here 401 or 500,
		// as the filter is no JSON and no key is sent)
		const under = await answerToHead(16 * 1024 - 100);
		expect(under).toMatch(/^HTTP\/1\.1 (?!431)\d{3} /);
	});
});

describe('body limits', () => {
	it('JSON over 1 MiB is 413 request entity too large, nothing written', async () => {
		const before = emu.records(demo.docId, 'Customers').length;
		const big = { records: [{ fields: { Name: 'x'.repeat(1024 * 1024) } }] };
		const r = await api.post(records(), big);
		expect(r.status).toBe(413);
		expect(r.json).toEqual({ error: 'request entity too large' });
		expect(emu.records(demo.docId, 'Customers')).toHaveLength(before);
		expect(emu.log[0].bodyBytes).toBeGreaterThan(1024 * 1024);
	});

	it('just under the limit is accepted', async () => {
		const name = 'y'.repeat(1024 * 1024 - 100);
		const body = JSON.stringify({ records: [{ fields: { Name: name } }] });
		expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);
		const r = await api.post<RecordsBody>(records(), JSON.parse(body));
		expect(r.status).toBe(200);
		await api.post(`${records()}/delete`, [r.json.records[0].id]);
	});

	limitSwitch.it('bodyLimitBytes option', async () => {
		const small = await startEmulator({ bodyLimitBytes: 100 });
		try {
			const d = small.seedDemo();
			const r = await client(small, d.apiKey).post(
				`/api/docs/${d.docId}/tables/Customers/records`,
				{
					records: [{ fields: { Name: 'z'.repeat(200) } }],
				},
			);
			expect(r.status).toBe(413);
		} finally {
			await small.close();
		}
	});

	it('malformed JSON is 400', async () => {
		const r = await raw<ErrorBody>(emu, {
			method: 'POST',
			path: records(),
			headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
			body: '{"records": [',
		});
		expect(r.status).toBe(400);
		expect(typeof r.json.error).toBe('string');
	});
});

concurrency.describe('per-document concurrency', () => {
	it('the 11th request in flight on a doc gets 429; other docs and home routes are not throttled', async () => {
		emu.fault({ path: /\/records$/, method: 'GET', delayMs: 2000, times: 10 });
		const slow = Array.from({ length: 10 }, () => api.get(records()));
		await arrived(emu, 10);
		const over = await api.get(records());
		const otherDoc = await api.get(`/api/docs/${demo.doc2Id}/tables/Tasks/records`);
		const home = await api.get(`/api/docs/${demo.docId}`);
		const results = await Promise.all(slow);
		expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
		expect(over.status).toBe(429);
		expect(over.json).toEqual({
			error: `Too many backlogged requests for document ${demo.docId} - try again later?`,
		});
		expect(otherDoc.status).toBe(200);
		expect(home.status).toBe(200);
		// slots are released
		expect((await api.get(records())).status).toBe(200);
	});

	it('maxParallelPerDoc: 0 is unlimited, other values are honoured', async () => {
		for (const [max, expected] of [
			[0, 200],
			[2, 429],
		] as const) {
			const e = await startEmulator({ maxParallelPerDoc: max });
			try {
				const d = e.seedDemo();
				const c = client(e, d.apiKey);
				const url = `/api/docs/${d.docId}/tables/Orders/records`;
				e.fault({ path: /\/records$/, delayMs: 1500, times: 12 });
				const slow = Array.from({ length: 12 }, () => c.get(url));
				await arrived(e, 12);
				e.clearFaults();
				const extra = await c.get(url);
				await Promise.all(slow);
				expect(extra.status).toBe(expected);
			} finally {
				await e.close();
			}
		}
	});
});

describe('faults', () => {
	it('N×429 then success, counted per matching request', async () => {
		emu.fault({ method: 'GET', path: /\/records$/, status: 429, times: 2 });
		const a = await api.get(records());
		const b = await api.get(records());
		const c = await api.get(records());
		expect([a.status, b.status, c.status]).toEqual([429, 429, 200]);
		expect(a.json).toEqual({
			error: `Too many backlogged requests for document ${demo.docId} - try again later?`,
		});
		expect(emu.log.map((e) => e.status)).toEqual([429, 429, 200]);
	});

	it('503 with default and custom bodies; method and exact path matching', async () => {
		emu.fault({
			path: `/api/docs/${demo.docId}/tables/Customers/records`,
			method: 'POST',
			status: 503,
		});
		emu.fault({ path: '/api/orgs', status: 503, body: { error: 'custom' } });
		expect((await api.get(records())).status).toBe(200); // method differs
		const p = await api.post(records(), { records: [{}] });
		expect(p.status).toBe(503);
		expect(p.json).toEqual({ error: 'Document in flux - try again later' });
		const o = await api.get('/api/orgs');
		expect(o.json).toEqual({ error: 'custom' });
		expect((await api.get('/api/orgs')).status).toBe(200);
	});

	it('drop destroys the socket without an answer', async () => {
		emu.fault({ path: /\/records$/, drop: true });
		await expect(api.get(records())).rejects.toThrow(/socket hang up|ECONNRESET/);
		expect(emu.log[0].status).toBe(0);
		expect((await api.get(records())).status).toBe(200);
	});

	it('delay holds the request before handling (it is logged but not answered yet)', async () => {
		emu.fault({ path: '/api/orgs', delayMs: 1000 });
		let done = false;
		const p = api.get('/api/orgs').then((r) => {
			done = true;
			return r;
		});
		await arrived(emu, 1);
		expect(done).toBe(false);
		expect(emu.log[0].status).toBe(0);
		expect((await p).status).toBe(200);
		expect(emu.log[0].status).toBe(200);
	});

	it('faults match the apiPath (after the /o/ prefix)', async () => {
		emu.fault({ path: '/api/orgs/current', status: 500, body: { error: 'boom' } });
		const r = await client(emu, demo.apiKey, '/o/demo').get('/api/orgs/current');
		expect(r.status).toBe(500);
		expect(r.json).toEqual({ error: 'boom' });
	});
});

emulatorOnly("the daily API limit is the site plan's, set in Grist's home database").describe(
	'daily API limit (dailyApiLimit)',
	() => {
		afterEach(() => emu.setDailyApiLimit(undefined));

		it("refuses as grist-core does past the day's allowance, then lets a 1,440th of it through each minute", async () => {
			let now = Date.parse('2026-12-08T10:00:30Z');
			emu.setClock(() => now);
			try {
				emu.setDailyApiLimit(3);
				const statuses: number[] = [];
				for (let i = 0; i < 3; i++) statuses.push((await api.get(records())).status);
				// the day's 3 also fill the hour's ceil(3/24) = 1 and the minute's ceil(3/1440) = 1
				expect(statuses).toEqual([200, 200, 200]);
				const over = await api.get(records());
				expect(over.status).toBe(429);
				expect(over.json).toEqual({ error: `Exceeded daily limit for document ${demo.docId}` });
				// home routes are not counted, other documents have their own allowance
				expect((await api.get(`/api/docs/${demo.docId}`)).status).toBe(200);
				expect((await api.get(`/api/docs/${demo.doc2Id}/tables/Tasks/records`)).status).toBe(200);
				// the next minute: one more gets through (ceil(3/1440) = 1), then refused again
				now += 60_000;
				expect((await api.get(records())).status).toBe(200);
				expect((await api.get(records())).status).toBe(429);
				// the next UTC day: the allowance is back, less the one counted for it
				now = Date.parse('2026-12-09T00:00:05Z');
				const next: number[] = [];
				for (let i = 0; i < 3; i++) next.push((await api.get(records())).status);
				expect(next).toEqual([200, 200, 429]);
			} finally {
				emu.setClock(() => Date.now());
			}
		});

		it('no limit unless set (a self-hosted Grist without plan limits)', async () => {
			for (let i = 0; i < 20; i++) expect((await api.get(records())).status).toBe(200);
		});
	},
);
