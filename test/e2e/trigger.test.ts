/**
 * Grist Trigger in a real n8n 2.41.1 (the packed package, installed as a community package)
 * against the Grist emulator: a manual "Fetch test event", then an active workflow that sees each
 * inserted row exactly once — through the activation poll, a re-activation and a scheduled poll.
 */
import { randomUUID } from 'node:crypto';

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
import { waitFor } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
const fx = useN8nTeamDoc({
	apiKey: USER_KEY,
	docName: 'Trigger doc',
	credential: 'Grist',
	seed: (emu, docId) =>
		emu.addTable(docId, 'Tasks', [
			{ id: 'Name', type: 'Text' },
			{ id: 'Due', type: 'Date' },
		]),
});
let emu: GristEmulator;
let n8n: N8n;
let cred: CredentialRef;
let docId: string;
beforeAll(() => ({ emu, n8n, cred, docId } = fx));

const params = () => ({
	...docTable(docId, 'Tasks'),
	event: 'rowAdded',
});

test('manual "Fetch test event" returns the latest record, simplified', async () => {
	emu.addRecords(docId, 'Tasks', [{ Name: 'sample', Due: 1704844800 }]);
	const run = await n8n.runWorkflow(chainWorkflow([gristTriggerNode(params(), cred)]), {
		triggerNode: 'Grist Trigger',
	});
	expect(run.status).toBe('success');
	const items = run.output('Grist Trigger');
	expect(items).toEqual([{ id: 1, Name: 'sample', Due: '2024-01-10', _change: { type: 'added' } }]);
	expect(Object.keys(items[0])).toEqual(['id', 'Name', 'Due', '_change']);
	expect(JSON.stringify(run.raw)).not.toContain(USER_KEY);
});

test('an active workflow sees each inserted row exactly once', async () => {
	const existing = emu.records(docId, 'Tasks').map((r) => r.id);
	const top = Math.max(0, ...existing);
	const id = await n8n.createWorkflow(chainWorkflow([gristTriggerNode(params(), cred)]));
	await n8n.activate(id);
	// The activation poll records the baseline (n8n saves it after activating) and emits nothing.
	const baseline = await waitFor(
		'the activation poll saved a cursor in the static data',
		async () => JSON.stringify(await n8n.workflowStaticData(id)),
		(text) => text.includes('"cursor"'),
		{ intervalMs: 250 },
	);
	expect(baseline).toContain(`"cursor":{"kind":"rowAdded","lastId":${top}}`);
	expect(await n8n.executions(id)).toEqual([]);

	const firstIds = emu.addRecords(docId, 'Tasks', [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }]);
	// Re-activation polls at once: the three rows arrive in one execution (against a real Grist,
	// at the first poll after Grist pushes the document's updatedAt: up to 60 s after the write).
	await n8n.deactivate(id);
	await n8n.activate(id);
	const first = await n8n.waitForExecutions(id, 1, 150_000);
	expect(first[0].status).toBe('success');
	expect(first[0].output('Grist Trigger').map((j) => [j.id, j.Name])).toEqual([
		[firstIds[0], 'a'],
		[firstIds[1], 'b'],
		[firstIds[2], 'c'],
	]);

	// The next scheduled poll (every minute) brings exactly the rows added since.
	const secondIds = emu.addRecords(docId, 'Tasks', [{ Name: 'd' }, { Name: 'e' }]);
	const all = await n8n.waitForExecutions(id, 2, 150_000);
	await n8n.deactivate(id);
	const emitted = executionsEmittedIds(all, 'Grist Trigger');
	expect(emitted).toEqual([...firstIds, ...secondIds]);
	expect(JSON.stringify(await n8n.workflowStaticData(id))).toContain(
		`"cursor":{"kind":"rowAdded","lastId":${secondIds[1]}}`,
	);
	// Nothing emitted twice: no further execution appeared.
	expect(await n8n.executions(id)).toHaveLength(2);
}, 360_000);
