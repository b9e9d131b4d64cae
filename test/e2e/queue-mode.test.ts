/**
 * The packed package in n8n's queue mode (test/harness/e2e/queue.ts): main, worker and webhook
 * processes over a real Redis, sharing a PostgreSQL database, each with its own user folder.
 * Workflows are executed by the worker (the worker's log names each execution), binary data
 * crosses processes byte for byte, and the polling trigger — which runs in the main process —
 * emits every new row exactly once across a restart of the main process. The instant trigger
 * registers (on main) the webhook process's URL (WEBHOOK_URL); Grist's deliveries reach the webhook
 * process, which checks the secret and queues one execution each for the worker. Against a real
 * Grist (`npm run test:real`, ALLOWED_WEBHOOK_DOMAINS='*') the server POSTs to the webhook process
 * itself; the webhooks are read from GET /webhooks and their `usage` stands for the emulator's
 * delivery log.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import { startEmulator, type GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { byId, seedTeamDoc } from '../harness/builders';
import {
	START_TIMEOUT,
	chainWorkflow,
	gristNode,
	gristTriggerNode,
	manualWorkflow,
	type CredentialRef,
	rowsSource,
	fileSource,
} from '../harness/e2e';
import { startQueueCluster, type QueueCluster } from '../harness/e2e/queue';
import { executionsEmittedIds } from '../harness/emitted';
import { until as untilHolds, waitFor } from '../harness/until';
import { realGrist } from '../harness/target';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let cluster: QueueCluster;
let cred: CredentialRef;
let docId: string;

beforeAll(async () => {
	emu = await startEmulator();
	({ docId } = seedTeamDoc(emu, USER_KEY, 'Queue doc'));
	emu.addTable(docId, 'Leads', [
		{ id: 'Email', type: 'Text' },
		{ id: 'Score', type: 'Numeric' },
	]);
	emu.addTable(docId, 'Tasks', [{ id: 'Name', type: 'Text' }]);
	emu.addTable(docId, 'Files', [
		{ id: 'Name', type: 'Text' },
		{ id: 'File', type: 'Attachments' },
	]);
	cluster = await startQueueCluster();
	cred = await cluster.main.createCredential({
		name: 'Grist',
		type: 'gristRecordsApi',
		data: { apiKey: USER_KEY, url: emu.url },
	});
}, START_TIMEOUT);

afterAll(async () => {
	await cluster?.stop();
	await emu?.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The worker's log line for an execution it ran (n8n's job processor writes it at info level). */
const ranOnWorker = (executionId: string) =>
	cluster.workerLogs().includes(`Worker finished execution ${executionId} `);

test('record create (batched) and Get Many run on the worker with the same results as a single n8n', async () => {
	const rows = Array.from({ length: 1200 }, (_, i) => ({ Email: `q${i}@x.org`, Score: i }));
	emu.clearLog();
	const create = await cluster.main.runWorkflow(
		manualWorkflow([
			...rowsSource(rows),
			gristNode(
				{
					resource: 'record',
					operation: 'create',
					document: byId(docId),
					table: byId('Leads'),
					columns: {
						mappingMode: 'autoMapInputData',
						value: null,
						matchingColumns: [],
						schema: [],
					},
				},
				cred,
			),
		]),
		{ timeoutMs: 120_000 },
	);
	expect(create.error).toBeUndefined();
	expect(create.status).toBe('success');
	expect(ranOnWorker(create.executionId)).toBe(true);
	const posts = emu.log.filter((e) => e.method === 'POST');
	expect(posts.map((p) => (p.body as { records: unknown[] }).records.length)).toEqual([
		500, 500, 200,
	]);
	const out = create.items('Grist');
	expect(out).toHaveLength(1200);
	expect(out.map((i) => i.pairedItem)).toEqual(rows.map((_, i) => ({ item: i })));
	expect(emu.records(docId, 'Leads').map((r) => r.fields.Email)).toEqual(rows.map((r) => r.Email));

	const read = await cluster.main.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'record',
					operation: 'getAll',
					document: byId(docId),
					table: byId('Leads'),
					returnAll: true,
				},
				cred,
			),
		]),
		{ timeoutMs: 120_000 },
	);
	expect(read.status).toBe('success');
	expect(ranOnWorker(read.executionId)).toBe(true);
	const got = read.output('Grist');
	expect(got).toHaveLength(1200);
	expect(got[0]).toEqual({ id: out[0].json.id, Email: 'q0@x.org', Score: 0 });
	expect(got[1199]).toEqual({ id: out[1199].json.id, Email: 'q1199@x.org', Score: 1199 });
	expect(JSON.stringify(read.raw)).not.toContain(USER_KEY);
}, 240_000);

test('attachment upload and download keep the bytes identical across processes', async () => {
	const content = randomBytes(300 * 1024);
	const [row] = emu.addRecords(docId, 'Files', [{ Name: 'report' }]);
	const run = await cluster.main.runWorkflow(
		manualWorkflow([
			...fileSource(content, 'q.bin', 'application/octet-stream'),
			gristNode(
				{
					resource: 'attachment',
					operation: 'upload',
					document: byId(docId),
					binaryPropertyName: 'data',
					attachToRecord: true,
					table: byId('Files'),
					rowId: row,
					attachmentsColumn: 'File',
					attachMode: 'append',
				},
				cred,
				{ name: 'Upload' },
			),
			gristNode(
				{
					resource: 'attachment',
					operation: 'download',
					document: byId(docId),
					attachmentId: '={{ $json.attachments[0].id }}',
					binaryPropertyName: 'file',
				},
				cred,
				{ name: 'Download' },
			),
		]),
		{ timeoutMs: 120_000 },
	);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');
	expect(ranOnWorker(run.executionId)).toBe(true);
	const [uploaded] = run.output('Upload') as Array<{ attachments: Array<{ id: number }> }>;
	const id = uploaded.attachments[0].id;
	// the worker sent what Convert to File made (on the worker) …
	expect(sha256(emu.attachmentData(docId, id)!)).toBe(sha256(content));
	expect(emu.records(docId, 'Files').find((r) => r.id === row)?.fields.File).toEqual(['L', id]);
	// … and the file the worker downloaded is served by the main process, from the shared store
	const item = run.items('Download')[0];
	expect(item.binary?.file?.id).toMatch(/^database:/);
	const downloaded = await run.binary('Download', 0, 'file');
	expect(downloaded.length).toBe(content.length);
	expect(sha256(downloaded)).toBe(sha256(content));
}, 240_000);

test('the polling trigger emits each new row exactly once, across a restart of the main process', async () => {
	const params = { document: byId(docId), table: byId('Tasks'), event: 'rowAdded' };
	const id = await cluster.main.createWorkflow(chainWorkflow([gristTriggerNode(params, cred)]));
	await cluster.main.activate(id);
	const baseline = await waitFor(
		'the activation poll saved a cursor in the static data',
		async () => JSON.stringify(await cluster.main.workflowStaticData(id)),
		(text) => text.includes('"cursor"'),
		{ timeoutMs: 60_000, intervalMs: 500 },
	);
	expect(baseline).toContain('"cursor":{"kind":"rowAdded","lastId":0}');

	const firstIds = emu.addRecords(docId, 'Tasks', [{ Name: 'a' }, { Name: 'b' }]);
	// re-activation polls at once (in the main process); the execution runs on the worker
	await cluster.main.deactivate(id);
	await cluster.main.activate(id);
	const first = await cluster.main.waitForExecutions(id, 1, 60_000);
	expect(first[0].status).toBe('success');
	expect(ranOnWorker(first[0].executionId)).toBe(true);
	expect(first[0].output('Grist Trigger').map((j) => j.id)).toEqual(firstIds);
	await waitFor(
		`the static data's cursor moved to row ${firstIds[1]}`,
		async () => JSON.stringify(await cluster.main.workflowStaticData(id)),
		(text) => text.includes(`"lastId":${firstIds[1]}`),
		{ timeoutMs: 60_000, intervalMs: 500 },
	);

	// A new main process, with only the database to remember where the trigger stands. The rows
	// arrive while no main process runs; the new one polls when it activates the workflow at
	// start-up (or, failing that, on a later minute): either way they are emitted once.
	let secondIds: number[] = [];
	const main = await cluster.restartMain(() => {
		secondIds = emu.addRecords(docId, 'Tasks', [{ Name: 'c' }, { Name: 'd' }, { Name: 'e' }]);
	});
	const all = await main.waitForExecutions(id, 2, 150_000).catch((error: Error) => {
		// what the processes and the emulator saw, so that a failure can be understood from CI's output
		const tail = (text: string) => text.split('\n').slice(-25).join('\n');
		const polls = emu.log
			.filter((r) => r.path.includes('/tables/Tasks/') || r.path.endsWith('/sql'))
			.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} → ${r.status}`);
		throw new Error(
			`${error.message}\n--- main ---\n${tail(main.logs())}\n--- worker ---\n${tail(cluster.workerLogs())}\n--- emulator ---\n${polls.slice(-12).join('\n')}`,
		);
	});
	await main.deactivate(id);
	const emitted = executionsEmittedIds(all, 'Grist Trigger');
	expect(emitted).toEqual([...firstIds, ...secondIds]);
	for (const run of all) expect(ranOnWorker(run.executionId)).toBe(true);
	expect(JSON.stringify(await main.workflowStaticData(id))).toContain(
		`"cursor":{"kind":"rowAdded","lastId":${secondIds[2]}}`,
	);
	expect(await main.executions(id)).toHaveLength(2);
}, 360_000);

test('the instant trigger: Grist calls the webhook process, each change runs once on the worker, forged calls get 401, deactivation removes the webhook', async () => {
	const NODE = 'Grist Instant Trigger';
	const WEBHOOK_ID = randomUUID();
	const sent = { type: 'addedOrUpdated' };
	const api = client(emu, USER_KEY);
	emu.addTable(docId, 'Hooks', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Due', type: 'Date' },
	]);
	// Grist must allow the webhook process's plain-http loopback URL (a real Grist: its own
	// ALLOWED_WEBHOOK_DOMAINS='*')
	if (!realGrist) emu.webhooks.configure({ allowedDomains: '*', retryDelaysMs: [200, 400] });
	type Usage = { numWaiting: number; status: string; lastHttpStatus?: number | null } | null;
	/** The document's webhooks as GET /webhooks lists them (the emulator's and a real Grist's alike). */
	const hooks = async () => {
		const r = await api.get<{
			webhooks: Array<{ id: string; fields: { url: string; authorization: string }; usage: Usage }>;
		}>(`/api/docs/${docId}/webhooks`);
		expect(r.status).toBe(200);
		return r.json.webhooks.map((h) => ({ id: h.id, ...h.fields, usage: h.usage }));
	};
	const productionUrl = `${cluster.webhook.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
	const tail = (text: string) => text.split('\n').slice(-25).join('\n');
	/** What every process and the emulator saw, so that a failure can be understood from CI's output. */
	const logs = () =>
		`--- main ---\n${tail(cluster.main.logs())}\n--- worker ---\n${tail(cluster.workerLogs())}\n--- webhook ---\n${tail(cluster.webhook.output())}\n--- emulator deliveries ---\n${
			realGrist
				? '(a real Grist: see its server log)'
				: emu.webhooks.deliveries
						.map((d) => `${d.url} #${d.attempt} → ${d.status} ${d.error ?? ''}`)
						.join('\n')
		}`;
	const diagnose = (what: string) => `${what}\n${logs()}`;
	const executions = async (id: string, count: number) =>
		await cluster.main.waitForExecutions(id, count, 60_000).catch((error: Error) => {
			throw new Error(diagnose(error.message));
		});
	const until = async (done: () => boolean | Promise<boolean>, what: string) =>
		await untilHolds(what, done, { detail: logs });

	const wf = chainWorkflow([
		{
			name: NODE,
			type: 'n8n-nodes-grist.gristWebhookTrigger',
			parameters: { document: byId(docId), table: byId('Hooks'), event: 'addOrUpdate' },
			credentials: { gristRecordsApi: cred },
		},
	]);
	(wf.nodes[0] as unknown as { webhookId: string }).webhookId = WEBHOOK_ID;
	const id = await cluster.main.createWorkflow(wf);
	await cluster.main.activate(id);
	await until(async () => (await hooks()).length > 0, 'the main process registered a webhook');
	await sleep(500); // a second registration would show up here
	// the registration points at the webhook process (WEBHOOK_URL), not at the main process
	expect((await hooks()).map((h) => h.url)).toEqual([productionUrl]);
	const secret = String((await hooks())[0].authorization).replace(/^Bearer /, '');
	const activated = await cluster.main.workflowStaticData(id);
	expect(JSON.stringify(activated)).toContain(secret);

	// a forged delivery to the webhook process: 401, nothing starts
	for (const headers of [{}, { Authorization: 'Bearer forged' }] as Array<Record<string, string>>) {
		const res = await fetch(productionUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers },
			body: JSON.stringify([{ id: 99, manualSort: 99, Name: 'forged', Due: null }]),
		});
		expect(res.status).toBe(401);
	}

	// added rows: one execution, on the worker; the Date column is simplified with the column
	// types the main process stored at activation, read by the webhook process
	const added = await api.post<{ records: Array<{ id: number }> }>(
		`/api/docs/${docId}/tables/Hooks/records`,
		{ records: [{ fields: { Name: 'first', Due: 1704844800 } }, { fields: { Name: 'second' } }] },
	);
	expect(added.status).toBe(200);
	const [a, b] = added.json.records.map((r) => r.id);
	let runs = await executions(id, 1);
	expect(runs[0].status).toBe('success');
	expect(ranOnWorker(runs[0].executionId)).toBe(true);
	expect(runs[0].output(NODE)).toEqual([
		{ id: a, Name: 'first', Due: '2024-01-10', _change: sent },
		{ id: b, Name: 'second', Due: null, _change: sent },
	]);

	// an updated row: one more execution, on the worker
	const patched = await api.patch(`/api/docs/${docId}/tables/Hooks/records`, {
		records: [{ id: b, fields: { Name: 'second, changed' } }],
	});
	expect(patched.status).toBe(200);
	runs = await executions(id, 2);
	expect(runs[0].status).toBe('success');
	expect(ranOnWorker(runs[0].executionId)).toBe(true);
	expect(runs[0].output(NODE)).toEqual([
		{ id: b, Name: 'second, changed', Due: null, _change: sent },
	]);

	// a column added after activation: the webhook process reads the column types once (with the
	// credential, in its own process) and keeps them in its memory (n8n does not save static data
	// written there)
	const column = await api.post(`/api/docs/${docId}/tables/Hooks/columns`, {
		columns: [{ id: 'Score', fields: { type: 'Numeric' } }],
	});
	expect(column.status).toBe(200);
	emu.clearLog();
	for (const [i, name] of ['third', 'fourth'].entries()) {
		const r = await api.post<{ records: Array<{ id: number }> }>(
			`/api/docs/${docId}/tables/Hooks/records`,
			{ records: [{ fields: { Name: name, Score: i + 0.5 } }] },
		);
		expect(r.status).toBe(200);
		runs = await executions(id, 3 + i);
		expect(runs[0].status).toBe('success');
		expect(ranOnWorker(runs[0].executionId)).toBe(true);
		expect(runs[0].output(NODE)).toEqual([
			{ id: r.json.records[0].id, Name: name, Due: null, Score: i + 0.5, _change: sent },
		]);
	}
	// read once by the webhook process for both deliveries; static data is as activation left it
	expect(emu.log.filter((e) => e.method === 'GET' && e.apiPath.endsWith('/columns'))).toHaveLength(
		1,
	);
	expect(await cluster.main.workflowStaticData(id)).toEqual(activated);

	// each delivery was answered once by the webhook process; nothing else started
	if (realGrist) {
		// a real Grist's listing: nothing waiting, the last delivery answered 200 at its first attempt
		await until(async () => {
			const [h] = await hooks();
			return h.usage?.numWaiting === 0 && h.usage.status === 'idle';
		}, 'Grist delivered everything');
		expect((await hooks())[0].usage).toMatchObject({
			lastHttpStatus: 200,
			lastEventBatch: { status: 'success', attempts: 1 },
		});
	} else {
		await emu.webhooks.idle();
		const mine = emu.webhooks.deliveries.filter((d) => d.url === productionUrl);
		expect(mine.map((d) => [d.status, d.attempt])).toEqual([
			[200, 1],
			[200, 1],
			[200, 1],
			[200, 1],
		]);
	}
	await sleep(1500);
	expect(await cluster.main.executions(id)).toHaveLength(4);
	for (const log of [cluster.main.logs(), cluster.workerLogs(), cluster.webhook.output()])
		expect(log).not.toContain(secret);

	await cluster.main.deactivate(id);
	await until(async () => (await hooks()).length === 0, "deactivation removed Grist's webhook");
	expect(await hooks()).toEqual([]);
	const late = await fetch(productionUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
		body: JSON.stringify([{ id: 98, manualSort: 98, Name: 'late' }]),
	});
	expect(late.status).toBe(404); // the webhook process knows the webhook is gone
	await sleep(1000);
	expect(await cluster.main.executions(id)).toHaveLength(4);
}, 240_000);

test('the instant trigger with Changes: Exact: the webhook process emits each change once with previous values and deletions, and n8n saves its state', async () => {
	const NODE = 'Grist Instant Trigger';
	const WEBHOOK_ID = randomUUID();
	const api = client(emu, USER_KEY);
	emu.addTable(docId, 'Exact', [{ id: 'Name', type: 'Text' }]);
	if (!realGrist) emu.webhooks.configure({ allowedDomains: '*', retryDelaysMs: [200, 400] });
	const hooks = async () =>
		(
			await api.get<{ webhooks: Array<{ id: string; fields: { url: string } }> }>(
				`/api/docs/${docId}/webhooks`,
			)
		).json.webhooks.filter((h) => h.fields.url.includes(WEBHOOK_ID));
	const wf = chainWorkflow([
		{
			name: NODE,
			type: 'n8n-nodes-grist.gristWebhookTrigger',
			parameters: {
				document: byId(docId),
				table: byId('Exact'),
				changes: 'exact',
				event: 'anyChange',
			},
			credentials: { gristRecordsApi: cred },
		},
	]);
	(wf.nodes[0] as unknown as { webhookId: string }).webhookId = WEBHOOK_ID;
	const id = await cluster.main.createWorkflow(wf);
	await cluster.main.activate(id);
	await untilHolds('the main process registered a webhook', async () => (await hooks()).length > 0);
	const rows = `/api/docs/${docId}/tables/Exact/records`;
	const added = await api.post<{ records: Array<{ id: number }> }>(rows, {
		records: [{ fields: { Name: 'a' } }, { fields: { Name: 'b' } }],
	});
	const [a, b] = added.json.records.map((r) => r.id);
	let runs = await cluster.main.waitForExecutions(id, 1, 60_000);
	expect(ranOnWorker(runs[0].executionId)).toBe(true);
	expect(runs[0].output(NODE)).toEqual([
		{ id: a, Name: 'a', _change: { type: 'added' } },
		{ id: b, Name: 'b', _change: { type: 'added' } },
	]);
	expect((await api.post(`${rows}/delete`, [b])).status).toBe(200);
	expect((await api.patch(rows, { records: [{ id: a, fields: { Name: 'a2' } }] })).status).toBe(
		200,
	);
	runs = await cluster.main.waitForExecutions(id, 2, 60_000);
	expect(runs[0].output(NODE)).toEqual([
		{
			id: a,
			Name: 'a2',
			_change: { type: 'updated', previous: { Name: 'a' }, changedColumns: ['Name'] },
		},
		{ id: b, Name: 'b', _change: { type: 'deleted' } },
	]);
	// the state the webhook process saved through its own URL is in the shared database
	const states = await api.get<{ states: Array<{ h: string }> }>(`/api/docs/${docId}/states`);
	const saved = (await cluster.main.workflowStaticData(id)) as Record<
		string,
		{ changes?: { h: string } }
	>;
	expect(saved[`node:${NODE}`].changes?.h).toBe(states.json.states[0].h);
	await sleep(1500);
	expect(await cluster.main.executions(id)).toHaveLength(2);
	await cluster.main.deactivate(id);
	await untilHolds(
		"deactivation removed Grist's webhook",
		async () => (await hooks()).length === 0,
	);
}, 240_000);
