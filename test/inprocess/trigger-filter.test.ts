/**
 * The Grist Trigger's Filter (None / Conditions / JSON, the vocabulary of Get Many) on its five
 * events, and the one output shape of every event (`_change`, key order), in an active workflow
 * (n8n-core's poller) against the emulator, or a real Grist with `npm run test:real`.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { docTable } from '../harness/builders';
import { emittedJson } from '../harness/emitted';
import { createPoller, type Poller } from '../harness/inprocess';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: USER_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	const wsId = emu.addWorkspace(org.id, 'Main', { owner: 'owner@example.com' }).id;
	docId = emu.addDoc(wsId, { name: 'Filter doc', owner: 'owner@example.com' }).id;
	emu.addTable(docId, 'People', [{ id: 'Name', type: 'Text' }]);
	emu.addRecords(docId, 'People', [{ Name: 'Ann' }, { Name: 'Bob' }]);
});

afterAll(async () => {
	await emu?.close();
});

/** A fresh table: Name (Text), Status (Choice), Qty (Numeric), Owner (Ref:People), Updated (DateTime). */
function newTable(): string {
	tableSeq += 1;
	const tableId = `Orders${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Done'] } },
		{ id: 'Qty', type: 'Numeric' },
		{ id: 'Owner', type: 'Ref:People', visibleCol: 'Name' },
		{ id: 'Updated', type: 'DateTime:UTC' },
	]);
	return tableId;
}

/** A poller whose trigger polls go past the updatedAt check (as if the document had changed). */
function poller(tableId: string, params: IDataObject): Poller {
	const p = createPoller({
		node: new GristTrigger(),
		parameters: { ...docTable(docId, tableId), ...params },
		credentials: { apiKey: USER_KEY, url: emu.url },
	});
	const poll = p.poll.bind(p);
	p.poll = async (mode) => {
		if (mode === 'trigger') delete p.nodeStaticData.updatedAt;
		return await poll(mode);
	};
	return p;
}

async function patch(tableId: string, records: Array<{ id: number; fields: IDataObject }>) {
	const res = await fetch(`${emu.url}/o/team/api/docs/${docId}/tables/${tableId}/records`, {
		method: 'PATCH',
		headers: { Authorization: `Bearer ${USER_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ records }),
	});
	expect(res.status).toBe(200);
}

/** Which requests since the last call went to /sql and which to /records. */
function reads(): string[] {
	const out = emu.log
		.map((e) => e.apiPath)
		.filter((p) => p.endsWith('/sql') || p.endsWith('/records'))
		.map((p) => (p.endsWith('/sql') ? 'sql' : 'records'));
	emu.clearLog();
	return out;
}

const conditions = (list: IDataObject[], combine = 'and'): IDataObject => ({
	filterType: 'conditions',
	conditions: { conditions: list },
	combine,
});

describe('Filter → Conditions on Row Added', () => {
	it("Is One Of (combined with AND) goes with the records reads as Grist's filter", async () => {
		const t = newTable();
		const p = poller(t, conditions([{ column: 'Status', match: 'anyOf', values: 'Open' }]));
		expect(await p.poll('trigger')).toBeNull();
		emu.addRecords(docId, t, [
			{ Name: 'a', Status: 'Open' },
			{ Name: 'b', Status: 'Done' },
			{ Name: 'c', Status: 'Open' },
		]);
		emu.clearLog();
		expect(emittedJson(await p.poll('trigger')).map((j) => j.Name)).toEqual(['a', 'c']);
		const windowRead = emu.log.find((e) => e.apiPath.endsWith('/records') && e.query.filter);
		expect(JSON.parse(String(windowRead?.query.filter))).toEqual({
			Status: ['Open'],
			id: [1, 2, 3],
		});
	});

	it('other conditions (OR, comparisons, text) run as one SELECT per read, as Get Many runs them', async () => {
		const t = newTable();
		const p = poller(
			t,
			conditions(
				[
					{ column: 'Name', match: 'startsWith', values: 'A', ignoreCase: true },
					{ column: 'Qty', match: 'gt', values: '5' },
				],
				'or',
			),
		);
		await p.poll('trigger');
		emu.addRecords(docId, t, [
			{ Name: 'apple', Qty: 1 },
			{ Name: 'pear', Qty: 2 },
			{ Name: 'plum', Qty: 9 },
		]);
		reads();
		const out = emittedJson(await p.poll('trigger'));
		expect(out.map((j) => [j.Name, j._change])).toEqual([
			['apple', { type: 'added' }],
			['plum', { type: 'added' }],
		]);
		// the idle check, the top id (unfiltered), the window through /sql
		expect(reads()).toEqual(['sql', 'records', 'sql']);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('the manual sample is the latest matching row, in the shape of the items', async () => {
		const t = newTable();
		emu.addRecords(docId, t, [
			{ Name: 'x1', Qty: 10 },
			{ Name: 'x2', Qty: 1 },
		]);
		const p = poller(t, conditions([{ column: 'Qty', match: 'gte', values: '10' }]));
		const sample = emittedJson(await p.poll('manual'));
		expect(sample).toEqual([
			{
				id: 1,
				Name: 'x1',
				Status: '',
				Qty: 10,
				Owner: 0,
				Updated: null,
				_change: { type: 'added' },
			},
		]);
	});

	it('a condition that cannot run fails the activation, saying what to pick', async () => {
		const t = newTable();
		const p = poller(t, conditions([{ column: 'Nope', match: 'gt', values: '1' }]));
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toContain('Condition 1: the table has no column "Nope"');
		expect(error?.description).toContain(
			"The table's columns are: Name, Status, Qty, Owner, Updated.",
		);
	});
});

describe('a reference given by the name its row shows, as in Get Many', () => {
	it('Row Added and Row Updated match the rows that point at it', async () => {
		const t = newTable();
		const [x] = emu.addRecords(docId, t, [{ Name: 'x', Owner: 1 }]);
		const bob = conditions([{ column: 'Owner', match: 'anyOf', values: 'Bob' }]);
		const added = poller(t, bob);
		const updated = poller(t, { event: 'rowUpdated', ...bob });
		for (const p of [added, updated]) expect(await p.poll('trigger')).toBeNull();
		emu.addRecords(docId, t, [
			{ Name: 'a', Owner: 2 },
			{ Name: 'b', Owner: 1 },
		]);
		await patch(t, [{ id: x, fields: { Owner: 2 } }]);
		expect(emittedJson(await added.poll('trigger')).map((j) => j.Name)).toEqual(['a']);
		expect(emittedJson(await updated.poll('trigger')).map((j) => [j.id, j.Owner])).toEqual([
			[x, 2],
		]);
	});
});

describe('Filter → Conditions on Row Added or Updated', () => {
	it('only rows that match when they change, added told from updated', async () => {
		const t = newTable();
		emu.addRecords(docId, t, [
			{ Name: 'a', Qty: 1, Updated: 100 },
			{ Name: 'b', Qty: 50, Updated: 100 },
		]);
		const p = poller(t, {
			event: 'rowAddedOrUpdated',
			timestampColumn: 'Updated',
			...conditions([{ column: 'Qty', match: 'between', values: '10', value2: '100' }]),
		});
		await p.poll('trigger');
		await patch(t, [
			{ id: 1, fields: { Qty: 2, Updated: 200 } },
			{ id: 2, fields: { Qty: 60, Updated: 200 } },
		]);
		emu.addRecords(docId, t, [
			{ Name: 'c', Qty: 20, Updated: 300 },
			{ Name: 'd', Qty: 5, Updated: 300 },
		]);
		const out = emittedJson(await p.poll('trigger'));
		expect(out.map((j) => [j.id, j.Qty, j._change])).toEqual([
			[2, 60, { type: 'updated' }],
			[3, 20, { type: 'added' }],
		]);
		expect(await p.poll('trigger')).toBeNull();
	});
});

describe('Filter on the change events: the current values, a deleted row’s last values', () => {
	it('Row Updated, Row Deleted and Row Added, Updated or Deleted emit only matching rows', async () => {
		const t = newTable();
		const [a, b, c] = emu.addRecords(docId, t, [
			{ Name: 'a', Status: 'Open', Qty: 1 },
			{ Name: 'b', Status: 'Done', Qty: 2 },
			{ Name: 'c', Status: 'Open', Qty: 3 },
		]);
		const open = conditions([
			{ column: 'Status', match: 'equals', values: 'open', ignoreCase: true },
		]);
		const updated = poller(t, { event: 'rowUpdated', ...open });
		const deleted = poller(t, { event: 'rowDeleted', ...open });
		const any = poller(t, {
			event: 'anyChange',
			filterType: 'json',
			filterJson: '{"Qty": [10, 3]}',
		});
		for (const p of [updated, deleted, any]) expect(await p.poll('trigger')).toBeNull();

		await patch(t, [
			{ id: a, fields: { Qty: 10 } },
			{ id: b, fields: { Qty: 20 } },
		]);
		emu.removeRecords(docId, t, [b, c]);
		const [d] = emu.addRecords(docId, t, [{ Name: 'd', Status: 'Open', Qty: 3 }]);

		expect(emittedJson(await updated.poll('trigger')).map((j) => [j.id, j.Qty])).toEqual([[a, 10]]);
		expect(emittedJson(await deleted.poll('trigger')).map((j) => [j.id, j.Name])).toEqual([
			[c, 'c'],
		]);
		expect(
			emittedJson(await any.poll('trigger')).map((j) => [j.id, (j._change as IDataObject).type]),
		).toEqual([
			[a, 'updated'],
			[d, 'added'],
			[c, 'deleted'],
		]);
		// d took b's id (Grist hands out the highest id + 1): b's last values did not match
		expect(d).toBe(b);
	});
});

describe('one output shape for the five events', () => {
	const EVENTS: Array<[string, IDataObject, string]> = [
		['rowAdded', {}, 'added'],
		['rowAddedOrUpdated', { timestampColumn: 'Updated' }, 'updated'],
		['rowUpdated', {}, 'updated'],
		['rowDeleted', {}, 'deleted'],
		['anyChange', {}, 'updated'],
	];

	it.each([true, false])(
		'Simplify %s: id first, the cells (or fields), _display, then _change',
		async (simplify) => {
			const t = newTable();
			const [row] = emu.addRecords(docId, t, [{ Name: 'a', Qty: 1, Owner: 2, Updated: 100 }]);
			const options = { referenceDisplay: true };
			const pollers = EVENTS.map(([event, extra]) =>
				poller(t, { event, simplify, options, ...extra }),
			);
			for (const p of pollers) expect(await p.poll('trigger')).toBeNull();

			// each event's change: a row added, the row updated, the row deleted
			const [added] = emu.addRecords(docId, t, [{ Name: 'n', Qty: 5, Owner: 1, Updated: 300 }]);
			await patch(t, [{ id: row, fields: { Qty: 2, Updated: 200 } }]);
			const rowAdded = emittedJson(await pollers[0].poll('trigger'));
			const addedOrUpdated = emittedJson(await pollers[1].poll('trigger'));
			const rowUpdated = emittedJson(await pollers[2].poll('trigger'));
			emu.removeRecords(docId, t, [row]);
			const rowDeleted = emittedJson(await pollers[3].poll('trigger'));
			const anyChange = emittedJson(await pollers[4].poll('trigger'));

			const cells = ['Name', 'Status', 'Qty', 'Owner', 'Updated'];
			const keys = simplify
				? ['id', ...cells, '_display', '_change']
				: ['id', 'fields', '_display', '_change'];
			const all = [rowAdded, addedOrUpdated, rowUpdated, rowDeleted, anyChange].flat();
			expect(all.length).toBe(7);
			for (const item of all) expect([item.id, Object.keys(item)]).toEqual([item.id, keys]);

			const type = (items: IDataObject[]) =>
				items.map((j) => [j.id, (j._change as IDataObject).type]);
			expect(type(rowAdded)).toEqual([[added, 'added']]);
			expect(type(addedOrUpdated)).toEqual([
				[row, 'updated'],
				[added, 'added'],
			]);
			expect(type(rowUpdated)).toEqual([[row, 'updated']]);
			expect(type(rowDeleted)).toEqual([[row, 'deleted']]);
			// the change history's net change since the last poll: the row is gone, the new one added
			expect(type(anyChange)).toEqual([
				[row, 'deleted'],
				[added, 'added'],
			]);
			expect(rowUpdated[0]._change).toEqual({
				type: 'updated',
				previous: { Qty: 1, Updated: simplify ? new Date(100_000).toISOString() : 100 },
				changedColumns: ['Qty', 'Updated'],
			});
			const cell = (j: IDataObject, c: string) => (simplify ? j[c] : (j.fields as IDataObject)[c]);
			expect(cell(rowDeleted[0], 'Qty')).toBe(2);
			expect(cell(rowAdded[0], 'Updated')).toBe(simplify ? new Date(300_000).toISOString() : 300);
			expect(Object.keys(rowAdded[0]._display as IDataObject)).toEqual(['Owner']);

			// the manual sample of each event has the same keys
			for (const p of pollers) {
				const sample = emittedJson(await p.poll('manual'));
				expect(sample.map((j) => Object.keys(j))).toEqual([keys]);
			}
		},
	);
});
