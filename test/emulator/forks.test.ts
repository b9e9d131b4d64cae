/**
 * Emulator: forks, /compare/{doc2}, /replace, snapshots and proposals (routes-forks.ts). Runs
 * against a real Grist too (`npm run test:real`).
 */
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';

let emu: GristEmulator;
let api: ReturnType<typeof client>;
let viewer: ReturnType<typeof client>;
let wsId: number;
const OWNER = 'forks-test-owner-0123456789';
const VIEWER = 'forks-test-viewer-0123456789';

interface Fork {
	forkId: string;
	docId: string;
	urlId: string;
}
interface State {
	n: number;
	h: string;
}
interface Comparison {
	left: State;
	right: State;
	parent: State | null;
	summary: string;
	details?: {
		leftChanges: { tableRenames: unknown[]; tableDeltas: Record<string, Record<string, unknown>> };
		rightChanges: { tableRenames: unknown[]; tableDeltas: Record<string, Record<string, unknown>> };
	};
}
interface Proposal {
	shortId: number;
	status: { status?: string };
	srcDocId: string;
	destDocId: string;
	appliedAt: string | null;
	srcDoc: { id: string; trunkId: string; creator: { email: string } };
	comparison: { comparison: Comparison };
}

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'fo@example.com', name: 'O', apiKey: OWNER });
	emu.addUser({ email: 'fv@example.com', name: 'V', apiKey: VIEWER });
	const org = emu.addOrg({ name: 'F', domain: 'f', owner: 'fo@example.com' });
	wsId = emu.addWorkspace(org.id, 'Forks').id;
	api = client(emu, OWNER, '/o/f');
	viewer = client(emu, VIEWER, '/o/f');
});
afterAll(() => emu.close());

/** A document with table Items (Name Text, Qty Numeric) holding `rows`. */
function itemsDoc(name: string, rows: Array<Record<string, unknown>>): string {
	const docId = emu.addDoc(wsId, { name }).id;
	emu.addTable(docId, 'Items', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Qty', type: 'Numeric' },
	]);
	if (rows.length) emu.addRecords(docId, 'Items', rows);
	return docId;
}

const records = (docId: string) => `/api/docs/${docId}/tables/Items/records`;

async function fork(docId: string): Promise<Fork> {
	const res = await api.post<Fork>(`/api/docs/${docId}/fork`);
	expect(res.status).toBe(200);
	return res.json;
}

async function names(docId: string): Promise<unknown[]> {
	const res = await api.get<{ records: Array<{ fields: { Name: unknown } }> }>(records(docId));
	expect(res.status).toBe(200);
	return res.json.records.map((r) => r.fields.Name);
}

test("a fork: {trunk}~{fork}~{user} IDs, its own data, listed in the trunk's forks, no fork of a fork", async () => {
	const docId = itemsDoc('Trunk', [{ Name: 'a', Qty: 1 }]);
	const f = await fork(docId);
	const userId = (await api.get<{ id: number }>('/api/profile/user')).json.id;
	expect(f.docId).toBe(`${docId}~${f.forkId}~${userId}`);
	expect(f.urlId).toMatch(new RegExp(`~${f.forkId}~${userId}$`));
	const doc = await api.get<{ id: string; trunkId: string; access: string; name: string }>(
		`/api/docs/${f.docId}`,
	);
	expect(doc.status).toBe(200);
	expect(doc.json).toMatchObject({ id: f.docId, trunkId: docId, access: 'owners', name: 'Trunk' });
	expect((await api.get(`/api/docs/${f.urlId}`)).status).toBe(200);
	// the fork has the trunk's rows; a change to it leaves the trunk alone
	expect(await names(f.docId)).toEqual(['a']);
	await api.post(records(f.docId), { records: [{ fields: { Name: 'b' } }] });
	expect(await names(f.docId)).toEqual(['a', 'b']);
	expect(await names(docId)).toEqual(['a']);
	const trunk = await api.get<{ forks: Array<{ id: string; trunkId: string }>; trunkId: null }>(
		`/api/docs/${docId}`,
	);
	expect(trunk.json.trunkId).toBeNull();
	expect(trunk.json.forks).toEqual([expect.objectContaining({ id: f.forkId, trunkId: docId })]);
	// the workspace does not list the fork
	const ws = await api.get<{ docs: Array<{ id: string }> }>(`/api/workspaces/${wsId}`);
	expect(ws.json.docs.map((d) => d.id)).not.toContain(f.docId);
	const again = await api.post<ErrorBody>(`/api/docs/${f.docId}/fork`);
	expect(again.status).toBe(400);
	expect(again.json.error).toBe("Cannot fork a document that's already a fork");
	const missing = await api.post<ErrorBody>('/api/docs/nope-nope-nope/fork');
	expect(missing.status).toBe(404);
	expect(missing.json.error).toBe('document not found');
	const noFork = await api.get<ErrorBody>(
		`/api/docs/${docId}~nofork~${userId}/tables/Items/records`,
	);
	expect(noFork.status).toBe(404);
	expect(noFork.json.error).toBe('Document fork not found');
});

test('/compare/{doc2}: same, right, left, both, with details of each side since the parent', async () => {
	const docId = itemsDoc('Cmp', [
		{ Name: 'a', Qty: 1 },
		{ Name: 'b', Qty: 2 },
	]);
	const f = await fork(docId);
	const same = await api.get<Comparison>(`/api/docs/${docId}/compare/${f.docId}`);
	expect(same.status).toBe(200);
	expect(same.json.summary).toBe('same');
	expect(same.json.parent).toEqual(same.json.left);
	expect(same.json.details).toBeUndefined();
	await api.patch(records(f.docId), { records: [{ id: 1, fields: { Qty: 10 } }] });
	const right = await api.get<Comparison>(`/api/docs/${docId}/compare/${f.docId}?detail=1`);
	expect(right.json.summary).toBe('right');
	expect(right.json.parent).toEqual(right.json.left);
	expect(right.json.details!.leftChanges).toEqual({ tableRenames: [], tableDeltas: {} });
	expect(right.json.details!.rightChanges.tableDeltas.Items).toEqual({
		updateRows: [1],
		removeRows: [],
		addRows: [],
		columnDeltas: { Qty: { '1': [[1], [10]] } },
		columnRenames: [],
	});
	// from the fork's side it is "left"
	const left = await api.get<Comparison>(`/api/docs/${f.docId}/compare/${docId}`);
	expect(left.json.summary).toBe('left');
	await api.post(`${records(docId)}/delete`, [2]);
	const both = await api.get<Comparison>(`/api/docs/${docId}/compare/${f.docId}?detail=1`);
	expect(both.json.summary).toBe('both');
	expect(both.json.details!.leftChanges.tableDeltas.Items).toMatchObject({ removeRows: [2] });
	// a removed row's values are those at the parent
	expect(
		(both.json.details!.leftChanges.tableDeltas.Items.columnDeltas as Record<string, unknown>).Name,
	).toEqual({ '2': [['b'], null] });
	const other = itemsDoc('Unrelated', []);
	const unrelated = await api.get<Comparison>(`/api/docs/${docId}/compare/${other}?detail=1`);
	expect(unrelated.json).toMatchObject({ parent: null, summary: 'unrelated' });
	expect(unrelated.json.details).toBeUndefined();
	const missing = await api.get<ErrorBody>(`/api/docs/${docId}/compare/nope-nope-nope`);
	expect(missing.status).toBe(404);
	expect(missing.json.error).toBe('document not found');
	const userId = f.docId.split('~')[2];
	const noFork = await api.get<ErrorBody>(`/api/docs/${docId}/compare/${docId}~nofork~${userId}`);
	expect(noFork.status).toBe(404);
	expect(noFork.json.error).toBe('{"error":"Document fork not found"}');
});

test('/replace: a fork promoted (content and history); owners only; snapshots need S3', async () => {
	const docId = itemsDoc('Promote', [{ Name: 'a', Qty: 1 }]);
	const f = await fork(docId);
	await api.post(records(f.docId), { records: [{ fields: { Name: 'new' } }] });
	const res = await api.post(`/api/docs/${docId}/replace`, { sourceDocId: f.docId });
	expect(res.status).toBe(200);
	expect(res.json).toBeNull();
	expect(await names(docId)).toEqual(['a', 'new']);
	const cmp = await api.get<Comparison>(`/api/docs/${docId}/compare/${f.docId}`);
	expect(cmp.json.summary).toBe('same');
	expect(cmp.json.left).toEqual(cmp.json.right); // the fork's history came along
	const missing = await api.post<ErrorBody>(`/api/docs/${docId}/replace`, { sourceDocId: 'nope' });
	expect(missing.status).toBe(404);
	expect(missing.json.error).toBe('document not found');
	const snap = await api.post<ErrorBody>(`/api/docs/${docId}/replace`, { snapshotId: 'current' });
	expect(snap.status).toBe(500);
	expect(snap.json.error).toBe('snapshots not supported without S3');
	// an editor passes the route's check, then the owner check
	const edited = itemsDoc('Editor', []);
	emu.setAccess('doc', edited, 'fv@example.com', 'editors');
	const editor = await viewer.post<ErrorBody>(`/api/docs/${edited}/replace`, {});
	expect(editor.status).toBe(403);
	expect(editor.json.error).toBe('Only owners can replace a document.');
	// a source the caller may not view is refused first
	const hidden = await viewer.post<ErrorBody>(`/api/docs/${edited}/replace`, {
		sourceDocId: docId,
	});
	expect(hidden.status).toBe(403);
	expect(hidden.json.error).toBe('access denied');
	const viewed = itemsDoc('Viewer', []);
	emu.setAccess('doc', viewed, 'fv@example.com', 'viewers');
	const view = await viewer.post<ErrorBody>(`/api/docs/${viewed}/replace`, { sourceDocId: docId });
	expect(view.status).toBe(403);
	expect(view.json.error).toBe('No write access');
});

test('snapshots without external storage: only "current"; removal answers what it was given', async () => {
	const docId = itemsDoc('Snaps', []);
	const list = await api.get<{ snapshots: Array<Record<string, unknown>> }>(
		`/api/docs/${docId}/snapshots`,
	);
	expect(list.status).toBe(200);
	expect(list.json.snapshots).toEqual([
		{ snapshotId: 'current', lastModified: expect.any(String), docId },
	]);
	const raw = await api.get<{ snapshots: unknown[] }>(`/api/docs/${docId}/snapshots?raw=1`);
	expect(raw.json.snapshots).toHaveLength(1);
	const ids = await api.post(`/api/docs/${docId}/snapshots/remove`, { snapshotIds: ['nope'] });
	expect(ids.json).toEqual({ snapshotIds: ['nope'] });
	for (const select of ['unlisted', 'past']) {
		const r = await api.post(`/api/docs/${docId}/snapshots/remove`, { select });
		expect(r.json).toEqual({ snapshotIds: [] });
	}
	const none = await api.post<ErrorBody>(`/api/docs/${docId}/snapshots/remove`, {});
	expect(none.status).toBe(500);
	expect(none.json.error).toBe('please specify snapshotIds to remove');
	emu.setAccess('doc', docId, 'fv@example.com', 'viewers');
	const denied = await viewer.post<ErrorBody>(`/api/docs/${docId}/snapshots/remove`, {
		select: 'past',
	});
	expect(denied.status).toBe(403);
	expect(denied.json.error).toBe('No owner access');
});

test('proposals: a fork proposes, the trunk lists and applies it (twice if asked)', async () => {
	const docId = itemsDoc('Proposals', [{ Name: 'a', Qty: 1 }]);
	const f = await fork(docId);
	await api.patch(records(f.docId), { records: [{ id: 1, fields: { Name: 'changed' } }] });
	await api.post(records(f.docId), { records: [{ fields: { Name: 'new', Qty: 2 } }] });
	const none = await api.get<{ proposals: unknown[] }>(`/api/docs/${docId}/proposals`);
	expect(none.json).toEqual({ proposals: [] });
	const notFork = await api.post<ErrorBody>(`/api/docs/${docId}/propose`, {});
	expect(notFork.status).toBe(400);
	expect(notFork.json.error).toBe('Can only propose from a fork');
	const made = await api.post<Proposal>(`/api/docs/${f.docId}/propose`, {});
	expect(made.status).toBe(200);
	expect(made.json).toMatchObject({ shortId: 1, status: {}, srcDocId: f.forkId, destDocId: docId });
	const incoming = await api.get<{ proposals: Proposal[] }>(`/api/docs/${docId}/proposals`);
	expect(incoming.json.proposals).toHaveLength(1);
	const p = incoming.json.proposals[0];
	expect(p).toMatchObject({ shortId: 1, status: {}, appliedAt: null });
	expect(p.srcDoc).toMatchObject({ id: f.forkId, trunkId: docId });
	const me = await api.get<{ email: string }>('/api/profile/user');
	expect(p.srcDoc.creator.email).toBe(me.json.email);
	expect(p.comparison.comparison.summary).toBe('left');
	const outgoing = await api.get<{ proposals: Proposal[] }>(
		`/api/docs/${f.docId}/proposals?outgoing=1`,
	);
	expect(outgoing.json.proposals.map((x) => x.shortId)).toEqual([1]);
	expect(
		(await api.get<{ proposals: unknown[] }>(`/api/docs/${f.docId}/proposals`)).json.proposals,
	).toEqual([]);
	const bad = await api.post<ErrorBody>(`/api/docs/${docId}/proposals/abc/apply`);
	expect(bad.status).toBe(400);
	expect(bad.json.error).toBe('proposalId parameter cannot be understood as an integer: abc');
	const missing = await api.post<ErrorBody>(`/api/docs/${docId}/proposals/99/apply`);
	expect(missing.status).toBe(404);
	expect(missing.json.error).toBe('Proposal not found');
	const applied = await api.post<{
		proposalId: number;
		changes: { proposal: Proposal; log: { changes: Array<{ msg: string }>; applied: boolean } };
	}>(`/api/docs/${docId}/proposals/1/apply`);
	expect(applied.status).toBe(200);
	expect(applied.json.proposalId).toBe(1);
	expect(applied.json.changes.log.applied).toBe(true);
	// Patch's log: per added row, per updated cell, and per column of the delta the updated row has no cell in
	expect(applied.json.changes.log.changes.map((c) => c.msg).sort()).toEqual([
		'added a record',
		'there is a row that does not exist anymore',
		'there is a row that does not exist anymore',
		'updated a cell',
	]);
	expect(applied.json.changes.proposal.status).toEqual({ status: 'applied' });
	expect(applied.json.changes.proposal.appliedAt).toEqual(expect.any(String));
	expect(await names(docId)).toEqual(['changed', 'new']);
	// Grist applies it again: the new row twice
	await api.post(`/api/docs/${docId}/proposals/1/apply`);
	expect(await names(docId)).toEqual(['changed', 'new', 'new']);
});

test('proposals: an editor may not apply, a viewer may not either', async () => {
	const edited = itemsDoc('ApplyEditor', [{ Name: 'a' }]);
	emu.setAccess('doc', edited, 'fv@example.com', 'editors');
	const asEditor = await viewer.post<ErrorBody>(`/api/docs/${edited}/proposals/1/apply`);
	expect(asEditor.status).toBe(400);
	expect(asEditor.json.error).toBe('Only owners can apply proposals');
	const viewed = itemsDoc('ApplyViewer', [{ Name: 'a' }]);
	emu.setAccess('doc', viewed, 'fv@example.com', 'viewers');
	const asViewer = await viewer.post<ErrorBody>(`/api/docs/${viewed}/proposals/1/apply`);
	expect(asViewer.status).toBe(403);
	expect(asViewer.json.error).toBe('No write access');
	// a viewer may fork (the fork is theirs) and list the proposals
	const vf = await viewer.post<Fork>(`/api/docs/${viewed}/fork`);
	expect(vf.status).toBe(200);
	const theirs = await viewer.get<{ access: string }>(`/api/docs/${vf.json.docId}`);
	expect(theirs.json.access).toBe('owners');
	const ownersView = await api.get<{ access: string }>(`/api/docs/${vf.json.docId}`);
	expect(ownersView.json.access).toBe('viewers');
	expect((await viewer.get(`/api/docs/${viewed}/proposals`)).status).toBe(200);
});

test('access rules: a restricted viewer may not fork, compare, list snapshots or proposals', async () => {
	const docId = itemsDoc('Rules', [{ Name: 'a', Qty: 1 }]);
	const other = itemsDoc('RulesOther', []);
	emu.setAccess('doc', docId, 'fv@example.com', 'viewers');
	emu.restrictHistory(docId); // Qty hidden from non-owners
	const f = await viewer.post<ErrorBody>(`/api/docs/${docId}/fork`);
	expect(f.status).toBe(403);
	expect(f.json.error).toBe('Insufficient access to document to copy it entirely');
	const cmp = await viewer.get<ErrorBody>(`/api/docs/${docId}/compare/${other}`);
	expect(cmp.status).toBe(403);
	expect(cmp.json.error).toBe('insufficient access');
	const snaps = await viewer.get<ErrorBody>(`/api/docs/${docId}/snapshots`);
	expect(snaps.status).toBe(500);
	expect(snaps.json.error).toBe('cannot confirm access to snapshots because of access rules');
	const props = await viewer.get<ErrorBody>(`/api/docs/${docId}/proposals`);
	expect(props.status).toBe(400);
	expect(props.json.error).toBe('access denied');
});
