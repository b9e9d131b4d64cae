/**
 * Options → Add Reference Display Values against the emulator (and a real Grist with
 * `npm run test:real`): Record → Get Many, the Grist Trigger and the Grist Instant Trigger add
 * `_display` with what Grist shows for each Reference and Reference List cell, reading each
 * referenced table once (its columns, then only the referenced rows' shown columns); requests are
 * counted from the emulator's request log.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { docTable, items } from '../harness/builders';
import { deliveredJson } from '../harness/emitted';
import { createPoller, runNode } from '../harness/inprocess';
import {
	createWebhookTrigger,
	serveWebhooks,
	type WebhookTrigger,
} from '../harness/inprocess/webhook';

const KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
let bridge: Awaited<ReturnType<typeof serveWebhooks>>;
let current: WebhookTrigger | undefined;
let ids: { acme: number; globex: number; initech: number; ann: number; bob: number };
let tableSeq = 0;

const JAN_1_2024 = 1704067200;
const FEB_1_2024 = 1706745600;
const DANGLING = 999;

beforeAll(async () => {
	emu = await startEmulator({ allowedWebhookDomains: '*', webhookRetryDelaysMs: [20, 40] });
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	const ws = emu.addWorkspace(org.id, 'Main', { owner: 'owner@example.com' });
	docId = emu.addDoc(ws.id, { name: 'References', owner: 'owner@example.com' }).id;
	emu.addTable(docId, 'Clients', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Since', type: 'Date' },
	]);
	emu.addTable(docId, 'People', [
		{ id: 'Email', type: 'Text' },
		{ id: 'Name', type: 'Text' },
	]);
	const [acme, globex, initech] = emu.addRecords(docId, 'Clients', [
		{ Name: 'Acme Ltd', Since: JAN_1_2024 },
		{ Name: 'Globex', Since: FEB_1_2024 },
		{ Name: 'Initech', Since: null },
	]);
	const [ann, bob] = emu.addRecords(docId, 'People', [
		{ Email: 'ann@example.com', Name: 'Ann' },
		{ Email: 'bob@example.com', Name: 'Bob' },
	]);
	ids = { acme, globex, initech, ann, bob };
	api = client(emu, KEY);
	bridge = await serveWebhooks(() => {
		if (!current) throw new Error('no trigger');
		return current;
	});
});

afterAll(async () => {
	await bridge?.close();
	await emu?.close();
});

/**
 * A fresh Deals table: Client, Contacts (RefList) and Started (its Since) point at Clients, so
 * three columns share one read of Clients; Owner shows People's Email; Plain shows the row ID.
 */
function newDeals(): string {
	tableSeq += 1;
	const tableId = `Deals${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Title', type: 'Text' },
		{ id: 'Client', type: 'Ref:Clients', visibleCol: 'Name' },
		{ id: 'Contacts', type: 'RefList:Clients', visibleCol: 'Name' },
		{ id: 'Started', type: 'Ref:Clients', visibleCol: 'Since' },
		{ id: 'Owner', type: 'Ref:People', visibleCol: 'Email' },
		{ id: 'Plain', type: 'Ref:People' },
	]);
	return tableId;
}

/** Deal rows: one with every reference set, one with empty ones, one with dangling ones. */
function dealRows(): Array<Record<string, unknown>> {
	return [
		{
			Title: 'full',
			Client: ids.acme,
			Contacts: ['L', ids.globex, ids.initech],
			Started: ids.globex,
			Owner: ids.ann,
			Plain: ids.bob,
		},
		{ Title: 'empty', Client: 0, Contacts: null, Started: 0, Owner: 0, Plain: 0 },
		{
			Title: 'dangling',
			Client: DANGLING,
			Contacts: ['L', ids.acme, DANGLING],
			Started: ids.initech,
			Owner: DANGLING,
			Plain: DANGLING,
		},
	];
}

/** The `_display` of each of `dealRows()`, simplified. */
const SIMPLIFIED = [
	{
		Client: 'Acme Ltd',
		Contacts: ['Globex', 'Initech'],
		Started: '2024-02-01',
		Owner: 'ann@example.com',
		Plain: 0, // replaced by the test: Bob's row ID
	},
	{ Client: null, Contacts: null, Started: null, Owner: null, Plain: null },
	{
		Client: null,
		Contacts: ['Acme Ltd', null],
		Started: null,
		Owner: null,
		Plain: null,
	},
];
const expectedDisplay = () =>
	SIMPLIFIED.map((d, i) => (i === 0 ? { ...d, Plain: ids.bob } : d)) as IDataObject[];

/** The reads of referenced rows (POST /sql … json_each), not the polling trigger's idle check. */
const sqlCalls = () =>
	emu.log.filter(
		(e) =>
			e.method === 'POST' &&
			e.apiPath.endsWith('/sql') &&
			JSON.stringify(e.body).includes('json_each'),
	);
const columnReads = (table: string) =>
	emu.log.filter((e) => e.method === 'GET' && e.apiPath.endsWith(`/tables/${table}/columns`));
const display = (out: INodeExecutionData[]) => out.map((o) => o.json._display);

const getMany = async (
	tableId: string,
	extra: IDataObject = {},
	run: { input?: INodeExecutionData[]; continueOnFail?: boolean } = {},
) =>
	await runNode({
		node: new Grist(),
		parameters: {
			resource: 'record',
			operation: 'getAll',
			...docTable(docId, tableId),
			returnAll: true,
			options: { referenceDisplay: true },
			...extra,
		},
		credentials: { apiKey: KEY, url: emu.url },
		...run,
	});

describe('Record → Get Many', () => {
	it('adds _display: one read of each referenced table for three columns to Clients and one to People', async () => {
		const tableId = newDeals();
		emu.addRecords(docId, tableId, dealRows());
		emu.clearLog();
		const { items: out, error } = await getMany(tableId);
		expect(error).toBeUndefined();
		expect(display(out)).toEqual(expectedDisplay());
		// the fields themselves are unchanged
		expect(out[0].json).toMatchObject({ Title: 'full', Client: ids.acme, Plain: ids.bob });
		expect(out[2].json.Client).toBe(DANGLING);
		// one /sql per referenced table, one GET of each table's columns
		expect(sqlCalls()).toHaveLength(2);
		expect(columnReads('Clients')).toHaveLength(1);
		expect(columnReads('People')).toHaveLength(1);
		expect(sqlCalls().map((e) => (e.body as { sql: string }).sql)).toEqual([
			'SELECT "id", "Name", "Since" FROM "Clients" WHERE id IN (SELECT value FROM json_each(?))',
			'SELECT "id", "Email" FROM "People" WHERE id IN (SELECT value FROM json_each(?))',
		]);
	});

	it('is off by default: no _display and no reads of other tables', async () => {
		const tableId = newDeals();
		emu.addRecords(docId, tableId, dealRows());
		emu.clearLog();
		const { items: out } = await getMany(tableId, { options: {} });
		expect(out.map((o) => '_display' in o.json)).toEqual([false, false, false]);
		expect(sqlCalls()).toHaveLength(0);
		expect(columnReads('Clients')).toHaveLength(0);
	});

	it('with Simplify off puts _display next to fields, cells as Grist gives them', async () => {
		const tableId = newDeals();
		emu.addRecords(docId, tableId, dealRows());
		const { items: out } = await getMany(tableId, { simplify: false });
		expect(out[0].json.fields).toMatchObject({ Client: ids.acme });
		expect(out[0].json._display).toEqual({ ...expectedDisplay()[0], Started: FEB_1_2024 });
		expect(out[2].json._display).toEqual(expectedDisplay()[2]);
	});

	it('reads the IDs once per execution: a second input item asks for nothing more; paired items kept', async () => {
		const tableId = newDeals();
		emu.addRecords(docId, tableId, dealRows());
		emu.clearLog();
		const { items: out } = await getMany(tableId, {}, { input: items([{ a: 1 }, { a: 2 }]) });
		expect(out).toHaveLength(6);
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 0, 0, 1, 1, 1]);
		expect(display(out)).toEqual([...expectedDisplay(), ...expectedDisplay()]);
		expect(sqlCalls()).toHaveLength(2);
	});

	it('where /sql is refused (403) reads the referenced rows by id from /records', async () => {
		const tableId = newDeals();
		emu.addRecords(docId, tableId, dealRows());
		emu.clearLog();
		emu.fault({ method: 'POST', path: /\/sql$/, status: 403, times: 1 });
		const { items: out, error } = await getMany(tableId);
		expect(error).toBeUndefined();
		expect(display(out)).toEqual(expectedDisplay());
		// the refusal is remembered for the document: People is read from /records at once
		expect(emu.log.filter((e) => e.apiPath.endsWith('/sql'))).toHaveLength(1);
		const filtered = emu.log.filter((e) => e.method === 'GET' && e.query.filter !== undefined);
		expect(filtered.map((e) => e.apiPath.split('/').slice(-2)[0]).sort()).toEqual([
			'Clients',
			'People',
		]);
	});

	it('a failed read fails the item; with Continue On Fail only its error item is output', async () => {
		const tableId = newDeals();
		emu.addRecords(docId, tableId, dealRows());
		emu.fault({ method: 'POST', path: /\/sql$/, status: 500, times: 10 });
		const { items: out } = await getMany(tableId, {}, { continueOnFail: true });
		emu.clearFaults();
		expect(out).toHaveLength(1);
		expect(out[0].json.error).toBeDefined();
		expect(out[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Grist Trigger', () => {
	it('emits new records with _display; the sample (manual) has it too', async () => {
		const tableId = newDeals();
		const poller = createPoller({
			node: new GristTrigger(),
			parameters: {
				...docTable(docId, tableId),
				event: 'rowAdded',
				options: { referenceDisplay: true },
			},
			credentials: { apiKey: KEY, url: emu.url },
		});
		expect(await poller.poll('trigger')).toBeNull(); // baseline
		emu.addRecords(docId, tableId, dealRows());
		// Past the idle check, as if the document's updatedAt had moved: a real Grist pushes it up
		// to 60 s after the write (the check has its own tests in trigger-changes.test.ts).
		delete poller.nodeStaticData.updatedAt;
		emu.clearLog();
		const result = await poller.poll('trigger');
		expect(result?.[0].map((i) => i.json._display)).toEqual(expectedDisplay());
		expect(sqlCalls()).toHaveLength(2);
		expect(columnReads('Clients')).toHaveLength(1);

		const sample = await poller.poll('manual');
		expect(sample?.[0].map((i) => i.json._display)).toEqual([expectedDisplay()[2]]);
	});
});

describe('Grist Instant Trigger', () => {
	function instant(tableId: string): WebhookTrigger {
		current = createWebhookTrigger({
			node: new GristWebhookTrigger(),
			parameters: {
				...docTable(docId, tableId),
				event: 'add',
				options: { referenceDisplay: true },
			},
			credentials: { gristRecordsApi: { apiKey: KEY, url: emu.url } },
			baseUrl: bridge.baseUrl,
		});
		return current;
	}
	const deliver = async (tableId: string) => {
		bridge.results.length = 0;
		const added = await api.post(`/api/docs/${docId}/tables/${tableId}/records`, {
			records: dealRows().map((fields) => ({ fields })),
		});
		expect(added.status).toBe(200);
		await emu.webhooks.idle();
		return deliveredJson(bridge.results).flat();
	};

	it('delivers records with _display', async () => {
		const tableId = newDeals();
		const t = instant(tableId);
		await t.activate();
		try {
			const started = await deliver(tableId);
			expect(started.map((j) => j._display)).toEqual(expectedDisplay());
			expect(started[0]).toMatchObject({ Title: 'full', Client: ids.acme });
		} finally {
			await t.deactivate();
		}
	});

	it('a failed read still starts the workflow, without _display (Grist would resend an error answer)', async () => {
		const tableId = newDeals();
		const t = instant(tableId);
		await t.activate();
		try {
			emu.fault({ method: 'POST', path: /\/sql$/, status: 500, times: 20 });
			const started = await deliver(tableId);
			emu.clearFaults();
			expect(started.map((j) => j.Title)).toEqual(['full', 'empty', 'dangling']);
			expect(started.map((j) => '_display' in j)).toEqual([false, false, false]);
			expect(bridge.results.every((r) => r.status === 200)).toBe(true);
		} finally {
			emu.clearFaults();
			await t.deactivate();
		}
	});
});
