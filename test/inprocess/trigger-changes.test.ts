/**
 * Grist Trigger's change events (Row Updated, Row Deleted, Row Added, Updated or Deleted; Grist's document history)
 * and the updatedAt check before every poll, in an active workflow (n8n-core's poller) against the
 * emulator, or a real Grist with `npm run test:real`.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { docTable } from '../harness/builders';
import { createPoller, type Poller } from '../harness/inprocess';
import { realGrist } from '../harness/target';
import { waitFor } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
const VIEWER_KEY = `viewer-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let wsId: number;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: USER_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	wsId = emu.addWorkspace(org.id, 'Main', { owner: 'owner@example.com' }).id;
	docId = newDoc('Changes doc');
	emu.addUser({ email: 'viewer@example.com', name: 'Viewer', apiKey: VIEWER_KEY });
});

afterEach(() => emu.clearFaults());

afterAll(async () => {
	await emu?.close();
});

/** A fresh table: Name (Text), Status (Choice), Qty (Numeric), Day (Date). */
function newTable(doc = docId): string {
	tableSeq += 1;
	const tableId = `Goods${tableSeq}`;
	emu.addTable(doc, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Done'] } },
		{ id: 'Qty', type: 'Numeric' },
		{ id: 'Day', type: 'Date' },
	]);
	return tableId;
}

function newDoc(name: string): string {
	return emu.addDoc(wsId, { name, owner: 'owner@example.com' }).id;
}

/**
 * A poller; with `readDocument` each trigger poll goes past the updatedAt check (as if the
 * document's updatedAt had moved: a real Grist pushes it up to 60 s after a change).
 */
function poller(
	tableId: string,
	params: IDataObject,
	opts: { doc?: string; key?: string; readDocument?: boolean } = {},
): Poller {
	const p = createPoller({
		node: new GristTrigger(),
		parameters: { ...docTable(opts.doc ?? docId, tableId), ...params },
		credentials: { apiKey: opts.key ?? USER_KEY, url: emu.url },
	});
	if (opts.readDocument === false) return p;
	const poll = p.poll.bind(p);
	p.poll = async (mode) => {
		if (mode === 'trigger') delete p.nodeStaticData.updatedAt;
		return await poll(mode);
	};
	return p;
}

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
	const res = await fetch(`${emu.url}/o/team/api/docs/${path}`, {
		method,
		headers: { Authorization: `Bearer ${USER_KEY}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(res.status).toBe(200);
	return await res.json();
}

const update = (t: string, records: Array<{ id: number; fields: Record<string, unknown> }>) =>
	api('PATCH', `${docId}/tables/${t}/records`, { records });

/** The `_change` of an item. */
const change = (j: IDataObject) => j._change as IDataObject;

function json(result: INodeExecutionData[][] | null): IDataObject[] {
	if (result === null) return [];
	expect(result).toHaveLength(1);
	return result[0].map((item) => item.json);
}

describe('Row Added, Updated or Deleted (anyChange)', () => {
	it('emits added, updated (with previous values) and deleted rows once, in id order', async () => {
		const t = newTable();
		const [a, b, c] = emu.addRecords(docId, t, [
			{ Name: 'a', Status: 'Open', Qty: 1 },
			{ Name: 'b', Status: 'Open', Qty: 2, Day: 1704844800 },
			{ Name: 'c', Status: 'Open', Qty: 3 },
		]);
		const p = poller(t, { event: 'anyChange' });
		expect(await p.poll('trigger')).toBeNull(); // the baseline
		expect(p.nodeStaticData.cursor).toEqual({
			kind: 'anyChange',
			h: expect.stringMatching(/^[0-9a-f]{64}$/),
		});

		await update(t, [{ id: a, fields: { Status: 'Done', Qty: 10 } }]);
		emu.removeRecords(docId, t, [b]);
		const [d] = emu.addRecords(docId, t, [{ Name: 'd', Status: 'Open', Qty: 4 }]);
		const first = json(await p.poll('trigger'));
		// one shape for every change: id first, the cells, _change last
		const keys = ['id', 'Name', 'Status', 'Qty', 'Day', '_change'];
		expect(first.map((j) => Object.keys(j))).toEqual([keys, keys, keys]);
		expect(first).toEqual([
			{
				id: a,
				Name: 'a',
				Status: 'Done',
				Qty: 10,
				Day: null,
				_change: {
					type: 'updated',
					previous: { Status: 'Open', Qty: 1 },
					changedColumns: ['Status', 'Qty'],
				},
			},
			{ id: b, Name: 'b', Status: 'Open', Qty: 2, Day: '2024-01-10', _change: { type: 'deleted' } },
			{ id: d, Name: 'd', Status: 'Open', Qty: 4, Day: null, _change: { type: 'added' } },
		]);
		expect(await p.poll('trigger')).toBeNull();
		// a row changed back and forth between two polls is reported with its net change
		await update(t, [{ id: c, fields: { Qty: 30 } }]);
		await update(t, [{ id: c, fields: { Qty: 31 } }]);
		expect(json(await p.poll('trigger'))).toEqual([
			{
				id: c,
				Name: 'c',
				Status: 'Open',
				Qty: 31,
				Day: null,
				_change: { type: 'updated', previous: { Qty: 3 }, changedColumns: ['Qty'] },
			},
		]);
	});

	it('a reused id: the old row deleted, then the new row added; raw values without Simplify', async () => {
		const t = newTable();
		const [, top] = emu.addRecords(docId, t, [{ Name: 'a' }, { Name: 'b', Day: 1704844800 }]);
		const p = poller(t, { event: 'anyChange', simplify: false });
		await p.poll('trigger');
		emu.removeRecords(docId, t, [top]);
		const [reused] = emu.addRecords(docId, t, [{ Name: 'z' }]);
		expect(reused).toBe(top);
		expect(json(await p.poll('trigger'))).toEqual([
			{
				id: top,
				fields: { Name: 'b', Status: '', Qty: 0, Day: 1704844800 },
				_change: { type: 'deleted' },
			},
			{ id: top, fields: { Name: 'z', Status: '', Qty: 0, Day: null }, _change: { type: 'added' } },
		]);
	});

	it('survives a restart: what n8n saved with the last emitting poll is where it goes on', async () => {
		const t = newTable();
		const [a] = emu.addRecords(docId, t, [{ Name: 'a', Qty: 1 }]);
		const p = poller(t, { event: 'anyChange' });
		await p.poll('trigger');
		await update(t, [{ id: a, fields: { Qty: 2 } }]);
		expect(json(await p.poll('trigger')).map((j) => change(j).type)).toEqual(['updated']);
		p.restart();
		const [b] = emu.addRecords(docId, t, [{ Name: 'b' }]);
		expect(json(await p.poll('trigger')).map((j) => [change(j).type, j.id])).toEqual([
			['added', b],
		]);
		p.restart();
		expect(await p.poll('trigger')).toBeNull();
	});

	it('follows a table renamed in Grist, in that poll and the next ones', async () => {
		const t = newTable();
		const [a] = emu.addRecords(docId, t, [{ Name: 'a', Qty: 1 }]);
		const p = poller(t, { event: 'anyChange' });
		await p.poll('trigger');
		const renamed = `${t}Renamed`;
		await api('POST', `${docId}/apply`, [['RenameTable', t, renamed]]);
		await api('PATCH', `${docId}/tables/${renamed}/records`, {
			records: [{ id: a, fields: { Qty: 2 } }],
		});
		expect(
			json(await p.poll('trigger')).map((j) => [change(j).type, j.id, change(j).previous]),
		).toEqual([['updated', a, { Qty: 1 }]]);
		await api('PATCH', `${docId}/tables/${renamed}/records`, {
			records: [{ id: a, fields: { Qty: 3 } }],
		});
		expect(
			json(await p.poll('trigger')).map((j) => [change(j).type, j.id, change(j).previous]),
		).toEqual([['updated', a, { Qty: 2 }]]);
	});
});

describe('Row Updated', () => {
	it('emits updates only, and with Watched Columns only those that change a watched column', async () => {
		const t = newTable();
		const [a, b] = emu.addRecords(docId, t, [
			{ Name: 'a', Status: 'Open' },
			{ Name: 'b', Status: 'Open' },
		]);
		const p = poller(t, { event: 'rowUpdated', options: { watchedColumns: ['Status'] } });
		await p.poll('trigger');
		await update(t, [{ id: a, fields: { Name: 'renamed' } }]);
		emu.addRecords(docId, t, [{ Name: 'new' }]);
		expect(await p.poll('trigger')).toBeNull();
		await update(t, [{ id: b, fields: { Status: 'Done', Name: 'bb' } }]);
		expect(json(await p.poll('trigger'))).toEqual([
			{
				id: b,
				Name: 'bb',
				Status: 'Done',
				Qty: 0,
				Day: null,
				_change: {
					type: 'updated',
					previous: { Name: 'b', Status: 'Open' },
					changedColumns: ['Name', 'Status'],
				},
			},
		]);
	});
});

describe('Row Deleted', () => {
	it("emits the deleted rows' last values, also for a bulk delete above Grist's default 10 rows", async () => {
		const t = newTable();
		const ids = emu.addRecords(
			docId,
			t,
			Array.from({ length: 15 }, (_, i) => ({ Name: `r${i + 1}`, Qty: i + 1 })),
		);
		const p = poller(t, { event: 'rowDeleted' });
		await p.poll('trigger');
		await update(t, [{ id: ids[0], fields: { Qty: 100 } }]);
		await api('POST', `${docId}/tables/${t}/records/delete`, ids.slice(1));
		const out = json(await p.poll('trigger'));
		expect(out).toHaveLength(14);
		expect(out.map((j) => change(j).type)).toEqual(Array(14).fill('deleted'));
		expect(out[6]).toEqual({
			id: ids[7],
			Name: 'r8',
			Status: '',
			Qty: 8,
			Day: null,
			_change: { type: 'deleted' },
		});
		expect(out.some((j) => 'unknownColumns' in j)).toBe(false);
	});

	it('a row edited and then deleted between two polls: the values it had when it was deleted', async () => {
		const t = newTable();
		const [a, b, c, d] = emu.addRecords(docId, t, [
			{ Name: 'a', Status: 'Open', Qty: 1 },
			{ Name: 'b', Qty: 2 },
			{ Name: 'c', Qty: 3 },
			{ Name: 'd', Qty: 4 },
		]);
		const p = poller(t, { event: 'rowDeleted' });
		await p.poll('trigger');
		await update(t, [{ id: a, fields: { Name: 'a-renamed', Status: 'Done', Qty: 999 } }]);
		await update(t, [{ id: c, fields: { Qty: 30 } }]);
		await api('POST', `${docId}/tables/${t}/records/delete`, [a]);
		await update(t, [{ id: b, fields: { Qty: 20 } }]);
		await update(t, [{ id: b, fields: { Name: '', Qty: 0 } }]);
		await api('POST', `${docId}/tables/${t}/records/delete`, [b, d]);
		await update(t, [{ id: c, fields: { Qty: 31 } }]);
		emu.clearLog();
		expect(json(await p.poll('trigger'))).toEqual([
			{
				id: a,
				Name: 'a-renamed',
				Status: 'Done',
				Qty: 999,
				Day: null,
				_change: { type: 'deleted' },
			},
			{ id: b, Name: '', Status: '', Qty: 0, Day: null, _change: { type: 'deleted' } },
			{ id: d, Name: 'd', Status: '', Qty: 4, Day: null, _change: { type: 'deleted' } },
		]);
		// 7 actions, two of them deletions: /states, the bisection's probes, one compare each
		const compares = emu.log.filter((e) => e.apiPath.endsWith('/compare'));
		expect(emu.log.filter((e) => e.apiPath.endsWith('/states'))).toHaveLength(1);
		expect(compares.filter((e) => e.query.maxRows === '1').length).toBeLessThanOrEqual(6);
		expect(compares.filter((e) => e.query.maxRows !== '1')).toHaveLength(3);
		expect(await p.poll('trigger')).toBeNull();
	});

	it("a deleted row's empty cells are its columns' empty values, deleted alone or with others", async () => {
		const tableId = `Kinds${++tableSeq}`;
		emu.addTable(docId, tableId, [
			{ id: 'Name', type: 'Text' },
			{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open'] } },
			{ id: 'Score', type: 'Int' },
			{ id: 'Amount', type: 'Numeric' },
			{ id: 'Due', type: 'Date' },
			{ id: 'Ok', type: 'Bool' },
			{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['x'] } },
		]);
		const values = {
			Name: 'n',
			Status: 'Open',
			Score: 1,
			Amount: 2.5,
			Due: 1704844800,
			Ok: true,
			Tags: ['L', 'x'],
		};
		const [empty, full, empty2] = emu.addRecords(docId, tableId, [{}, values, {}]);
		const defaults = {
			Name: '',
			Status: '',
			Score: 0,
			Amount: 0,
			Due: null,
			Ok: false,
			Tags: null,
		};
		const p = poller(tableId, { event: 'rowDeleted', simplify: false });
		await p.poll('trigger');
		// alone: Grist's history lists none of its cells but manualSort
		await api('POST', `${docId}/tables/${tableId}/records/delete`, [empty]);
		expect(json(await p.poll('trigger'))).toEqual([
			{ id: empty, fields: defaults, _change: { type: 'deleted' } },
		]);
		// together with a row of values: every cell is listed, and the output is the same
		await api('POST', `${docId}/tables/${tableId}/records/delete`, [full, empty2]);
		expect(json(await p.poll('trigger'))).toEqual([
			{ id: full, fields: values, _change: { type: 'deleted' } },
			{ id: empty2, fields: defaults, _change: { type: 'deleted' } },
		]);
	});

	it('the deleting action no longer in the history Grist lists: the values of the previous poll, marked so', async () => {
		const t = newTable();
		const [a] = emu.addRecords(docId, t, [{ Name: 'a', Qty: 1 }]);
		const p = poller(t, { event: 'rowDeleted' });
		await p.poll('trigger');
		await update(t, [{ id: a, fields: { Qty: 2 } }]);
		await api('POST', `${docId}/tables/${t}/records/delete`, [a]);
		emu.fault({
			method: 'GET',
			path: `/api/docs/${docId}/states`,
			status: 200,
			body: { states: [] },
		});
		expect(json(await p.poll('trigger'))).toEqual([
			{
				id: a,
				Name: 'a',
				Status: '',
				Qty: 1,
				Day: null,
				_change: { type: 'deleted', fieldsAsOfLastPoll: true },
			},
		]);
	});

	it('manual run without a deletion in the history: the latest record as a stand-in that says so; no cursor', async () => {
		const t = newTable();
		const [, b] = emu.addRecords(docId, t, [{ Name: 'a' }, { Name: 'b', Qty: 2 }]);
		const p = poller(t, { event: 'rowDeleted' });
		expect(json(await p.poll('manual'))).toEqual([
			{
				id: b,
				Name: 'b',
				Status: '',
				Qty: 2,
				Day: null,
				_change: {
					type: 'deleted',
					standIn:
						"A stand-in, not a real change: the document's history in Grist holds no deletion of a row of this table (that matches the Filter). This is the table's latest row, which is not deleted.",
				},
			},
		]);
		expect(p.nodeStaticData.cursor).toBeUndefined();
	});
});

describe('Fetch test event (manual run): the latest real change from the history', () => {
	it('Row Updated: the latest update with its previous values, also when later actions added rows or changed other tables', async () => {
		const t = newTable();
		const [a, b] = emu.addRecords(docId, t, [
			{ Name: 'a', Qty: 1 },
			{ Name: 'b', Qty: 2 },
		]);
		await update(t, [{ id: a, fields: { Qty: 10 } }]);
		await update(t, [{ id: b, fields: { Name: 'bee', Status: 'Done' } }]);
		emu.addRecords(docId, t, [{ Name: 'c' }, { Name: 'd' }]);
		emu.addRecords(docId, newTable(), [{ Name: 'elsewhere' }]);
		const p = poller(t, { event: 'rowUpdated' });
		expect(json(await p.poll('manual'))).toEqual([
			{
				id: b,
				Name: 'bee',
				Status: 'Done',
				Qty: 2,
				Day: null,
				_change: {
					type: 'updated',
					previous: { Name: 'b', Status: '' },
					changedColumns: ['Name', 'Status'],
				},
			},
		]);
		expect(p.nodeStaticData.cursor).toBeUndefined();
	});

	it('Row Updated with a Filter: the latest update of a matching row', async () => {
		const t = newTable();
		const [a, b] = emu.addRecords(docId, t, [
			{ Name: 'a', Status: 'Open', Qty: 1 },
			{ Name: 'b', Status: 'Done', Qty: 2 },
		]);
		await update(t, [{ id: a, fields: { Qty: 5 } }]);
		await update(t, [{ id: b, fields: { Qty: 6 } }]);
		const p = poller(t, {
			event: 'rowUpdated',
			filterType: 'json',
			filterJson: JSON.stringify({ Status: ['Open'] }),
		});
		expect(json(await p.poll('manual')).map((j) => [j.id, change(j).previous])).toEqual([
			[a, { Qty: 1 }],
		]);
	});

	it('Row Deleted: the latest deletion with the values the row had when it was deleted', async () => {
		const t = newTable();
		const [a, b] = emu.addRecords(docId, t, [
			{ Name: 'a', Qty: 1 },
			{ Name: 'b', Qty: 2 },
		]);
		emu.removeRecords(docId, t, [b]);
		await update(t, [{ id: a, fields: { Name: 'a2', Qty: 7 } }]);
		emu.removeRecords(docId, t, [a]);
		emu.addRecords(docId, t, [{ Name: 'c' }]);
		const p = poller(t, { event: 'rowDeleted' });
		expect(json(await p.poll('manual'))).toEqual([
			{ id: a, Name: 'a2', Status: '', Qty: 7, Day: null, _change: { type: 'deleted' } },
		]);
	});

	it('Row Added, Updated or Deleted: the latest change of any kind', async () => {
		const t = newTable();
		const [a] = emu.addRecords(docId, t, [{ Name: 'a', Qty: 1 }]);
		await update(t, [{ id: a, fields: { Qty: 3 } }]);
		const p = poller(t, { event: 'anyChange' });
		expect(json(await p.poll('manual'))).toEqual([
			{
				id: a,
				Name: 'a',
				Status: '',
				Qty: 3,
				Day: null,
				_change: { type: 'updated', previous: { Qty: 1 }, changedColumns: ['Qty'] },
			},
		]);
		const [b] = emu.addRecords(docId, t, [{ Name: 'b' }]);
		expect(json(await p.poll('manual')).map((j) => [j.id, change(j).type])).toEqual([[b, 'added']]);
	});

	it('Row Updated on a table whose rows were only added: a stand-in that says so', async () => {
		const t = newTable();
		const [, b] = emu.addRecords(docId, t, [{ Name: 'a' }, { Name: 'b', Qty: 2 }]);
		const p = poller(t, { event: 'rowUpdated' });
		expect(json(await p.poll('manual'))).toEqual([
			{
				id: b,
				Name: 'b',
				Status: '',
				Qty: 2,
				Day: null,
				_change: {
					type: 'updated',
					previous: {},
					changedColumns: [],
					standIn:
						"A stand-in, not a real change: the document's history in Grist holds no update of a row of this table (that matches the Filter). This is the table's latest row; a real item has the changed columns' previous values.",
				},
			},
		]);
	});
});

describe('history lost or not readable', () => {
	it('pruned history: stops with an error and keeps the cursor; "Start Again From Now" goes on', async () => {
		const doc = newDoc('Pruned doc');
		const t = newTable(doc);
		const [a] = emu.addRecords(doc, t, [{ Name: 'a', Qty: 1 }]);
		const p = poller(t, { event: 'anyChange' }, { doc });
		await p.poll('trigger');
		const cursor = p.nodeStaticData.cursor;
		await api('PATCH', `${doc}/tables/${t}/records`, {
			records: [{ id: a, fields: { Qty: 2 } }],
		});
		await api('POST', `${doc}/states/remove`, { keep: 1 });
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe(
			"Grist no longer has the document's history from this trigger's last poll: the changes since then cannot be listed",
		);
		expect(error?.description).toContain('If Change History Is Lost');
		expect(p.nodeStaticData.cursor).toEqual(cursor);

		const q = poller(t, { event: 'anyChange', options: { onLostHistory: 'restart' } }, { doc });
		q.nodeStaticData.key = p.nodeStaticData.key;
		q.nodeStaticData.cursor = cursor;
		expect(await q.poll('trigger')).toBeNull();
		expect(q.nodeStaticData.cursor).not.toEqual(cursor);
		await api('PATCH', `${doc}/tables/${t}/records`, {
			records: [{ id: a, fields: { Qty: 3 } }],
		});
		expect(json(await q.poll('trigger')).map((j) => [change(j).type, change(j).previous])).toEqual([
			['updated', { Qty: 2 }],
		]);
	});

	it('a key an access rule restricts: /compare 403 becomes an error saying what to use', async () => {
		const doc = newDoc('Restricted doc');
		const t = newTable(doc);
		emu.addRecords(doc, t, [{ Name: 'a', Qty: 1 }]);
		emu.setAccess('doc', doc, 'viewer@example.com', 'viewers');
		emu.restrictHistory(doc);
		const p = poller(t, { event: 'rowDeleted' }, { doc, key: VIEWER_KEY });
		expect(await p.poll('trigger')).toBeNull(); // /states is open to the viewer
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe(
			"The credential's user cannot read the whole document, which Grist's change history needs",
		);
		expect(error?.description).toContain('owner');
	});
});

describe('idle polls: the updatedAt check', () => {
	const docPath = () => `/api/docs/${docId}`;

	it.each([
		['anyChange', {}],
		['rowAdded', {}],
	])(
		'%s: a poll while nothing changed reads only GET /api/docs/{doc}',
		async (event, extra) => {
			const t = newTable();
			emu.addRecords(docId, t, [{ Name: 'a' }]);
			const p = poller(t, { event, ...extra }, { readDocument: false });
			await p.poll('trigger');
			for (let i = 0; i < 3; i++) {
				emu.clearLog();
				expect(await p.poll('trigger')).toBeNull();
				expect(emu.log.map((e) => `${e.method} ${e.apiPath.replace(/^\/o\/[^/]+/, '')}`)).toEqual([
					`GET ${docPath()}`,
				]);
			}
			// a change moves updatedAt (on a real Grist up to 60 s later): the next poll reads the document
			const [b] = emu.addRecords(docId, t, [{ Name: 'b' }]);
			const out = await waitFor(
				'a poll emitted the added row',
				async () => json(await p.poll('trigger')),
				(rows) => rows.length > 0,
				{ timeoutMs: realGrist ? 75_000 : 2000, intervalMs: 1000 },
			);
			expect(out.map((j) => j.id)).toEqual([b]);
			emu.clearLog();
			expect(await p.poll('trigger')).toBeNull();
			expect(emu.log).toHaveLength(1);
		},
		90_000,
	);
});
