/**
 * The packed package in n8n's queue mode (test/harness/e2e/queue.ts): main, worker and webhook
 * processes over a real Redis, sharing a PostgreSQL database, each with its own user folder.
 * Workflows are executed by the worker (the worker's log names each execution), binary data
 * crosses processes byte for byte, and the polling trigger — which runs in the main process —
 * emits every new row exactly once across a restart of the main process.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import { startEmulator, type GristEmulator } from '../emulator';
import {
	START_TIMEOUT,
	chainWorkflow,
	gristNode,
	gristTriggerNode,
	manualWorkflow,
	type CredentialRef,
	rowsSource,
} from '../harness/e2e';
import { startQueueCluster, type QueueCluster } from '../harness/e2e/queue';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let cluster: QueueCluster;
let cred: CredentialRef;
let docId: string;

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: USER_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	const ws = emu.addWorkspace(org.id, 'Main', { owner: 'owner@example.com' });
	docId = emu.addDoc(ws.id, { name: 'Queue doc', owner: 'owner@example.com' }).id;
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

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
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
					document: rl(docId),
					table: rl('Leads'),
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
					document: rl(docId),
					table: rl('Leads'),
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
			{
				name: 'Set',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					mode: 'raw',
					jsonOutput: JSON.stringify({ b64: content.toString('base64') }),
				},
			},
			{
				name: 'Convert to File',
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				parameters: {
					operation: 'toBinary',
					sourceProperty: 'b64',
					binaryPropertyName: 'data',
					options: { fileName: 'q.bin', mimeType: 'application/octet-stream' },
				},
			},
			gristNode(
				{
					resource: 'attachment',
					operation: 'upload',
					document: rl(docId),
					binaryPropertyName: 'data',
					attachToRecord: true,
					table: rl('Files'),
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
					document: rl(docId),
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

/** Polls `read` until `done` holds. */
async function waitFor<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = 60_000,
): Promise<T> {
	for (let waited = 0; ; waited += 500) {
		const value = await read();
		if (done(value) || waited >= timeoutMs) return value;
		await sleep(500);
	}
}

test('the polling trigger emits each new row exactly once, across a restart of the main process', async () => {
	const params = { document: rl(docId), table: rl('Tasks'), event: 'rowAdded' };
	const id = await cluster.main.createWorkflow(chainWorkflow([gristTriggerNode(params, cred)]));
	await cluster.main.activate(id);
	const baseline = await waitFor(
		async () => JSON.stringify(await cluster.main.workflowStaticData(id)),
		(text) => text.includes('"cursor"'),
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
		async () => JSON.stringify(await cluster.main.workflowStaticData(id)),
		(text) => text.includes(`"lastId":${firstIds[1]}`),
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
	const emitted = all
		.slice()
		.reverse()
		.flatMap((run) => run.output('Grist Trigger').map((j) => j.id as number));
	expect(emitted).toEqual([...firstIds, ...secondIds]);
	for (const run of all) expect(ranOnWorker(run.executionId)).toBe(true);
	expect(JSON.stringify(await main.workflowStaticData(id))).toContain(
		`"cursor":{"kind":"rowAdded","lastId":${secondIds[2]}}`,
	);
	expect(await main.executions(id)).toHaveLength(2);
}, 360_000);
