/**
 * Grist Instant Trigger (webhooks) run by n8n-core's HookContext / WebhookContext
 * (test/harness/inprocess/webhook.ts) against the emulator: activation registers one webhook,
 * restarts reuse it, deactivation and "Listen for test event" leave nothing behind, changed
 * settings replace it; deliveries from the emulator arrive through a stand-in for n8n's webhook
 * endpoint, one item per record; requests without the secret get 401; malformed bodies are
 * answered 2xx; activation errors say what to change. Grist's webhooks are listed after each case.
 * Against a real Grist (`npm run test:real`) the same cases run: it delivers to the stand-in, and
 * the facade's `webhooks.list` / `idle` read its GET /webhooks.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { docTable, oauth2Credential } from '../harness/builders';
import { deliveredJson } from '../harness/emitted';
import { ensureRuntime } from '../harness/inprocess';
import {
	createWebhookTrigger,
	serveWebhooks,
	type DeliveryResult,
	type WebhookTrigger,
} from '../harness/inprocess/webhook';
import { emulatorOnly } from '../harness/target';

const OWNER_KEY = `owner-${randomUUID()}`;
const EDITOR_KEY = `editor-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let doc2Id: string;
let api: ReturnType<typeof client>;
let bridge: Awaited<ReturnType<typeof serveWebhooks>>;
let current: WebhookTrigger | undefined;
let tableSeq = 0;
let ownerId: number;

beforeAll(async () => {
	emu = await startEmulator({ allowedWebhookDomains: '*', webhookRetryDelaysMs: [20, 40] });
	ownerId = emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: OWNER_KEY }).id;
	emu.addUser({ email: 'editor@example.com', name: 'Editor', apiKey: EDITOR_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	emu.setAccess('org', org.id, 'editor@example.com', 'editors');
	const ws = emu.addWorkspace(org.id, 'Main');
	docId = emu.addDoc(ws.id, { name: 'Hooks' }).id;
	doc2Id = emu.addDoc(ws.id, { name: 'Hooks 2' }).id;
	emu.addTable(doc2Id, 'Other', [{ id: 'Name', type: 'Text' }]);
	api = client(emu, OWNER_KEY);
	bridge = await serveWebhooks(() => {
		if (!current) throw new Error('no trigger');
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
	const tableId = `Items${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Due', type: 'Date' },
		{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['a', 'b'] } },
		{ id: 'Ready', type: 'Bool' },
		{ id: 'N', type: 'Numeric' },
	]);
	return tableId;
}

function trigger(tableId: string, params: IDataObject = {}, key = OWNER_KEY): WebhookTrigger {
	current = createWebhookTrigger({
		node: new GristWebhookTrigger(),
		parameters: {
			...docTable(docId, tableId),
			event: 'addOrUpdate',
			...params,
		},
		credentials: { gristRecordsApi: { apiKey: key, url: emu.url } },
		baseUrl: bridge.baseUrl,
	});
	return current;
}

const hooksOf = (d = docId) => emu.webhooks.list(d);
const add = async (tableId: string, rows: IDataObject[]) => {
	const r = await api.post<{ records: Array<{ id: number }> }>(
		`/api/docs/${docId}/tables/${tableId}/records`,
		{ records: rows.map((fields) => ({ fields })) },
	);
	expect(r.status).toBe(200);
	return r.json.records.map((x) => x.id);
};
const update = async (tableId: string, id: number, fields: IDataObject) =>
	expect(
		(await api.patch(`/api/docs/${docId}/tables/${tableId}/records`, { records: [{ id, fields }] }))
			.status,
	).toBe(200);
const started = () => deliveredJson(bridge.results);

test('activation registers one webhook with a secret; deliveries arrive once, simplified; deactivation removes it', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	expect(await t.activate()).toBe('created');
	const hooks = hooksOf();
	expect(hooks).toHaveLength(1);
	expect(hooks[0]).toMatchObject({
		url: t.url(),
		eventTypes: ['add', 'update'],
		isReadyColumn: null,
		watchedColIds: [],
		enabled: true,
	});
	const stored = t.savedStaticData['node:Grist Instant Trigger'] as IDataObject;
	expect(stored.webhookId).toBe(hooks[0].id);
	expect(hooks[0].authorization).toBe(`Bearer ${stored.secret}`);
	expect(String(stored.secret)).toMatch(/^[0-9a-f]{64}$/);

	emu.clearLog();
	const [a, b] = await add(tableId, [
		{ Name: 'a', Due: 1700000000, Tags: ['L', 'a', 'b'] },
		{ Name: 'b' },
	]);
	await emu.webhooks.idle();
	await update(tableId, a, { N: 3 });
	await emu.webhooks.idle();
	// Row Added or Updated as sent: Grist's delivery does not say which of the two a row is
	const sent = { type: 'addedOrUpdated' };
	expect(started()).toEqual([
		[
			{ id: a, Name: 'a', Due: '2023-11-14', Tags: ['a', 'b'], Ready: false, N: 0, _change: sent },
			{ id: b, Name: 'b', Due: null, Tags: null, Ready: false, N: 0, _change: sent },
		],
		[{ id: a, Name: 'a', Due: '2023-11-14', Tags: ['a', 'b'], Ready: false, N: 3, _change: sent }],
	]);
	expect(bridge.results.every((r) => r.status === 200)).toBe(true);
	// column types were read at activation, not per delivery
	expect(emu.log.filter((e) => e.apiPath.endsWith('/columns'))).toEqual([]);

	await t.deactivate();
	expect(hooksOf()).toEqual([]);
	expect(t.savedStaticData['node:Grist Instant Trigger']).toEqual({});
	// deleting again (already gone) is fine
	await t.deactivate();
});

test('a restart with the workflow active reuses the registration; a lost one is made again', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	await t.activate();
	const id = hooksOf()[0].id;
	emu.clearLog();
	expect(await t.restart()).toBe('existed');
	expect(hooksOf().map((h) => h.id)).toEqual([id]);
	expect(emu.log.filter((e) => e.method === 'POST' && e.apiPath.endsWith('/webhooks'))).toEqual([]);
	// deliveries still authenticate after the restart
	await add(tableId, [{ Name: 'after restart' }]);
	await emu.webhooks.idle();
	expect(started().map((items) => items.map((i) => i.Name))).toEqual([['after restart']]);
	// removed in Grist meanwhile: the restart registers it again
	await api.del(`/api/docs/${docId}/webhooks/${id}`);
	expect(await t.restart()).toBe('created');
	expect(hooksOf()).toHaveLength(1);
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
});

test('static data lost: checkExists adopts the registration with the same URL and settings, removes duplicates', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	await t.activate();
	await t.activate(); // nothing new
	expect(hooksOf()).toHaveLength(1);
	// a second registration with the same URL (e.g. from a crash between create and save)
	await api.post(`/api/docs/${docId}/webhooks`, {
		webhooks: [
			{
				fields: {
					url: t.url(),
					eventTypes: ['add'],
					tableId,
					authorization: 'Bearer stale',
				},
			},
		],
	});
	const fresh = trigger(tableId); // no static data
	expect(await fresh.activate()).toBe('existed');
	expect(hooksOf()).toHaveLength(1);
	await fresh.deactivate();
	expect(hooksOf()).toEqual([]);
});

test('changing event, options, table or document replaces the registration', async () => {
	const tableId = newTable();
	const other = newTable();
	const t = trigger(tableId);
	await t.activate();
	const first = hooksOf()[0].id;
	// n8n saves an edited active workflow: deactivate with the old settings, activate the new ones
	await t.deactivate();
	t.setParameters({
		...docTable(docId, tableId),
		event: 'update',
		options: { readyColumn: 'Ready', watchedColumns: ['N'] },
	});
	expect(await t.activate()).toBe('created');
	expect(
		hooksOf().map((h) => [h.id === first, h.eventTypes, h.isReadyColumn, h.watchedColIds]),
	).toEqual([[false, ['update'], 'Ready', ['N']]]);
	// settings changed without a deactivation (e.g. an import): the stale one is replaced, not kept
	t.setParameters({
		...docTable(docId, other),
		event: 'add',
	});
	expect(await t.activate()).toBe('created');
	expect(hooksOf().map((h) => h.eventTypes)).toEqual([['add']]);
	// another document: the registration in the first one goes
	t.setParameters({
		...docTable(doc2Id, 'Other'),
		event: 'add',
	});
	expect(await t.activate()).toBe('created');
	expect(hooksOf()).toEqual([]);
	expect(hooksOf(doc2Id)).toHaveLength(1);
	await t.deactivate();
	expect(hooksOf(doc2Id)).toEqual([]);
});

test('Listen for test event registers the test URL and removes it afterwards', async () => {
	const tableId = newTable();
	const t = trigger(tableId, { event: 'add' });
	await t.activate();
	expect(await t.listen()).toBe('created');
	expect(
		hooksOf()
			.map((h) => h.url)
			.sort(),
	).toEqual([t.url(), t.url(true)].sort());
	await add(tableId, [{ Name: 'x' }]);
	await emu.webhooks.idle();
	expect(started().map((items) => items.map((i) => i.Name))).toEqual([['x'], ['x']]);
	await t.stopListening();
	expect(hooksOf().map((h) => h.url)).toEqual([t.url()]);
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
});

test('Ready Column: only ticked rows; ticking counts as added', async () => {
	const tableId = newTable();
	const t = trigger(tableId, { event: 'add', options: { readyColumn: 'Ready' } });
	await t.activate();
	const [a] = await add(tableId, [{ Name: 'draft', Ready: false }]);
	await update(tableId, a, { Name: 'draft 2' });
	await update(tableId, a, { Ready: true });
	await emu.webhooks.idle();
	expect(started().map((items) => items.map((i) => [i.id, i.Name, i.Ready]))).toEqual([
		[[a, 'draft 2', true]],
	]);
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
});

test('webhook(): no or wrong secret is 401 and starts nothing; malformed bodies are answered 2xx and logged; Simplify off passes cells as sent', async () => {
	const runtime = await ensureRuntime();
	const tableId = newTable();
	const t = trigger(tableId, { simplify: false });
	await t.activate();
	const secret = String((t.savedStaticData['node:Grist Instant Trigger'] as IDataObject).secret);
	const record = { id: 1, manualSort: 1, Name: 'a', Due: 1700000000, Tags: ['L', 'a'] };
	let r: DeliveryResult = await t.receive({ body: [record] });
	expect([r.status, r.result.workflowData]).toEqual([401, undefined]);
	r = await t.receive({ headers: { Authorization: 'Bearer nope' }, body: [record] });
	expect([r.status, r.result.workflowData]).toEqual([401, undefined]);
	r = await t.receive({ headers: { Authorization: secret }, body: [record] });
	expect(r.status).toBe(401);
	const auth = { Authorization: `Bearer ${secret}` };
	r = await t.receive({ headers: auth, body: [record] });
	expect(r.status).toBe(200);
	expect(r.result.workflowData![0].map((i) => i.json)).toEqual([
		{ ...record, _change: { type: 'addedOrUpdated' } },
	]);
	const before = runtime.logger.entries.length;
	for (const body of [{ not: 'an array' }, [{ Name: 'no id' }], ['x']]) {
		r = await t.receive({ headers: auth, body });
		expect(r.status).toBe(200);
		expect(r.result.workflowData).toBeUndefined();
	}
	const warnings = runtime.logger.entries.slice(before).filter((e) => e.level === 'warn');
	expect(warnings.map((w) => w.message)).toEqual([
		"Grist Instant Trigger: ignored a delivery that is not Grist's: the body is not a JSON array of records",
		"Grist Instant Trigger: ignored a delivery that is not Grist's: record 1 has no numeric id",
		"Grist Instant Trigger: ignored a delivery that is not Grist's: record 1 is not an object",
	]);
	// the secret is in no log line, answer or output
	const everything = JSON.stringify([runtime.logger.entries, bridge.results]);
	expect(everything).not.toContain(secret);
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
});

test('a column added after activation: its types are read again once, then not per delivery', async () => {
	const tableId = newTable();
	const t = trigger(tableId);
	await t.activate();
	await api.post(`/api/docs/${docId}/tables/${tableId}/columns`, {
		columns: [{ id: 'When', fields: { type: 'Date', isFormula: false } }],
	});
	emu.clearLog();
	await add(tableId, [{ Name: 'a', When: 1700000000 }]);
	await emu.webhooks.idle();
	await add(tableId, [{ Name: 'b', When: 1700086400 }]);
	await emu.webhooks.idle();
	expect(started().map((items) => items.map((i) => i.When))).toEqual([
		['2023-11-14'],
		['2023-11-15'],
	]);
	expect(emu.log.filter((e) => e.apiPath.endsWith('/columns')).map((e) => e.method)).toEqual([
		'GET',
	]);
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
});

test("queue mode's webhook process (a fresh workflow per delivery, webhook()'s static data not saved): a later column's types are read once per process, the secret and output hold", async () => {
	const tableId = newTable();
	const t = (current = createWebhookTrigger({
		node: new GristWebhookTrigger(),
		parameters: {
			...docTable(docId, tableId),
			event: 'addOrUpdate',
		},
		credentials: { gristRecordsApi: { apiKey: OWNER_KEY, url: emu.url } },
		baseUrl: bridge.baseUrl,
		webhookProcess: true,
	}));
	await t.activate();
	const savedAtActivation = t.savedStaticData;
	await api.post(`/api/docs/${docId}/tables/${tableId}/columns`, {
		columns: [{ id: 'When', fields: { type: 'Date', isFormula: false } }],
	});
	emu.clearLog();
	const [a] = await add(tableId, [{ Name: 'a', When: 1700000000 }]);
	await emu.webhooks.idle();
	await update(tableId, a, { When: 1700086400 });
	await emu.webhooks.idle();
	await add(tableId, [{ Name: 'c', Due: 1704844800, When: 1700172800 }]);
	await emu.webhooks.idle();
	expect(started().map((items) => items.map((i) => [i.Name, i.Due, i.When]))).toEqual([
		[['a', null, '2023-11-14']],
		[['a', null, '2023-11-15']],
		[['c', '2024-01-10', '2023-11-16']],
	]);
	expect(bridge.results.map((r) => r.status)).toEqual([200, 200, 200]);
	// read once for the three deliveries, although nothing webhook() does is saved
	expect(emu.log.filter((e) => e.apiPath.endsWith('/columns')).map((e) => e.method)).toEqual([
		'GET',
	]);
	expect(t.savedStaticData).toEqual(savedAtActivation);
	expect(
		(await t.receive({ headers: { Authorization: 'Bearer forged' }, body: [{ id: a }] })).status,
	).toBe(401);
	// a new registration (re-activation) reads the table's columns, the new one included
	await t.deactivate();
	await t.activate();
	const stored = t.savedStaticData['node:Grist Instant Trigger'] as IDataObject;
	expect(stored.columnTypes).toMatchObject({ When: 'Date' });
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
});

describe('activation errors say what to change', () => {
	emulatorOnly(
		'ALLOWED_WEBHOOK_DOMAINS is the real server’s own setting (`*` for test:real); the emulator’s is a switch',
	).test('Provided url is forbidden: ALLOWED_WEBHOOK_DOMAINS on the Grist server', async () => {
		emu.webhooks.configure({ allowedDomains: 'example.com' });
		const t = trigger(newTable());
		const error = await t.activate().then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe('Provided url is forbidden');
		expect(error?.description).toMatch(/set ALLOWED_WEBHOOK_DOMAINS to include localhost/);
		expect(hooksOf()).toEqual([]);
	});

	test('No owner access: webhooks need the document owner', async () => {
		const t = trigger(newTable(), {}, EDITOR_KEY);
		const error = await t.activate().then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe('No owner access');
		expect(error?.description).toMatch(/only owners of a document manage its webhooks/);
		expect(hooksOf()).toEqual([]);
	});

	test('getgrist.com cannot reach a local n8n: before any request', async () => {
		current = createWebhookTrigger({
			node: new GristWebhookTrigger(),
			parameters: {
				...docTable(docId, 'Anything'),
			},
			credentials: { gristRecordsApi: { apiKey: OWNER_KEY, url: 'https://docs.getgrist.com' } },
		});
		const error = await current.activate().then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe(
			'getgrist.com cannot reach this n8n: its webhook URL http://127.0.0.1:5678 is a local address',
		);
		expect(error?.description).toMatch(
			/WEBHOOK_URL to a public https address.*Grist Trigger \(polling\)/,
		);
	});

	emulatorOnly('the OAuth2 token is issued by the emulator’s OAuth server (emu.oauth)').test(
		'OAuth2: a credential without doc:webhooks is stopped before any request; with it, it works',
		async () => {
			const app = emu.oauth.registerApp({
				redirectUris: ['http://localhost:5678/rest/oauth2-credential/callback'],
			});
			const oauthTrigger = (scopes: string[]) => {
				const token = emu.oauth.issue({ userId: ownerId, clientId: app.clientId, scopes });
				current = createWebhookTrigger({
					node: new GristWebhookTrigger(),
					parameters: {
						authentication: 'oAuth2',
						...docTable(docId, newTable()),
					},
					credentials: oauth2Credential(`${emu.url}/o/team`, app, token),
					baseUrl: bridge.baseUrl,
				});
				return current;
			};
			emu.clearLog();
			const error = await oauthTrigger(['offline_access', 'doc:read', 'doc:write'])
				.activate()
				.then(
					() => undefined,
					(e: Error & { description?: string }) => e,
				);
			expect(error?.message).toBe('This OAuth2 connection lacks the Grist scope doc:webhooks');
			expect(error?.description).toMatch(/Additional Scopes/);
			expect(emu.log.filter((e) => e.apiPath.includes('/webhooks'))).toEqual([]);
			expect(hooksOf()).toEqual([]);

			const t = oauthTrigger(['offline_access', 'doc:read', 'doc:write', 'doc:webhooks']);
			expect(await t.activate()).toBe('created');
			expect(hooksOf()).toHaveLength(1);
			await t.deactivate();
			expect(hooksOf()).toEqual([]);
		},
	);
});
