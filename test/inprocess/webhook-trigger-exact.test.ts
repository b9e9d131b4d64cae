/**
 * Grist Instant Trigger with Changes: Exact, from the Document's History, run by n8n-core's
 * HookContext / WebhookContext (test/harness/inprocess/webhook.ts) against the emulator, with
 * deliveries through a stand-in for n8n's webhook endpoint that saves static data as n8n 2.41
 * does (only after a call that starts no execution, every delivery on a workflow loaded afresh):
 * updates with previous values, a delete followed by an add, a bulk update above Grist's 10-row
 * value cap, deliveries lost while n8n was down caught up once, a repeated delivery and two that
 * meet emitting nothing twice, the state gone from history, and the requests per delivery.
 * Against a real Grist (`npm run test:real`) the same cases run: it delivers to the stand-in.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { docTable } from '../harness/builders';
import { deliveredJson } from '../harness/emitted';
import {
	createWebhookTrigger,
	serveWebhooks,
	type WebhookTrigger,
} from '../harness/inprocess/webhook';

const OWNER_KEY = `owner-${randomUUID()}`;
const NODE = 'node:Grist Instant Trigger';
let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
let bridge: Awaited<ReturnType<typeof serveWebhooks>>;
let current: WebhookTrigger | undefined;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator({ allowedWebhookDomains: '*', webhookRetryDelaysMs: [20, 40] });
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: OWNER_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	const ws = emu.addWorkspace(org.id, 'Main');
	docId = emu.addDoc(ws.id, { name: 'Exact hooks' }).id;
	api = client(emu, OWNER_KEY);
	bridge = await serveWebhooks(() => {
		if (!current) throw new Error('n8n is down');
		return current;
	});
});
afterAll(async () => {
	await bridge?.close();
	await emu?.close();
});
beforeEach(() => {
	emu.webhooks.configure({ allowedDomains: '*' });
	bridge.results.length = 0;
});

function newTable(): string {
	tableSeq += 1;
	const tableId = `Exact${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'N', type: 'Numeric' },
	]);
	return tableId;
}

function trigger(tableId: string, params: IDataObject = {}): WebhookTrigger {
	current = createWebhookTrigger({
		node: new GristWebhookTrigger(),
		parameters: { ...docTable(docId, tableId), changes: 'exact', event: 'anyChange', ...params },
		credentials: { gristRecordsApi: { apiKey: OWNER_KEY, url: emu.url } },
		baseUrl: bridge.baseUrl,
		webhookProcess: true,
	});
	return current;
}

const records = (tableId: string) => `/api/docs/${docId}/tables/${tableId}/records`;
async function add(tableId: string, rows: IDataObject[]): Promise<number[]> {
	const r = await api.post<{ records: Array<{ id: number }> }>(records(tableId), {
		records: rows.map((fields) => ({ fields })),
	});
	expect(r.status).toBe(200);
	await emu.webhooks.idle();
	return r.json.records.map((x) => x.id);
}
async function update(tableId: string, rows: Array<{ id: number; fields: IDataObject }>) {
	expect((await api.patch(records(tableId), { records: rows })).status).toBe(200);
	await emu.webhooks.idle();
}
async function remove(tableId: string, ids: number[]) {
	expect((await api.post(`${records(tableId)}/delete`, ids)).status).toBe(200);
	await emu.webhooks.idle();
}
const emitted = () => deliveredJson(bridge.results);
async function newestState(): Promise<string> {
	const r = await api.get<{ states: Array<{ h: string }> }>(`/api/docs/${docId}/states`);
	return r.json.states[0].h;
}
/** The requests made in the document since the log was cleared, as `METHOD path`. */
const docCalls = () =>
	emu.log
		.filter((e) => e.apiPath.startsWith(`/api/docs/${docId}/`))
		.map((e) => `${e.method} ${e.apiPath.replace(`/api/docs/${docId}/`, '')}`);
const savedState = (t: WebhookTrigger) =>
	(t.savedStaticData[NODE] as { changes?: { h: string } }).changes;

test('added, updated with previous values, a delete followed by an add; the state saved with each delivery', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	emu.clearLog();
	expect(await t.activate()).toBe('created');
	// activation: the As Sent requests, and the newest history state
	expect(docCalls()).toEqual([
		'GET webhooks',
		'POST webhooks',
		`GET tables/${tableId}/columns`,
		'GET states',
	]);
	expect(savedState(t)?.h).toBe(await newestState());

	const [a, b] = await add(tableId, [
		{ Name: 'a', N: 1 },
		{ Name: 'b', N: 7 },
	]);
	await update(tableId, [{ id: a, fields: { N: 2 } }]);
	// the deletion wakes nothing; it arrives with the next added row
	await remove(tableId, [b]);
	expect(emitted()).toHaveLength(2);
	const [c] = await add(tableId, [{ Name: 'c', N: 5 }]);
	expect(c).toBe(b); // Grist hands the deleted last row's ID out again
	expect(emitted()).toEqual([
		[
			{ id: a, Name: 'a', N: 1, _change: { type: 'added' } },
			{ id: b, Name: 'b', N: 7, _change: { type: 'added' } },
		],
		[
			{
				id: a,
				Name: 'a',
				N: 2,
				_change: { type: 'updated', previous: { N: 1 }, changedColumns: ['N'] },
			},
		],
		[
			{ id: b, Name: 'b', N: 7, _change: { type: 'deleted' } },
			{ id: c, Name: 'c', N: 5, _change: { type: 'added' } },
		],
	]);
	expect(savedState(t)?.h).toBe(await newestState());
	const hooks = emu.webhooks.list(docId);
	// the state saves started nothing
	const saves = bridge.results.filter((r) => !r.result.workflowData);
	expect(saves.map((r) => r.body)).toEqual([{ saved: true }, { saved: true }, { saved: true }]);
	emu.clearLog();
	await t.deactivate();
	expect(docCalls()).toEqual([`DELETE webhooks/${String((hooks[0] as { id: string }).id)}`]);
	expect(savedState(t)).toBeUndefined();
});

test('a bulk update above the 10-row value cap: every row with its previous value; 2 requests per delivery', async () => {
	const tableId = newTable();
	const t = trigger(tableId, { event: 'addOrUpdate' });
	await t.activate();
	const ids = await add(
		tableId,
		Array.from({ length: 15 }, (_, i) => ({ Name: `r${i}`, N: i })),
	);
	expect(emitted()).toHaveLength(1);
	bridge.results.length = 0;
	emu.clearLog();
	await update(
		tableId,
		ids.map((id, i) => ({ id, fields: { N: 100 + i } })),
	);
	const [items] = emitted();
	expect(items).toHaveLength(15);
	expect(items.map((i) => [i.id, i.N, (i._change as IDataObject).previous])).toEqual(
		ids.map((id, i) => [id, 100 + i, { N: i }]),
	);
	// Grist's requests for the delivery: /compare and the rows read (column types: at activation)
	const calls = emu.log.filter((e) => e.method === 'GET' && e.apiPath.includes(`/docs/${docId}/`));
	expect(calls.map((e) => e.apiPath.replace(`/api/docs/${docId}/`, ''))).toEqual([
		'compare',
		`tables/${tableId}/records`,
	]);
	await t.deactivate();
});

test('n8n down while rows change, deliveries dropped: the next delivery emits every change once', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	await t.activate();
	const [a] = await add(tableId, [{ Name: 'before' }]);
	current = undefined; // n8n stops: Grist's deliveries fail
	expect(
		(await api.post(records(tableId), { records: [{ fields: { Name: 'while down' } }] })).status,
	).toBe(200);
	expect(
		(
			await api.patch(records(tableId), {
				records: [{ id: a, fields: { Name: 'edited while down' } }],
			})
		).status,
	).toBe(200);
	// Grist without Redis drops the queue (e.g. the document closes)
	expect((await api.del(`/api/docs/${docId}/webhooks/queue`)).status).toBe(200);
	await emu.webhooks.idle();
	current = t;
	expect(await t.restart()).toBe('existed');
	const [later] = await add(tableId, [{ Name: 'after restart' }]);
	const names = emitted().map((items) =>
		items.map((i) => [i.Name, (i._change as IDataObject).type]),
	);
	expect(names).toEqual([
		[['before', 'added']],
		[
			['edited while down', 'updated'],
			['while down', 'added'],
			['after restart', 'added'],
		],
	]);
	expect(emitted()[1].map((i) => i.id)).toEqual([a, a + 1, later]);
	await t.deactivate();
});

test('a repeated delivery and two deliveries that meet emit no row twice', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	await t.activate();
	await add(tableId, [{ Name: 'once' }]);
	const [first] = bridge.results.filter((r) => r.result.workflowData);
	expect(emitted()).toHaveLength(1);
	const secret = (t.savedStaticData[NODE] as { secret: string }).secret;
	const body = [{ id: 1, manualSort: 1, Name: 'once', N: 0 }];
	const repeat = { headers: { authorization: `Bearer ${secret}` }, body };
	// Grist sends the same batch again (its answer was lost): nothing starts
	const again = await t.receive(repeat);
	expect(again.result.workflowData).toBeUndefined();
	expect(again.body).toEqual({ received: true, records: 0 });
	// a new change, then two deliveries at once: its row once
	current = undefined;
	expect(
		(await api.post(records(tableId), { records: [{ fields: { Name: 'twice?' } }] })).status,
	).toBe(200);
	await api.del(`/api/docs/${docId}/webhooks/queue`);
	current = t;
	const both = await Promise.all([t.receive(repeat), t.receive(repeat)]);
	const rows = both.flatMap((r) => r.result.workflowData?.[0].map((i) => i.json.Name) ?? []);
	expect(rows).toEqual(['twice?']);
	expect(first.status).toBe(200);
	await t.deactivate();
});

test('the saved state gone from history: the delivered rows, marked as from the delivery alone, then exact again', async () => {
	const tableId = newTable();
	const t = trigger(tableId, { event: 'addOrUpdate' });
	await t.activate();
	current = undefined;
	expect(
		(await api.post(records(tableId), { records: [{ fields: { Name: 'lost' } }] })).status,
	).toBe(200);
	await api.del(`/api/docs/${docId}/webhooks/queue`);
	// Grist prunes its history past the saved state
	expect((await api.post(`/api/docs/${docId}/states/remove`, { keep: 1 })).status).toBe(200);
	current = t;
	const [b] = await add(tableId, [{ Name: 'delivered' }]);
	const [c] = await add(tableId, [{ Name: 'next' }]);
	expect(emitted()).toEqual([
		[
			{
				id: b,
				Name: 'delivered',
				N: 0,
				_change: { type: 'addedOrUpdated', fromDeliveryOnly: true },
			},
		],
		[{ id: c, Name: 'next', N: 0, _change: { type: 'added' } }],
	]);
	await t.deactivate();
});

test('Row Added, Updated or Deleted needs Changes: Exact, before any request', async () => {
	const tableId = newTable();
	await expect(trigger(tableId, { changes: 'asSent' }).activate()).rejects.toThrow(
		/Row Added, Updated or Deleted" needs Changes: Exact/,
	);
	expect(emu.webhooks.list(docId)).toEqual([]);
});
