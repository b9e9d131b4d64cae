/**
 * Grist Trigger's change events (Row Added, Updated or Deleted, Row Updated, Row Deleted) in a real n8n 2.41.1 (the
 * packed package) against the Grist emulator (or a real Grist with `npm run test:real`): each
 * event in an active workflow, an n8n restart between polls, and the pruned-history error; the one
 * output shape of the five events (their Fetch test event, Simplify on and off).
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
import { until, waitFor } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
const fx = useN8nTeamDoc({
	apiKey: USER_KEY,
	docName: 'Changes trigger doc',
	credential: 'Grist',
	seed: (emu, docId) =>
		emu.addTable(docId, 'Stock', [
			{ id: 'Name', type: 'Text' },
			{ id: 'Qty', type: 'Numeric' },
		]),
});
let emu: GristEmulator;
let n8n: N8n;
let cred: CredentialRef;
let docId: string;
beforeAll(() => ({ emu, n8n, cred, docId } = fx));

async function patch(id: number, fields: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${emu.url}/o/team/api/docs/${docId}/tables/Stock/records`, {
		method: 'PATCH',
		headers: { Authorization: `Bearer ${USER_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ records: [{ id, fields }] }),
	});
	expect(res.status).toBe(200);
}

/** A workflow with the trigger on `event`, active, past its baseline poll. */
async function activeWorkflow(params: Record<string, unknown>): Promise<string> {
	const id = await n8n.createWorkflow(
		chainWorkflow([gristTriggerNode({ ...docTable(docId, 'Stock'), ...params }, cred)]),
	);
	await n8n.activate(id);
	await waitFor(
		'the activation poll saved a cursor in the static data',
		async () => JSON.stringify(await n8n.workflowStaticData(id)),
		(text) => text.includes('"cursor"'),
		{ intervalMs: 250 },
	);
	expect(JSON.stringify(await n8n.workflowStaticData(id))).toContain(
		`"cursor":{"kind":"${String(params.event)}","h":"`,
	);
	return id;
}

test('Row Added, Updated or Deleted, Row Updated and Row Deleted each emit their rows once, also across an n8n restart', async () => {
	const [a, b] = emu.addRecords(docId, 'Stock', [
		{ Name: 'apple', Qty: 3 },
		{ Name: 'pear', Qty: 5 },
	]);
	const any = await activeWorkflow({ event: 'anyChange' });
	const updated = await activeWorkflow({ event: 'rowUpdated' });
	const deleted = await activeWorkflow({ event: 'rowDeleted' });

	await patch(a, { Qty: 4 });
	emu.removeRecords(docId, 'Stock', [b]);
	const [c] = emu.addRecords(docId, 'Stock', [{ Name: 'fig', Qty: 1 }]);
	// The positions saved after activation are where the polls go on. Every change is made before
	// the restart: the restarted n8n may poll as soon as it has activated the workflows.
	await n8n.restart();

	// Scheduled polls (every minute; a real Grist's updatedAt may add up to 60 s).
	const [anyRun] = await n8n.waitForExecutions(any, 1, 150_000);
	const [updRun] = await n8n.waitForExecutions(updated, 1, 30_000);
	const [delRun] = await n8n.waitForExecutions(deleted, 1, 30_000);
	expect(anyRun.output('Grist Trigger')).toEqual([
		{
			id: a,
			Name: 'apple',
			Qty: 4,
			_change: { type: 'updated', previous: { Qty: 3 }, changedColumns: ['Qty'] },
		},
		{ id: b, Name: 'pear', Qty: 5, _change: { type: 'deleted' } },
		{ id: c, Name: 'fig', Qty: 1, _change: { type: 'added' } },
	]);
	for (const item of anyRun.output('Grist Trigger'))
		expect(Object.keys(item)).toEqual(['id', 'Name', 'Qty', '_change']);
	expect(
		updRun.output('Grist Trigger').map((j) => [(j._change as { type: string }).type, j.id]),
	).toEqual([['updated', a]]);
	expect(delRun.output('Grist Trigger')).toEqual([
		{ id: b, Name: 'pear', Qty: 5, _change: { type: 'deleted' } },
	]);
	for (const id of [any, updated, deleted]) await n8n.deactivate(id);
	// nothing emitted twice
	expect(await n8n.executions(any)).toHaveLength(1);
	expect(await n8n.executions(updated)).toHaveLength(1);
	expect(await n8n.executions(deleted)).toHaveLength(1);
}, 300_000);

test('Row Deleted: a row edited then deleted between two polls has the values it had when deleted; empty cells their defaults', async () => {
	const [a, empty] = emu.addRecords(docId, 'Stock', [{ Name: 'plum', Qty: 1 }, {}]);
	const id = await activeWorkflow({ event: 'rowDeleted' });
	await patch(a, { Name: 'plum-renamed', Qty: 999 });
	emu.removeRecords(docId, 'Stock', [a]);
	emu.removeRecords(docId, 'Stock', [empty]); // Grist's history lists none of its cells
	const [run] = await n8n.waitForExecutions(id, 1, 150_000);
	await n8n.deactivate(id);
	expect(run.output('Grist Trigger')).toEqual([
		{ id: a, Name: 'plum-renamed', Qty: 999, _change: { type: 'deleted' } },
		{ id: empty, Name: '', Qty: 0, _change: { type: 'deleted' } },
	]);
}, 240_000);

test('pruned history: the poll fails with an error saying what happened and what to do', async () => {
	const [a] = emu.addRecords(docId, 'Stock', [{ Name: 'kiwi', Qty: 1 }]);
	const id = await activeWorkflow({ event: 'rowDeleted' });
	await n8n.deactivate(id);
	await patch(a, { Qty: 2 });
	const res = await fetch(`${emu.url}/o/team/api/docs/${docId}/states/remove`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${USER_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ keep: 1 }),
	});
	expect(res.status).toBe(200);
	const before = JSON.stringify(await n8n.workflowStaticData(id));
	// Re-activation polls at once; the poll fails: n8n logs the node's error (or records a failed
	// execution), emits nothing and keeps the saved position.
	const message = "Grist no longer has the document's history from this trigger's last poll";
	await n8n.activate(id).catch((e: Error) => expect(String(e.message)).toContain(message));
	await until(
		'n8n logged the failed poll or recorded it as a failed execution',
		async () => {
			const runs = await n8n.executions(id);
			return (
				n8n.logs().includes(message) || JSON.stringify(runs.map((r) => r.raw)).includes(message)
			);
		},
		{ timeoutMs: 90_000, intervalMs: 500 },
	);
	await n8n.deactivate(id).catch(() => undefined);
	expect((await n8n.executions(id)).filter((r) => r.status === 'success')).toEqual([]);
	expect(JSON.stringify(await n8n.workflowStaticData(id))).toBe(before);
}, 120_000);

test.each([true, false])(
	'one shape for the five events (Simplify %s): id, the cells or fields, then _change',
	async (simplify) => {
		emu.addRecords(docId, 'Stock', [{ Name: 'kiwi', Qty: 7 }]);
		const events: Array<[string, Record<string, unknown>, string]> = [
			['rowAdded', {}, 'added'],
			['rowAddedOrUpdated', { timestampColumn: 'Qty' }, 'updated'],
			['rowUpdated', {}, 'updated'],
			['rowDeleted', {}, 'deleted'],
			['anyChange', {}, 'added'],
		];
		const keys = simplify ? ['id', 'Name', 'Qty', '_change'] : ['id', 'fields', '_change'];
		for (const [event, extra, type] of events) {
			const run = await n8n.runWorkflow(
				chainWorkflow([
					gristTriggerNode({ ...docTable(docId, 'Stock'), event, simplify, ...extra }, cred),
				]),
				{ triggerNode: 'Grist Trigger' },
			);
			expect(run.status).toBe('success');
			const [item] = run.output('Grist Trigger');
			expect([event, Object.keys(item)]).toEqual([event, keys]);
			expect([event, (item._change as { type: string }).type]).toEqual([event, type]);
		}
	},
	240_000,
);

test('Fetch test event: Row Updated shows the latest update with its previous values, Row Deleted the latest deletion; a table with only added rows a stand-in that says so', async () => {
	const [a, b] = emu.addRecords(docId, 'Stock', [
		{ Name: 'lime', Qty: 1 },
		{ Name: 'date', Qty: 2 },
	]);
	await patch(a, { Qty: 8 });
	emu.removeRecords(docId, 'Stock', [b]);
	const sample = async (table: string, event: string) => {
		const run = await n8n.runWorkflow(
			chainWorkflow([gristTriggerNode({ ...docTable(docId, table), event }, cred)]),
			{ triggerNode: 'Grist Trigger' },
		);
		expect(run.status).toBe('success');
		return run.output('Grist Trigger');
	};
	expect(await sample('Stock', 'rowUpdated')).toEqual([
		{
			id: a,
			Name: 'lime',
			Qty: 8,
			_change: { type: 'updated', previous: { Qty: 1 }, changedColumns: ['Qty'] },
		},
	]);
	expect(await sample('Stock', 'rowDeleted')).toEqual([
		{ id: b, Name: 'date', Qty: 2, _change: { type: 'deleted' } },
	]);

	emu.addTable(docId, 'Fresh', [{ id: 'Name', type: 'Text' }]);
	const [c] = emu.addRecords(docId, 'Fresh', [{ Name: 'new' }]);
	const [standIn] = await sample('Fresh', 'rowUpdated');
	expect(standIn).toEqual({
		id: c,
		Name: 'new',
		_change: {
			type: 'updated',
			previous: {},
			changedColumns: [],
			standIn: expect.stringMatching(/^A stand-in, not a real change: /),
		},
	});
}, 180_000);
