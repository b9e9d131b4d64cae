/**
 * Grist Instant Trigger with Only Rows Matching and When in a real n8n 2.41.1 (the packed
 * package) against the Grist emulator, or a real Grist (`npm run test:real`: the server POSTs to
 * n8n's URL itself, ALLOWED_WEBHOOK_DOMAINS='*'): a workflow fires once when a row starts
 * matching and once when it stops; the condition changed while the workflow is active replaces
 * the registration; each When choice starts the workflow only for its change; deactivation
 * removes the webhook.
 */
import { randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import type { GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { docTable } from '../harness/builders';
import { chainWorkflow, type CredentialRef, type N8n, useN8nTeamDoc } from '../harness/e2e';
import { realGrist } from '../harness/target';

const USER_KEY = `key-${randomUUID()}`;
const WEBHOOK_ID = randomUUID();
const fx = useN8nTeamDoc({
	apiKey: USER_KEY,
	docName: 'Conditional hooks doc',
	credential: 'Grist',
	emulator: { allowedWebhookDomains: '*', webhookRetryDelaysMs: [200, 400] },
	seed: (emu, docId) =>
		emu.addTable(docId, 'Tasks', [
			{ id: 'Name', type: 'Text' },
			{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Approved'] } },
		]),
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

function workflow(notifyWhen: string) {
	const wf = chainWorkflow([
		{
			name: NODE,
			type: 'n8n-nodes-grist.gristWebhookTrigger',
			parameters: {
				...docTable(docId, 'Tasks'),
				event: 'addOrUpdate',
				conditionType: 'filters',
				conditionFilters: {
					conditions: [{ column: 'Status', match: 'equals', values: 'Approved' }],
				},
				notifyWhen,
			},
			credentials: { gristRecordsApi: cred },
		},
	]);
	(wf.nodes[0] as unknown as { webhookId: string }).webhookId = WEBHOOK_ID;
	return wf;
}

async function hooks(): Promise<Array<{ id: string; eventTypes: string[] }>> {
	const r = await api.get<{
		webhooks: Array<{ id: string; fields: { eventTypes: string[] } }>;
	}>(`/api/docs/${docId}/webhooks`);
	return r.json.webhooks.map((h) => ({ id: h.id, eventTypes: h.fields.eventTypes }));
}
/** The condition Grist stored for each webhook (GET /triggers; GET /webhooks never shows it). */
async function notifyWhenOf(webhookId: string): Promise<unknown> {
	const r = await api.get<{ records: Array<{ fields: { actions: string; condition: string } }> }>(
		`/api/docs/${docId}/triggers`,
	);
	const rec = r.json.records.find((x) => x.fields.actions.includes(webhookId));
	return rec?.fields.condition
		? (JSON.parse(rec.fields.condition) as { config: { notifyWhen?: string } }).config.notifyWhen
		: undefined;
}

async function until(done: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
	for (let waited = 0; !(await done()) && waited < timeoutMs; waited += 100) await sleep(100);
}
async function settled(): Promise<void> {
	if (!realGrist) await emu.webhooks.idle();
	await sleep(realGrist ? 2000 : 800);
}

async function addRows(rows: Array<Record<string, unknown>>): Promise<number[]> {
	const r = await api.post<{ records: Array<{ id: number }> }>(
		`/api/docs/${docId}/tables/Tasks/records`,
		{ records: rows.map((fields) => ({ fields })) },
	);
	expect(r.status).toBe(200);
	return r.json.records.map((x) => x.id);
}
async function setStatus(id: number, fields: Record<string, unknown>): Promise<void> {
	const r = await api.patch(`/api/docs/${docId}/tables/Tasks/records`, {
		records: [{ id, fields }],
	});
	expect(r.status).toBe(200);
	await settled();
}

/** Changes the active workflow's When and publishes it (n8n re-activates it). */
async function changeWhen(id: string, notifyWhen: string, previous: string): Promise<string> {
	const wf = workflow(notifyWhen);
	await n8n.api('PUT', `/workflows/${id}`, {
		name: wf.name,
		nodes: wf.nodes,
		connections: wf.connections,
		settings: wf.settings ?? {},
	});
	await n8n.activate(id);
	await until(async () => {
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
	const id = await n8n.createWorkflow(workflow('enters'));
	await n8n.activate(id);
	await until(async () => (await hooks()).length > 0);
	const [hook] = await hooks();
	expect(hook.eventTypes).toEqual(['add', 'update']);
	expect(await notifyWhenOf(hook.id)).toBe('enters');
	const output = async (count: number) => {
		const runs = await n8n.waitForExecutions(id, count);
		expect(runs).toHaveLength(count);
		return runs[0].output(NODE).map((r) => [r.id, r.Status]);
	};

	// Starts Matching: added Open (nothing), then Open → Approved (once), then an edit (nothing)
	const [a] = await addRows([{ Name: 'a', Status: 'Open' }]);
	await settled();
	expect(await n8n.executions(id)).toHaveLength(0);
	await setStatus(a, { Status: 'Approved' });
	expect(await output(1)).toEqual([[a, 'Approved']]);
	await setStatus(a, { Name: 'a, edited' });
	expect(await n8n.executions(id)).toHaveLength(1);

	// changed to Stops Matching while active: a new registration; Approved → Open fires once
	hook.id = await changeWhen(id, 'leaves', hook.id);
	await setStatus(a, { Status: 'Open' });
	expect(await output(2)).toEqual([[a, 'Open']]);
	await setStatus(a, { Name: 'a, edited again' });
	expect(await n8n.executions(id)).toHaveLength(2);

	// Changes While Matching: becoming Approved is not a change while matching; an edit then is
	hook.id = await changeWhen(id, 'updated', hook.id);
	await setStatus(a, { Status: 'Approved' });
	expect(await n8n.executions(id)).toHaveLength(2);
	await setStatus(a, { Name: 'approved, edited' });
	expect(await output(3)).toEqual([[a, 'Approved']]);

	// Trigger On Events While Matching: added or updated rows that are Approved
	hook.id = await changeWhen(id, 'matching', hook.id);
	const [b] = await addRows([
		{ Name: 'b', Status: 'Approved' },
		{ Name: 'c', Status: 'Open' },
	]);
	await settled();
	expect(await output(4)).toEqual([[b, 'Approved']]);

	await n8n.deactivate(id);
	await until(async () => (await hooks()).length === 0);
	expect(await hooks()).toEqual([]);
	await setStatus(a, { Name: 'while inactive' });
	expect(await n8n.executions(id)).toHaveLength(4);
}, 240_000);
