/**
 * The site plan's daily API limit in a real n8n 2.41.1 (the packed package) against the emulator
 * given a limit: a Create refused half-way says which items were written and sends nothing more;
 * an active Grist Trigger makes one request per scheduled poll while refused.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, byId, docTable } from '../harness/builders';
import {
	chainWorkflow,
	gristNode,
	gristTriggerNode,
	manualWorkflow,
	rowsSource,
	useN8nDemoSite,
	type CredentialRef,
	type N8n,
} from '../harness/e2e';
import { emulatorOnly } from '../harness/target';
import { waitFor } from '../harness/until';

const limits = emulatorOnly(
	"the daily API limit is the site plan's, set in Grist's home database (test/real-limit/daily-limit.check.ts checks a real grist-core)",
);

const fx = useN8nDemoSite({
	credential: 'Grist records',
	seed: (emu, demo) =>
		emu.addTable(demo.docId, 'Bulk', [
			{ id: 'N', type: 'Int' },
			{ id: 'Name', type: 'Text' },
		]),
});
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));
beforeEach(() => {
	// the emulator's clock stands still: its minute's allowance does not come back during a test
	const now = Date.now();
	emu.setClock(() => now);
	emu.setDailyApiLimit(undefined);
});
afterAll(() => {
	emu.setDailyApiLimit(undefined);
	emu.setClock(() => Date.now());
});

const limitMessage = () => `Exceeded daily limit for document ${demo.docId}`;
const docRequests = () =>
	emu.log
		.filter((e) => e.apiPath.startsWith(`/api/docs/${demo.docId}`))
		.map((e) => `${e.method} ${e.apiPath.split('/').slice(-1)[0]} ${e.status}`);

limits.test(
	'Create of 1,200 items refused at its second request: the third is not sent, the error says what was written',
	async () => {
		emu.setDailyApiLimit(2); // the columns read and the first POST
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource(Array.from({ length: 1200 }, (_, i) => ({ N: i }))),
				gristNode(
					{
						resource: 'record',
						document: byId(demo.docId),
						table: byId('Bulk'),
						operation: 'create',
						columns: autoMap(),
					},
					cred,
				),
			]),
		);
		expect(docRequests()).toEqual(['GET columns 200', 'POST records 200', 'POST records 429']);
		expect(run.error?.message).toBe(limitMessage());
		expect(run.error?.description).toMatch(
			/^The document's API limit of its Grist plan is reached/,
		);
		expect(run.error?.description).toContain('00:00 UTC');
		expect(run.error?.description).toContain(
			'500 items had been written before this request failed.',
		);
		expect(run.error?.description).toContain('Later items (1000–1199) were not sent.');
		expect(emu.records(demo.docId, 'Bulk')).toHaveLength(500);
	},
);

limits.test(
	'an active Grist Trigger makes one request per scheduled poll while refused',
	async () => {
		const id = await n8n.createWorkflow(
			chainWorkflow([
				gristTriggerNode({ ...docTable(demo.docId, 'Bulk'), event: 'rowAdded' }, cred),
			]),
		);
		await n8n.activate(id);
		await waitFor(
			'the activation poll saved a cursor in the static data',
			async () => JSON.stringify(await n8n.workflowStaticData(id)),
			(text) => text.includes('"cursor"'),
			{ intervalMs: 250 },
		);
		emu.addRecords(demo.docId, 'Bulk', [{ N: -1 }]); // the document changes
		emu.setDailyApiLimit(1); // counts from now: the allowance is spent by the next request
		const spent = await fetch(
			`${emu.url}/o/${demo.orgDomain}/api/docs/${demo.docId}/tables/Bulk/columns`,
			{
				headers: { Authorization: `Bearer ${demo.apiKey}` },
			},
		);
		expect(spent.status).toBe(200);
		emu.clearLog();
		// three scheduled polls (one a minute)
		await waitFor(
			'three polls were refused',
			async () => docRequests().filter((r) => r.endsWith(' 429')).length,
			(n) => n >= 3,
			{ intervalMs: 1000, timeoutMs: 240_000 },
		);
		await n8n.deactivate(id);
		// the first refused poll reads the document's updatedAt (Grist's home server) too
		expect(docRequests().slice(0, 5)).toEqual([
			`GET ${demo.docId} 200`,
			'POST sql 429',
			'POST sql 429',
			'POST sql 429',
		]);
	},
	300_000,
);
