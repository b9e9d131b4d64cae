/**
 * The site plan's daily API limit (grist-core's 429 `Exceeded daily limit for document …`), run
 * in n8n-core against the emulator given a limit: a refusal is not retried, nothing more is sent
 * to that document in the run, the error says whose limit it is and when it resets, Continue On
 * Fail and the batch report say which items were not written, and the Grist Trigger makes one
 * request per poll while refused. Also the calls the main operations make (README, "API calls").
 */
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { docTable, items } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { emittedIds } from '../harness/emitted';
import { createPoller } from '../harness/inprocess';
import { emulatorOnly } from '../harness/target';

const limits = emulatorOnly(
	"the daily API limit is the site plan's, set in Grist's home database (test/real-limit/daily-limit.check.ts checks a real grist-core)",
);

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

// Map Automatically without type conversion options.
const autoMap = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const numbered = (n: number) => items(Array.from({ length: n }, (_, i) => ({ N: i })));
const run = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId, 'Bulk') });
const calls = () =>
	emu.log.map((e) => `${e.method} ${e.apiPath.split('/').slice(-1)[0]} ${e.status}`);
const LIMIT_MESSAGE = () => `Exceeded daily limit for document ${demo.docId}`;

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Bulk', [
		{ id: 'N', type: 'Int' },
		{ id: 'Name', type: 'Text' },
	]);
});

limits.describe('the daily API limit', () => {
	beforeEach(() => {
		// one minute of the emulator's clock for the whole test: its periods do not roll over
		const now = Date.parse('2026-12-08T10:00:10Z');
		emu.setClock(() => now);
		emu.setDailyApiLimit(undefined);
		const ids = emu.records(demo.docId, 'Bulk').map((r) => r.id);
		if (ids.length) emu.removeRecords(demo.docId, 'Bulk', ids);
		emu.clearLog();
	});
	afterEach(() => {
		emu.setDailyApiLimit(undefined);
		emu.setClock(() => Date.now());
	});

	/** Sets a limit of `limit` and spends `spent` of it (requests the emulator counts). */
	async function limited(limit: number, spent = limit): Promise<void> {
		emu.setDailyApiLimit(limit);
		for (let i = 0; i < spent; i++) {
			const res = await fetch(`${fx.site}/api/docs/${demo.docId}/tables/Bulk/columns`, {
				headers: { Authorization: `Bearer ${demo.apiKey}` },
			});
			expect(res.status).toBe(200);
		}
		emu.clearLog();
	}

	describe('a refusal at the daily API limit', () => {
		it('Get Many: its two reads (sent together) once each, not retried; the error says whose limit, the plan figures and the reset', async () => {
			await limited(2);
			const { error } = await run({ operation: 'getAll', returnAll: true });
			expect(calls().sort()).toEqual(['GET columns 429', 'GET data 429']);
			expect(error?.message).toBe(LIMIT_MESSAGE());
			expect(error?.description).toMatch(
				/^The document's API limit of its Grist plan is reached: Grist refuses its API requests \(not retried/,
			);
			expect(error?.description).toContain('00:00 UTC');
			expect(error?.description).toContain('3,000 API calls a month');
			expect(error?.description).toContain('baseMaxApiUnitsPerDocumentPerDay');
			expect(error?.description).not.toContain('Tried');
		});

		it('Create of 1,200 items refused at its second request: the third is not sent, the report says which items were written', async () => {
			await limited(2, 0); // the columns read and the first POST get through
			const { error } = await run(
				{ operation: 'create', columns: autoMap },
				{ input: numbered(1200) },
			);
			expect(calls()).toEqual(['GET columns 200', 'POST records 200', 'POST records 429']);
			expect(error?.message).toBe(LIMIT_MESSAGE());
			expect(error?.description).toContain("The document's API limit of its Grist plan is reached");
			expect(error?.description).toContain(
				'500 items had been written before this request failed.',
			);
			expect(error?.description).toContain('The failed request held items 500–999');
			expect(error?.description).toContain('Later items (1000–1199) were not sent.');
			expect(emu.records(demo.docId, 'Bulk')).toHaveLength(500);
		});

		it('Create with Continue On Fail: items of the refused request and of the requests not sent say so, and nothing more is sent', async () => {
			await limited(2, 0);
			const { items: out, error } = await run(
				{ operation: 'create', columns: autoMap },
				{ input: numbered(1600), continueOnFail: true },
			);
			expect(error).toBeUndefined();
			expect(calls()).toEqual(['GET columns 200', 'POST records 200', 'POST records 429']);
			expect(out).toHaveLength(1600);
			expect(out.slice(0, 500).every((o) => typeof o.json.id === 'number')).toBe(true);
			expect(out[700].json.error).toBe(LIMIT_MESSAGE());
			expect(out[700].json.description).toMatch(
				/^Not written: Grist refused request 2 of 4 \(holding items 500–999\) at the API limit; none of its items was written\. The document's API limit/,
			);
			expect(out[1200].json.error).toBe(LIMIT_MESSAGE());
			expect(out[1200].json.description).toMatch(
				/^Not written: request 3 of 4 \(holding items 1000–1499\) was not sent, since Grist refused an earlier request at the API limit\./,
			);
			expect(out[1599].json.description).toMatch(
				/^Not written: request 4 of 4 \(holding items 1500–1599\) was not sent/,
			);
			expect(emu.records(demo.docId, 'Bulk')).toHaveLength(500);
		});

		it('Get with Continue On Fail: its two reads (sent together) for all items, each item gets the error', async () => {
			await limited(1);
			const { items: out } = await run(
				{ operation: 'get', rowId: '={{ $json.id }}' },
				{ input: items([{ id: 1 }, { id: 2 }, { id: 3 }]), continueOnFail: true },
			);
			expect(calls().sort()).toEqual(['GET columns 429', 'GET records 429']);
			expect(out.map((o) => o.json.error)).toEqual([
				LIMIT_MESSAGE(),
				LIMIT_MESSAGE(),
				LIMIT_MESSAGE(),
			]);
		});
	});

	describe('the Grist Trigger while refused', () => {
		it('one request per poll, saying so; the position is kept and what is due is emitted once Grist answers', async () => {
			const first = emu.addRecords(demo.docId, 'Bulk', [{ N: 1 }]);
			const p = createPoller({
				node: new GristTrigger(),
				parameters: { ...docTable(demo.docId, 'Bulk'), event: 'rowAdded' },
				credentials: { apiKey: demo.apiKey, url: fx.site },
			});
			expect(await p.poll('trigger')).toBeNull(); // the baseline
			const added = emu.addRecords(demo.docId, 'Bulk', [{ N: 2 }, { N: 3 }]);
			delete p.nodeStaticData.updatedAt; // the document changed (Grist's updatedAt moves later)
			await limited(3);

			await expect(p.poll('trigger')).rejects.toMatchObject({ message: LIMIT_MESSAGE() });
			// Grist's home server answers the updatedAt read (not counted); the /sql idle check is refused
			expect(calls()).toEqual([`GET ${demo.docId} 200`, 'POST sql 429']);
			emu.clearLog();
			for (let poll = 0; poll < 3; poll++) {
				const error = await p.poll('trigger').catch((e: { description?: string }) => e);
				expect(error).toMatchObject({ message: LIMIT_MESSAGE() });
				expect((error as { description: string }).description).toMatch(
					new RegExp(`While it lasts, each poll makes one request to document "${demo.docId}"`),
				);
				expect(calls()).toEqual(['POST sql 429']);
				emu.clearLog();
			}
			expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: first[0] });

			emu.setDailyApiLimit(undefined);
			expect(emittedIds(await p.poll('trigger'))).toEqual(added);
		});

		it('an activation while refused makes one request to the document', async () => {
			const p = createPoller({
				node: new GristTrigger(),
				parameters: { ...docTable(demo.docId, 'Bulk'), event: 'rowAdded' },
				credentials: { apiKey: demo.apiKey, url: fx.site },
			});
			await limited(3);
			await expect(p.poll('trigger')).rejects.toMatchObject({ message: LIMIT_MESSAGE() });
			expect(calls()).toEqual([`GET ${demo.docId} 200`, 'GET columns 429']);
		});
	});
});

describe('the calls each operation makes (README, "API calls"), and the 429 of too many requests at once', () => {
	beforeEach(() => {
		const ids = emu.records(demo.docId, 'Bulk').map((r) => r.id);
		if (ids.length) emu.removeRecords(demo.docId, 'Bulk', ids);
		emu.clearFaults();
		emu.clearLog();
	});

	it('the 429 of too many requests at once is still retried', async () => {
		emu.fault({ path: /\/columns$/, status: 429, times: 2 });
		const { error } = await run({ operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		expect(calls().filter((c) => c.includes('columns'))).toEqual([
			'GET columns 429',
			'GET columns 429',
			'GET columns 200',
		]);
	});

	it('Create of 10,000 rows: 21 calls (the columns, then 20 of 500 rows); Get Many of them: 2', async () => {
		await run({ operation: 'create', columns: autoMap }, { input: numbered(10_000) });
		expect(calls()).toEqual(['GET columns 200', ...Array(20).fill('POST records 200')]);
		emu.clearLog();
		const { items: out } = await run({ operation: 'getAll', returnAll: true });
		expect(out).toHaveLength(10_000);
		expect(calls()).toHaveLength(2);
		emu.clearLog();
		const ids = out.slice(0, 1000).map((o) => ({ id: o.json.id, N: -1 }));
		await run({ operation: 'update', columns: autoMap }, { input: items(ids) });
		expect(calls()).toEqual(
			['GET columns 200', 'POST records 200', 'POST records 200'].map((c) =>
				c.replace('POST', 'PATCH'),
			),
		);
	});
});
