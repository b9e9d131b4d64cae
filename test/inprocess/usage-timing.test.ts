/**
 * Organization → Get Usage and Document → Start / Get / Stop Timing run through n8n-core against
 * the emulator: requests, the items (one per formula column, slowest first, times in ms), paired
 * items, Grist's refusals with their hints and Continue On Fail.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { mapper, rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const orgs = resourceRunner(fx, 'org');
const documents = resourceRunner(fx, 'document');
const records = resourceRunner(fx, 'record');

describe('org getUsage', () => {
	it("gives an owner the site's usage as one item", async () => {
		const { items, error } = await orgs({ operation: 'getUsage', org: rl('list', '') });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toEqual({
			countsByDataLimitStatus: { approachingLimit: 0, gracePeriod: 0, deleteOnly: 0 },
			attachments: { totalBytes: expect.any(Number) },
		});
		expect(requests()).toEqual(['GET /o/demo/api/orgs/demo/usage']);
	});

	it('refuses a viewer with a hint; Continue On Fail goes on per item', async () => {
		const { items, error } = await orgs(
			{ operation: 'getUsage', org: rl('id', '={{ $json.org }}') },
			{
				apiKey: demo.viewerApiKey,
				continueOnFail: true,
				input: [{ json: { org: String(demo.orgId) } }, { json: { org: 'nosuchteam' } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json).toMatchObject({ error: 'Access denied', httpCode: '403' });
		expect(items[0].json.description).toBe(
			'Grist shows the usage of an organization only to its owners: use a credential of an owner of the organization.',
		);
		expect(items[1].json).toMatchObject({ error: 'Organization not found', httpCode: '404' });
	});
});

describe('document timing', () => {
	const doc = () => rl('id', demo.docId);

	it('start, get, stop: one item per formula column, slowest first, in ms', async () => {
		const start = await documents({ operation: 'startTiming', document: doc() });
		expect(start.error).toBeUndefined();
		expect(start.items[0].json).toEqual({ documentId: demo.docId, status: 'active' });
		expect(requests()).toEqual([`POST /o/demo/api/docs/${demo.docId}/timing/start`]);

		const before = await documents({ operation: 'getTiming', document: doc() });
		expect(before.items.map((i) => i.json)).toEqual([{ documentId: demo.docId, status: 'active' }]);

		await records({
			operation: 'update',
			document: doc(),
			table: rl('id', 'Orders'),
			rowId: '1',
			columns: mapper({ Amount: 130 }),
		});
		const during = await documents({ operation: 'getTiming', document: doc() });
		expect(during.error).toBeUndefined();
		const total = during.items.find((i) => i.json.colId === 'Total');
		expect(total?.json).toEqual({
			documentId: demo.docId,
			status: 'active',
			tableId: 'Orders',
			colId: 'Total',
			count: expect.any(Number),
			totalMs: expect.any(Number),
			averageMs: expect.any(Number),
			maxMs: expect.any(Number),
		});
		const totals = during.items.map((i) => i.json.totalMs as number);
		expect(totals).toEqual([...totals].sort((a, b) => b - a));

		emu.clearLog();
		const stop = await documents({ operation: 'stopTiming', document: doc() });
		expect(stop.error).toBeUndefined();
		expect(stop.items.find((i) => i.json.colId === 'Total')?.json).toMatchObject({
			status: 'stopped',
			tableId: 'Orders',
		});
		expect(stop.items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
		expect(requests()).toEqual([`POST /o/demo/api/docs/${demo.docId}/timing/stop`]);

		const after = await documents({ operation: 'getTiming', document: doc() });
		expect(after.items.map((i) => i.json)).toEqual([
			{ documentId: demo.docId, status: 'disabled' },
		]);
	});

	it("Grist's refusals come with what to do; Continue On Fail keeps the others", async () => {
		const notStarted = await documents({ operation: 'stopTiming', document: doc() });
		expect(notStarted.error?.message).toBe(`Timing not started for ${demo.docId}`);
		expect(notStarted.error?.description).toContain('start it with Start Timing');

		const { items, error } = await documents(
			{ operation: 'startTiming', document: rl('id', '={{ $json.doc }}') },
			{
				continueOnFail: true,
				input: [{ json: { doc: demo.docId } }, { json: { doc: demo.docId } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json).toEqual({ documentId: demo.docId, status: 'active' });
		expect(items[1].json).toMatchObject({
			error: `Timing already started for ${demo.docId}`,
			httpCode: '400',
		});
		expect(items[1].json.description).toContain('Get Timing');
		await documents({ operation: 'stopTiming', document: doc() });

		const viewer = await documents(
			{ operation: 'getTiming', document: doc() },
			{ apiKey: demo.viewerApiKey },
		);
		expect(viewer.error?.message).toBe('No owner access');
		expect(viewer.error?.description).toBe('Formula timing needs the Owner role on the document.');
	});
});
