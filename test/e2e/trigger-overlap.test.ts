/**
 * Grist Trigger polls that outlive their interval, in a real n8n 2.41.1 (the packed package)
 * against the Grist emulator (or a real Grist with `npm run test:real`): the trigger polls four
 * times a minute (custom cron entries 15 s apart, a budget of 7.5 s per poll) through the fault
 * proxy of test/harness/fault-proxy.ts, and Grist becomes unreachable for 40 s — longer than
 * the interval — once hanging (connections accepted, no answer), once refusing connections.
 * Every row is emitted exactly once, in order.
 */
import { randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import type { GristEmulator } from '../emulator';
import { docTable } from '../harness/builders';
import {
	chainWorkflow,
	gristTriggerNode,
	type CredentialRef,
	type N8n,
	useN8nTeamDoc,
} from '../harness/e2e';
import { executionsEmittedIds } from '../harness/emitted';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy';
import { waitFor } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
const fx = useN8nTeamDoc({
	apiKey: USER_KEY,
	docName: 'Overlap doc',
	seed: (emu, docId) => emu.addTable(docId, 'Jobs', [{ id: 'Name', type: 'Text' }]),
});
let emu: GristEmulator;
let n8n: N8n;
let docId: string;
let proxy: FaultProxy;
let cred: CredentialRef;
beforeAll(async () => {
	({ emu, n8n, docId } = fx);
	proxy = await startFaultProxy(emu.url);
	cred = await n8n.createCredential({
		name: 'Grist through the fault proxy',
		type: 'gristRecordsApi',
		data: { apiKey: USER_KEY, url: proxy.url },
	});
});
afterAll(async () => {
	await proxy?.close();
});

/** Four poll times a minute, 15 s apart (n8n accepts each: it polls once a minute). */
const FOUR_A_MINUTE = {
	item: [0, 15, 30, 45].map((second) => ({
		mode: 'custom',
		cronExpression: `${second} * * * * *`,
	})),
};
const OUTAGE_MS = 40_000;

const add = (names: string[]) =>
	emu.addRecords(
		docId,
		'Jobs',
		names.map((Name) => ({ Name })),
	);

test('Grist unreachable for longer than the poll interval (hanging, then refusing): every row is emitted exactly once', async () => {
	const id = await n8n.createWorkflow(
		chainWorkflow([
			gristTriggerNode(
				{ ...docTable(docId, 'Jobs'), event: 'rowAdded', pollTimes: FOUR_A_MINUTE },
				cred,
			),
		]),
	);
	await n8n.activate(id);
	await waitFor(
		'the activation poll saved a cursor in the static data',
		async () => JSON.stringify(await n8n.workflowStaticData(id)),
		(text) => text.includes('"cursor"'),
		{ intervalMs: 250 },
	);
	/** The row IDs emitted so far, over the successful executions, oldest first. */
	const emitted = async () =>
		executionsEmittedIds(
			(await n8n.executions(id)).filter((run) => run.status === 'success'),
			'Grist Trigger',
		);
	/** Waits until `ids` are all emitted (a real Grist pushes updatedAt up to 60 s late). */
	const arrived = async (ids: number[]) =>
		await waitFor(
			`rows ${ids.join(', ')} emitted`,
			emitted,
			(list) => ids.every((i) => list.includes(i)),
			{ timeoutMs: 150_000, intervalMs: 1_000 },
		);

	const a = add(['A1', 'A2']);
	await arrived(a);

	// Hanging: the poll that meets it gives up after 7.5 s; the next ones hang and give up too.
	const b = add(['B1', 'B2', 'B3']);
	proxy.stall();
	await sleep(OUTAGE_MS / 2);
	const c = add(['C1', 'C2']);
	await sleep(OUTAGE_MS / 2);
	proxy.resume();
	await arrived([...b, ...c]);

	// Refusing: the poll that meets it retries within its 7.5 s, then fails; so do the next ones.
	const d = add(['D1', 'D2']);
	await proxy.refuse();
	await sleep(OUTAGE_MS / 2);
	const e = add(['E1']);
	await sleep(OUTAGE_MS / 2);
	await proxy.accept();
	await arrived([...d, ...e]);

	// Two more poll times: nothing comes again.
	await sleep(35_000);
	await n8n.deactivate(id);
	expect(await emitted()).toEqual([...a, ...b, ...c, ...d, ...e]);
	// The polls that met the outage failed within their budget (n8n records each as a failed
	// execution), saying why.
	const failed = (await n8n.executions(id)).filter((run) => run.status !== 'success');
	expect(failed.length).toBeGreaterThan(0);
	for (const run of failed)
		expect(JSON.stringify(run.error)).toMatch(/did not answer in time|Could not reach/);
}, 900_000);
