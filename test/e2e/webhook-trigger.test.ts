/**
 * Grist Instant Trigger in a real n8n 2.41.1 (the packed package, installed as a community
 * package) against the Grist emulator, which POSTs its webhook deliveries to n8n's production
 * webhook URL (`ALLOWED_WEBHOOK_DOMAINS=*` in the emulator: n8n listens on http://127.0.0.1):
 * activation registers one webhook; inserted and updated rows each start the workflow once;
 * a forged request without the secret gets 401 and starts nothing; a restart of n8n with the
 * workflow active reuses the registration; deactivation removes it; the secret is not in n8n's log.
 * Against a real Grist (`npm run test:real`) the server POSTs to n8n's URL itself (it runs with
 * ALLOWED_WEBHOOK_DOMAINS='*'): the webhooks are read from GET /webhooks, and where the emulator
 * lets the test see its delivery queue, the test waits for the listing's `usage` instead.
 * With Filter and When: a workflow fires once when a row starts matching and once when
 * it stops; a condition changed while the workflow is active replaces the registration; each When
 * choice starts the workflow only for its change.
 */
import { randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import type { GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { docTable } from '../harness/builders';
import { chainWorkflow, type CredentialRef, type N8n, useN8nTeamDoc } from '../harness/e2e';
import { realGrist } from '../harness/target';
import { until } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
const WEBHOOK_ID = randomUUID();
const fx = useN8nTeamDoc({
	apiKey: USER_KEY,
	docName: 'Hooks doc',
	credential: 'Grist',
	emulator: { allowedWebhookDomains: '*', webhookRetryDelaysMs: [200, 400] },
	seed: (emu, docId) => {
		emu.addTable(docId, 'Tasks', [
			{ id: 'Name', type: 'Text' },
			{ id: 'Due', type: 'Date' },
			{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['a', 'b'] } },
		]);
		emu.addTable(docId, 'Approvals', [
			{ id: 'Name', type: 'Text' },
			{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Approved'] } },
		]);
	},
});
let emu: GristEmulator;
let n8n: N8n;
let cred: CredentialRef;
let docId: string;
let api: ReturnType<typeof client>;

beforeAll(() => {
	({ emu, n8n, cred, docId } = fx);
	api = client(emu, USER_KEY);
});

const NODE = 'Grist Instant Trigger';

function workflow(parameters: Record<string, unknown> = { ...docTable(docId, 'Tasks') }) {
	const wf = chainWorkflow([
		{
			name: NODE,
			type: 'n8n-nodes-grist.gristWebhookTrigger',
			parameters: { event: 'addOrUpdate', ...parameters },
			credentials: { gristRecordsApi: cred },
		},
	]);
	(wf.nodes[0] as unknown as { webhookId: string }).webhookId = WEBHOOK_ID;
	return wf;
}

/** `_change` of a row as Grist sent it, with Row Added or Updated (Grist does not say which). */
const sent = { type: 'addedOrUpdated' };
const productionUrl = () => `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
interface Hook {
	id: string;
	url: string;
	authorization: string;
	eventTypes: string[];
	usage: { numWaiting: number; status: string; lastHttpStatus?: number | null } | null;
}
/** The document's webhooks as GET /webhooks lists them (the emulator's and a real Grist's alike). */
async function hooks(): Promise<Hook[]> {
	const r = await api.get<{
		webhooks: Array<{
			id: string;
			fields: { url: string; authorization: string; eventTypes: string[] };
			usage: Hook['usage'];
		}>;
	}>(`/api/docs/${docId}/webhooks`);
	expect(r.status).toBe(200);
	return r.json.webhooks.map((h) => ({ id: h.id, ...h.fields, usage: h.usage }));
}

/** Waits until the document's webhooks have nothing left to deliver. */
async function deliveriesDone(): Promise<void> {
	if (!realGrist) return await emu.webhooks.idle();
	await until('Grist has delivered everything (no webhook waiting, each idle)', async () =>
		(await hooks()).every(
			(h) => !h.usage || (h.usage.numWaiting === 0 && h.usage.status === 'idle'),
		),
	);
}

async function addRows(rows: Array<Record<string, unknown>>, tableId = 'Tasks'): Promise<number[]> {
	const r = await api.post<{ records: Array<{ id: number }> }>(
		`/api/docs/${docId}/tables/${tableId}/records`,
		{ records: rows.map((fields) => ({ fields })) },
	);
	expect(r.status).toBe(200);
	return r.json.records.map((x) => x.id);
}

test('activate, rows arrive once each, forged requests start nothing, a restart reuses the webhook, deactivate removes it', async () => {
	const id = await n8n.createWorkflow(workflow());
	await n8n.activate(id);
	await until('the trigger registered a webhook in Grist', async () => (await hooks()).length > 0);
	await sleep(500); // a second registration would show up here
	expect((await hooks()).map((h) => h.url)).toEqual([productionUrl()]);
	const [registration] = await hooks();
	const secret = String(registration.authorization).replace(/^Bearer /, '');
	expect(secret).toMatch(/^[0-9a-f]{64}$/);

	// inserted rows: one execution, one item per record
	const [a, b] = await addRows([
		{ Name: 'first', Due: 1704844800, Tags: ['L', 'a'] },
		{ Name: 'second' },
	]);
	let runs = await n8n.waitForExecutions(id, 1);
	expect(runs[0].status).toBe('success');
	expect(runs[0].output(NODE)).toEqual([
		{ id: a, Name: 'first', Due: '2024-01-10', Tags: ['a'], _change: sent },
		{ id: b, Name: 'second', Due: null, Tags: null, _change: sent },
	]);
	// an update: one more execution with the changed record
	expect(
		(
			await api.patch(`/api/docs/${docId}/tables/Tasks/records`, {
				records: [{ id: b, fields: { Name: 'second, changed' } }],
			})
		).status,
	).toBe(200);
	runs = await n8n.waitForExecutions(id, 2);
	expect(runs[0].output(NODE)).toEqual([
		{ id: b, Name: 'second, changed', Due: null, Tags: null, _change: sent },
	]);
	await deliveriesDone();
	if (realGrist) expect((await hooks())[0].usage?.lastHttpStatus).toBe(200);
	else expect(emu.webhooks.deliveries.map((d) => d.status)).toEqual([200, 200]);

	// forged requests: 401, no execution
	const forged: Array<Record<string, string>> = [
		{ 'Content-Type': 'application/json' },
		{ 'Content-Type': 'application/json', Authorization: 'Bearer forged' },
	];
	for (const headers of forged) {
		const res = await fetch(productionUrl(), {
			method: 'POST',
			headers,
			body: JSON.stringify([{ id: 99, manualSort: 99, Name: 'forged' }]),
		});
		expect(res.status).toBe(401);
	}
	// a body that is not Grist's, with the secret: answered 2xx, nothing started
	const odd = await fetch(productionUrl(), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
		body: JSON.stringify({ hello: 'world' }),
	});
	expect(odd.status).toBe(200);
	await sleep(1500);
	expect(await n8n.executions(id)).toHaveLength(2);

	// n8n restarts with the workflow active: the same registration, no new POST /webhooks. n8n
	// 2.41.1 keeps a webhook it has stored across a restart without calling the node: at start-up
	// its workflow publication activates only triggers whose webhook it has not stored (no request
	// reaches Grist; checkExists is not called). So the registration is checked once the restarted
	// n8n has run the workflow for a new row, when its start-up activation is over.
	emu.clearLog();
	await n8n.restart();
	await addRows([{ Name: 'after restart' }]);
	runs = await n8n.waitForExecutions(id, 3);
	expect(runs[0].output(NODE).map((r) => r.Name)).toEqual(['after restart']);
	expect((await hooks()).map((h) => h.id)).toEqual([registration.id]);
	expect(emu.log.filter((e) => e.method === 'POST' && e.apiPath.endsWith('/webhooks'))).toEqual([]);

	// deactivation removes the webhook
	await n8n.deactivate(id);
	await until(
		'deactivation removed the webhook from Grist',
		async () => (await hooks()).length === 0,
	);
	expect(await hooks()).toEqual([]);
	await addRows([{ Name: 'while inactive' }]);
	await deliveriesDone();
	await sleep(500);
	expect(await n8n.executions(id)).toHaveLength(3);
	if (!realGrist) expect(emu.webhooks.queue(docId)).toEqual([]);

	expect(n8n.logs()).not.toContain(secret);
}, 180_000);

test('Listen for test event registers the test URL, runs on the next change and removes it', async () => {
	const id = await n8n.createWorkflow(workflow());
	const workflowData = await n8n.rest<Record<string, unknown>>('GET', `/workflows/${id}`);
	const started = await n8n.rest<{ waitingForWebhook?: boolean }>('POST', `/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: NODE },
	});
	expect(started.waitingForWebhook).toBe(true);
	await until('the trigger registered a webhook in Grist', async () => (await hooks()).length > 0);
	expect((await hooks()).map((h) => h.url)).toEqual([
		`${n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/webhook`,
	]);
	const [c] = await addRows([{ Name: 'test event' }]);
	const runs = await n8n.waitForExecutions(id, 1);
	expect(runs[0].output(NODE)).toEqual([
		{ id: c, Name: 'test event', Due: null, Tags: null, _change: { type: 'addedOrUpdated' } },
	]);
	// n8n stops listening after the test event: the test webhook is removed
	await until(
		'n8n removed the test webhook from Grist after the test event',
		async () => (await hooks()).length === 0,
	);
	expect(await hooks()).toEqual([]);
}, 120_000);

/** The instant trigger on Approvals, only for Status Approved, with `notifyWhen`. */
const approvedWorkflow = (notifyWhen: string) =>
	workflow({
		...docTable(docId, 'Approvals'),
		filterType: 'conditions',
		conditions: { conditions: [{ column: 'Status', match: 'equals', values: 'Approved' }] },
		notifyWhen,
	});

/** The When Grist stored for a webhook (GET /triggers; GET /webhooks never shows the condition). */
async function notifyWhenOf(webhookId: string): Promise<unknown> {
	const r = await api.get<{ records: Array<{ fields: { actions: string; condition: string } }> }>(
		`/api/docs/${docId}/triggers`,
	);
	const rec = r.json.records.find((x) => x.fields.actions.includes(webhookId));
	return rec?.fields.condition
		? (JSON.parse(rec.fields.condition) as { config: { notifyWhen?: string } }).config.notifyWhen
		: undefined;
}

/** Waits until Grist has delivered (a real Grist's queue: its listing's usage), and a little more. */
async function settled(): Promise<void> {
	await deliveriesDone();
	await sleep(realGrist ? 1000 : 500);
}

async function setApproval(id: number, fields: Record<string, unknown>): Promise<void> {
	const r = await api.patch(`/api/docs/${docId}/tables/Approvals/records`, {
		records: [{ id, fields }],
	});
	expect(r.status).toBe(200);
	await settled();
}

/** Changes the active workflow's When through n8n's public API and activates it again. */
async function changeWhen(id: string, notifyWhen: string, previous: string): Promise<string> {
	const wf = approvedWorkflow(notifyWhen);
	await n8n.api('PUT', `/workflows/${id}`, {
		name: wf.name,
		nodes: wf.nodes,
		connections: wf.connections,
		settings: wf.settings ?? {},
	});
	await n8n.activate(id);
	await until(`re-activation replaced the webhook ${previous} by one new webhook`, async () => {
		const list = await hooks();
		return list.length === 1 && list[0].id !== previous;
	});
	const list = await hooks();
	expect(list).toHaveLength(1);
	expect(list[0].id).not.toBe(previous);
	expect(await notifyWhenOf(list[0].id)).toBe(notifyWhen === 'matching' ? undefined : notifyWhen);
	return list[0].id;
}

test('fires once when a row starts matching and once when it stops; a changed condition re-registers; each When; deactivation', async () => {
	const id = await n8n.createWorkflow(approvedWorkflow('enters'));
	await n8n.activate(id);
	await until('the trigger registered a webhook in Grist', async () => (await hooks()).length > 0);
	const [hook] = await hooks();
	expect(hook.eventTypes).toEqual(['add', 'update']);
	expect(await notifyWhenOf(hook.id)).toBe('enters');
	const output = async (count: number) => {
		const runs = await n8n.waitForExecutions(id, count);
		expect(runs).toHaveLength(count);
		return runs[0].output(NODE).map((r) => [r.id, r.Status]);
	};

	// Starts Matching: added Open (nothing), then Open → Approved (once), then an edit (nothing)
	const [a] = await addRows([{ Name: 'a', Status: 'Open' }], 'Approvals');
	await settled();
	expect(await n8n.executions(id)).toHaveLength(0);
	await setApproval(a, { Status: 'Approved' });
	expect(await output(1)).toEqual([[a, 'Approved']]);
	await setApproval(a, { Name: 'a, edited' });
	expect(await n8n.executions(id)).toHaveLength(1);

	// changed to Stops Matching while active: a new registration; Approved → Open fires once
	hook.id = await changeWhen(id, 'leaves', hook.id);
	await setApproval(a, { Status: 'Open' });
	expect(await output(2)).toEqual([[a, 'Open']]);
	await setApproval(a, { Name: 'a, edited again' });
	expect(await n8n.executions(id)).toHaveLength(2);

	// Changes While Matching: becoming Approved is not a change while matching; an edit then is
	hook.id = await changeWhen(id, 'updated', hook.id);
	await setApproval(a, { Status: 'Approved' });
	expect(await n8n.executions(id)).toHaveLength(2);
	await setApproval(a, { Name: 'approved, edited' });
	expect(await output(3)).toEqual([[a, 'Approved']]);

	// Trigger On Events While Matching: added or updated rows that are Approved
	hook.id = await changeWhen(id, 'matching', hook.id);
	const [b] = await addRows(
		[
			{ Name: 'b', Status: 'Approved' },
			{ Name: 'c', Status: 'Open' },
		],
		'Approvals',
	);
	await settled();
	expect(await output(4)).toEqual([[b, 'Approved']]);

	await n8n.deactivate(id);
	await until(
		'deactivation removed the webhook from Grist',
		async () => (await hooks()).length === 0,
	);
	expect(await hooks()).toEqual([]);
	await setApproval(a, { Name: 'while inactive' });
	expect(await n8n.executions(id)).toHaveLength(4);
}, 240_000);

test('Changes: Exact: previous values, a deletion with the next change, a repeated delivery emits nothing; the state saved by n8n', async () => {
	const id = await n8n.createWorkflow(
		workflow({ ...docTable(docId, 'Approvals'), changes: 'exact', event: 'anyChange' }),
	);
	await n8n.activate(id);
	await until('the trigger registered a webhook in Grist', async () => (await hooks()).length > 0);
	const [hook] = await hooks();
	const [a, b] = await addRows(
		[
			{ Name: 'a', Status: 'Open' },
			{ Name: 'b', Status: 'Open' },
		],
		'Approvals',
	);
	let runs = await n8n.waitForExecutions(id, 1);
	expect(runs[0].output(NODE).map((r) => [r.id, (r._change as { type: string }).type])).toEqual([
		[a, 'added'],
		[b, 'added'],
	]);
	await setApproval(a, { Status: 'Approved' });
	runs = await n8n.waitForExecutions(id, 2);
	expect(runs[0].output(NODE)).toEqual([
		{
			id: a,
			Name: 'a',
			Status: 'Approved',
			_change: { type: 'updated', previous: { Status: 'Open' }, changedColumns: ['Status'] },
		},
	]);
	// a deletion starts nothing; it comes with the next added row
	expect((await api.post(`/api/docs/${docId}/tables/Approvals/records/delete`, [b])).status).toBe(
		200,
	);
	await settled();
	expect(await n8n.executions(id)).toHaveLength(2);
	const [c] = await addRows([{ Name: 'c', Status: 'Open' }], 'Approvals');
	runs = await n8n.waitForExecutions(id, 3);
	expect(
		runs[0].output(NODE).map((r) => [r.id, r.Name, (r._change as { type: string }).type]),
	).toEqual([
		[b, 'b', 'deleted'],
		[c, 'c', 'added'],
	]);
	// n8n saved the state with each delivery (the trigger's own call to its webhook URL)
	const states = await api.get<{ states: Array<{ h: string }> }>(`/api/docs/${docId}/states`);
	const saved = (await n8n.workflowStaticData(id)) as Record<string, { changes?: { h: string } }>;
	expect(saved['node:Grist Instant Trigger'].changes?.h).toBe(states.json.states[0].h);
	// Grist sends the same batch again: nothing new, no execution
	const again = await fetch(productionUrl(), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: hook.authorization },
		body: JSON.stringify([{ id: c, manualSort: c, Name: 'c', Status: 'Open' }]),
	});
	expect(again.status).toBe(200);
	await sleep(1500);
	expect(await n8n.executions(id)).toHaveLength(3);
	await n8n.deactivate(id);
	await until('deactivation removed the webhook', async () => (await hooks()).length === 0);
}, 240_000);
