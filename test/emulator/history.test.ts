/**
 * Emulator: §12.1–12.4 document history (GET /states, GET /compare, POST /states/remove) and the
 * document's `updatedAt` (GET /api/docs/{doc}). Runs against a real Grist too (`npm run test:real`).
 */
import { sleep } from 'n8n-workflow';

import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';
import { realGrist } from '../harness/target';
import { waitFor } from '../harness/until';

let emu: GristEmulator;
let api: ReturnType<typeof client>;
let viewer: ReturnType<typeof client>;
let wsId: number;
const OWNER = 'history-test-owner-0123456789';
const VIEWER = 'history-test-viewer-0123456789';

interface States {
	states: Array<{ n: number; h: string }>;
}
type Cell = [unknown, unknown];
interface Delta {
	updateRows: number[];
	removeRows: number[];
	addRows: number[];
	columnDeltas: Record<string, Record<string, Cell>>;
	mayBeIncomplete?: boolean;
}
interface Compare {
	left: { n: number; h: string };
	right: { n: number; h: string };
	summary: string;
	details: {
		rightChanges: { tableRenames: unknown[]; tableDeltas: Record<string, Delta> };
	};
}

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'ho@example.com', name: 'O', apiKey: OWNER });
	emu.addUser({ email: 'hv@example.com', name: 'V', apiKey: VIEWER });
	const org = emu.addOrg({ name: 'H', domain: 'h', owner: 'ho@example.com' });
	wsId = emu.addWorkspace(org.id, 'History').id;
	api = client(emu, OWNER, '/o/h');
	viewer = client(emu, VIEWER, '/o/h');
});
afterAll(() => emu.close());

/** A document with table Items (Name Text, Qty Numeric, Due Date) holding `rows`. */
function itemsDoc(name: string, rows: Array<Record<string, unknown>>): string {
	const docId = emu.addDoc(wsId, { name }).id;
	emu.addTable(docId, 'Items', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Qty', type: 'Numeric' },
		{ id: 'Due', type: 'Date' },
	]);
	if (rows.length) emu.addRecords(docId, 'Items', rows);
	return docId;
}

async function head(docId: string): Promise<string> {
	const res = await api.get<States>(`/api/docs/${docId}/states`);
	expect(res.status).toBe(200);
	return res.json.states[0].h;
}

async function compare(docId: string, left: string, extra = ''): Promise<Compare> {
	const res = await api.get<Compare>(`/api/docs/${docId}/compare?left=${left}&right=HEAD${extra}`);
	expect(res.status).toBe(200);
	return res.json;
}

const records = (docId: string) => `/api/docs/${docId}/tables/Items/records`;

test('/states lists states newest first; every write adds one, also a no-op PATCH', async () => {
	const docId = itemsDoc('States', [{ Name: 'apple', Qty: 3 }]);
	const first = await api.get<States>(`/api/docs/${docId}/states`);
	expect(first.status).toBe(200);
	const n0 = first.json.states[0].n;
	expect(first.json.states[0].h).toMatch(/^[0-9a-f]{64}$/);
	await api.patch(records(docId), { records: [{ id: 1, fields: { Qty: 4 } }] });
	await api.patch(records(docId), { records: [{ id: 1, fields: { Qty: 4 } }] });
	await api.get(records(docId)); // a read adds none
	const after = await api.get<States>(`/api/docs/${docId}/states`);
	expect(after.json.states.slice(0, 3).map((s) => s.n)).toEqual([n0 + 2, n0 + 1, n0]);
	expect(after.json.states[2].h).toBe(first.json.states[0].h);
	// the no-op write's own range has no change for the table
	const noop = await compare(docId, after.json.states[1].h);
	expect(noop.details.rightChanges.tableDeltas.Items).toBeUndefined();
});

test('/compare: an update and a delete, changes in rightChanges, a removed row without its empty cells', async () => {
	const docId = itemsDoc('Compare', [
		{ Name: 'apple', Qty: 3 },
		{ Name: 'pear', Qty: 5 },
	]);
	const left = await head(docId);
	await api.patch(records(docId), { records: [{ id: 1, fields: { Qty: 4 } }] });
	await api.post(`${records(docId)}/delete`, [2]);
	const same = await compare(docId, 'HEAD');
	expect(same.summary).toBe('same');
	const res = await compare(docId, left, '&maxRows=null');
	expect(res.summary).toBe('right');
	expect(res.left.h).toBe(left);
	expect(res.right.h).toBe(await head(docId));
	const d = res.details.rightChanges.tableDeltas.Items;
	expect(d.updateRows).toEqual([1]);
	expect(d.removeRows).toEqual([2]);
	expect(d.addRows).toEqual([]);
	expect(d.columnDeltas.Qty).toEqual({ '1': [[3], [4]], '2': [[5], null] });
	expect(d.columnDeltas.Name).toEqual({ '2': [['pear'], null] });
	expect(d.columnDeltas.manualSort['2'][1]).toBeNull();
	expect(d.columnDeltas.Due).toBeUndefined(); // empty in the removed row: absent
});

test('/compare: a removal leaves out the columns that held their default in every row it removed', async () => {
	const docId = itemsDoc('Defaults', [
		{ Name: 'a', Qty: 1 },
		{},
		{},
		{ Name: 'd' },
		{ Name: null },
	]);
	const left = await head(docId);
	await api.post(`${records(docId)}/delete`, [2]); // all defaults, alone
	await api.post(`${records(docId)}/delete`, [3, 4]); // with a row that has a Name
	await api.post(`${records(docId)}/delete`, [5]); // a Text cell holding null is not its default
	const cells = async (from: string, to: string) => {
		const res = await api.get<Compare>(
			`/api/docs/${docId}/compare?left=${from}&right=${to}&maxRows=null`,
		);
		expect(res.status).toBe(200);
		const { columnDeltas } = res.json.details.rightChanges.tableDeltas.Items;
		return Object.keys(columnDeltas).sort();
	};
	expect(await cells(left, 'HEAD~2')).toEqual(['manualSort']);
	const both = await api.get<Compare>(
		`/api/docs/${docId}/compare?left=HEAD~2&right=HEAD~1&maxRows=null`,
	);
	const d = both.json.details.rightChanges.tableDeltas.Items;
	expect(d.removeRows).toEqual([3, 4]);
	expect(d.columnDeltas.Name).toEqual({ '3': [[''], null], '4': [['d'], null] });
	expect(d.columnDeltas.Qty).toBeUndefined();
	expect(await cells('HEAD~1', 'HEAD')).toEqual(['Name', 'manualSort']);
});

test('/compare: a row edited, then removed in the range keeps its values at left', async () => {
	const docId = itemsDoc('Edited then removed', [{ Name: 'a', Qty: 1 }]);
	const left = await head(docId);
	await api.patch(records(docId), { records: [{ id: 1, fields: { Name: 'b', Qty: 999 } }] });
	await api.post(`${records(docId)}/delete`, [1]);
	const d = (await compare(docId, left, '&maxRows=null')).details.rightChanges.tableDeltas.Items;
	expect(d.removeRows).toEqual([1]);
	expect(d.updateRows).toEqual([]);
	expect(d.columnDeltas.Name).toEqual({ '1': [['a'], null] });
	expect(d.columnDeltas.Qty).toEqual({ '1': [[1], null] });
	// the deleting action alone has the values the row had when it was removed
	const last = await api.get<Compare>(
		`/api/docs/${docId}/compare?left=HEAD~1&right=HEAD&maxRows=null`,
	);
	expect(last.json.details.rightChanges.tableDeltas.Items.columnDeltas.Qty).toEqual({
		'1': [[999], null],
	});
});

test('/compare reports net changes: added then removed is gone, added then edited is an add', async () => {
	const docId = itemsDoc('Net', [{ Name: 'a', Qty: 1 }]);
	const left = await head(docId);
	const added = await api.post<{ records: Array<{ id: number }> }>(records(docId), {
		records: [{ fields: { Name: 'b', Qty: 2 } }, { fields: { Name: 'c', Qty: 3 } }],
	});
	const [b, c] = added.json.records.map((r) => r.id);
	await api.patch(records(docId), { records: [{ id: b, fields: { Qty: 20 } }] });
	await api.post(`${records(docId)}/delete`, [c]);
	const d = (await compare(docId, left, '&maxRows=null')).details.rightChanges.tableDeltas.Items;
	expect(d.addRows).toEqual([b]);
	expect(d.removeRows).toEqual([]);
	expect(d.updateRows).toEqual([]);
	expect(d.columnDeltas.Qty).toEqual({ [b]: [null, [20]] });
});

test('/compare: a reused id is in removeRows and addRows (old values before, new ones after)', async () => {
	const docId = itemsDoc('Reuse', [
		{ Name: 'a', Qty: 1 },
		{ Name: 'b', Qty: 2 },
	]);
	const left = await head(docId);
	await api.post(`${records(docId)}/delete`, [2]);
	const added = await api.post<{ records: Array<{ id: number }> }>(records(docId), {
		records: [{ fields: { Name: 'z', Qty: 9 } }],
	});
	expect(added.json.records[0].id).toBe(2);
	const d = (await compare(docId, left, '&maxRows=null')).details.rightChanges.tableDeltas.Items;
	expect(d.removeRows).toEqual([2]);
	expect(d.addRows).toEqual([2]);
	expect(d.columnDeltas.Name['2']).toEqual([['b'], ['z']]);
	expect(d.columnDeltas.Qty['2']).toEqual([[2], [9]]);
});

test('/compare: a formula column puts added rows with a non-default value in updateRows too', async () => {
	const docId = emu.addDoc(wsId, { name: 'Formula' }).id;
	emu.addTable(docId, 'Items', [
		{ id: 'Qty', type: 'Numeric' },
		{ id: 'Double', type: 'Numeric', isFormula: true, formula: '$Qty * 2' },
	]);
	const left = await head(docId);
	const added = await api.post<{ records: Array<{ id: number }> }>(records(docId), {
		records: [{ fields: { Qty: 0 } }, { fields: { Qty: 5 } }],
	});
	const [zero, five] = added.json.records.map((r) => r.id);
	const d = (await compare(docId, left, '&maxRows=null')).details.rightChanges.tableDeltas.Items;
	expect(d.addRows).toEqual([zero, five]);
	expect(d.updateRows).toEqual([five]);
	expect(d.columnDeltas.Double[five][1]).toEqual([10]);
});

test('/compare maxRows: a bulk action over more rows keeps the first N−1 rows and the last one', async () => {
	const docId = itemsDoc('MaxRows', []);
	const left = await head(docId);
	const rows = Array.from({ length: 25 }, (_, i) => ({ fields: { Name: `r${i + 1}`, Qty: i } }));
	const added = await api.post<{ records: Array<{ id: number }> }>(records(docId), {
		records: rows,
	});
	const ids = added.json.records.map((r) => r.id);
	const capped = (await compare(docId, left)).details.rightChanges.tableDeltas.Items;
	expect(capped.addRows).toEqual(ids);
	expect(Object.keys(capped.columnDeltas.Name).map(Number)).toEqual([...ids.slice(0, 9), ids[24]]);
	expect(capped.mayBeIncomplete).toBe(true);
	const full = (await compare(docId, left, '&maxRows=null')).details.rightChanges.tableDeltas.Items;
	expect(Object.keys(full.columnDeltas.Name)).toHaveLength(25);
	expect(full.mayBeIncomplete).toBeUndefined();
	const big = (await compare(docId, left, '&maxRows=100')).details.rightChanges.tableDeltas.Items;
	expect(Object.keys(big.columnDeltas.Name)).toHaveLength(25);
	const zero = await api.get<ErrorBody>(`/api/docs/${docId}/compare?left=${left}&maxRows=0`);
	expect(zero.status).toBe(400);
	expect(zero.json.error).toBe('maxRows parameter is invalid: 0');
	const text = await api.get<ErrorBody>(`/api/docs/${docId}/compare?left=${left}&maxRows=abc`);
	expect(text.status).toBe(400);
	expect(text.json.error).toBe('maxRows parameter cannot be understood as an integer: abc');
});

test('/compare errors: unknown hash, left after right; pruned history forgets old hashes', async () => {
	const docId = itemsDoc('Errors', [{ Name: 'a', Qty: 1 }]);
	const old = await head(docId);
	await api.patch(records(docId), { records: [{ id: 1, fields: { Qty: 2 } }] });
	await api.patch(records(docId), { records: [{ id: 1, fields: { Qty: 3 } }] });
	const unknown = await api.get<ErrorBody>(
		`/api/docs/${docId}/compare?left=${'0'.repeat(64)}&right=HEAD`,
	);
	expect(unknown.status).toBe(500);
	expect(unknown.json.error).toBe('Cannot read hash');
	const reversed = await api.get<ErrorBody>(`/api/docs/${docId}/compare?left=HEAD&right=${old}`);
	expect(reversed.status).toBe(500);
	expect(reversed.json.error).toBe('Comparisons currently require left to be an ancestor of right');
	expect(
		(await compare(docId, 'HEAD~1')).details.rightChanges.tableDeltas.Items.updateRows,
	).toEqual([1]);

	const pruned = await api.post(`/api/docs/${docId}/states/remove`, { keep: 1 });
	expect(pruned.status).toBe(200);
	const states = await api.get<States>(`/api/docs/${docId}/states`);
	expect(states.json.states).toHaveLength(1);
	const gone = await api.get<ErrorBody>(`/api/docs/${docId}/compare?left=${old}&right=HEAD`);
	expect(gone.status).toBe(500);
	expect(gone.json.error).toBe('Cannot read hash');
});

test('/compare is 403 for a viewer an access rule restricts; /states stays open', async () => {
	const docId = itemsDoc('Restricted', [{ Name: 'a', Qty: 1 }]);
	emu.setAccess('doc', docId, 'hv@example.com', 'viewers');
	const open = await viewer.get(`/api/docs/${docId}/compare?left=HEAD&right=HEAD`);
	expect(open.status).toBe(200);
	emu.restrictHistory(docId); // Qty hidden from non-owners
	const denied = await viewer.get<ErrorBody>(`/api/docs/${docId}/compare?left=HEAD&right=HEAD`);
	expect(denied.status).toBe(403);
	expect(denied.json.error).toBe('insufficient access');
	expect((await viewer.get(`/api/docs/${docId}/states`)).status).toBe(200);
	expect((await api.get(`/api/docs/${docId}/compare?left=HEAD&right=HEAD`)).status).toBe(200);
});

test("the document's updatedAt moves after a write, and reading it adds no state", async () => {
	const docId = itemsDoc('UpdatedAt', [{ Name: 'a', Qty: 1 }]);
	const before = (await api.get<{ updatedAt: string }>(`/api/docs/${docId}`)).json.updatedAt;
	const h = await head(docId);
	expect(await head(docId)).toBe(h);
	await sleep(20);
	await api.patch(records(docId), { records: [{ id: 1, fields: { Qty: 2 } }] });
	// grist-core pushes updatedAt to the home database at most once a minute
	const now = await waitFor(
		"the document's updatedAt moved",
		async () => (await api.get<{ updatedAt: string }>(`/api/docs/${docId}`)).json.updatedAt,
		(updatedAt) => updatedAt !== before,
		{ timeoutMs: realGrist ? 70_000 : 1000, intervalMs: 250 },
	);
	expect(now).not.toBe(before);
	expect(Date.parse(now)).toBeGreaterThan(Date.parse(before));
}, 80_000);
