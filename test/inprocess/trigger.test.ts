/**
 * Grist Trigger in an active workflow (n8n-core's PollTriggerExecutor via `createPoller`) against
 * the Grist emulator: every case the trigger must handle, asserting exactly which records each poll
 * emits and which requests it made (the emulator's request log).
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { WINDOW_IDS } from '../../nodes/GristTrigger/events/rowAddedCursor';
import { startEmulator, type GristEmulator } from '../emulator';
import { docTable, seedTeamDoc } from '../harness/builders';
import { emittedIds, emittedJson } from '../harness/emitted';
import { createPoller, loadOptions, type Poller } from '../harness/inprocess';
import { emulatorOnly, realGrist } from '../harness/target';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator();
	({ docId } = seedTeamDoc(emu, USER_KEY, 'Trigger doc'));
});

afterAll(async () => {
	await emu?.close();
});

/** A fresh table per test: Name (Text), Status (Choice), Updated (DateTime), Created (Numeric), Day (Date), Note (Text). */
function newTable(): string {
	tableSeq += 1;
	const tableId = `Items${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Done'] } },
		{ id: 'Updated', type: 'DateTime:UTC' },
		{ id: 'Created', type: 'Numeric' },
		{ id: 'Day', type: 'Date' },
		{ id: 'Note', type: 'Text' },
	]);
	return tableId;
}

function poller(tableId: string, params: IDataObject = {}): Poller {
	return readsDocument(
		createPoller({
			node: new GristTrigger(),
			parameters: {
				...docTable(docId, tableId),
				event: 'rowAdded',
				...params,
			},
			credentials: { apiKey: USER_KEY, url: emu.url },
		}),
	);
}

/**
 * These tests are about the cursors and the /sql check: each poll goes past the updatedAt check
 * as if the document's updatedAt had moved (that check has its own tests in
 * trigger-changes.test.ts; against a real Grist it holds a change back up to 60 s).
 */
function readsDocument(p: Poller): Poller {
	const poll = p.poll.bind(p);
	p.poll = async (mode) => {
		if (mode === 'trigger') delete p.nodeStaticData.updatedAt;
		return await poll(mode);
	};
	return p;
}

function add(tableId: string, rows: Array<Record<string, unknown>>): number[] {
	return emu.addRecords(docId, tableId, rows);
}

function names(n: number, prefix = 'r'): Array<Record<string, unknown>> {
	return Array.from({ length: n }, (_, i) => ({ Name: `${prefix}${i + 1}` }));
}

const span = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The requests since the last call: `GET <path relative to the table> <query>`. */
function requests(tableId: string): string[] {
	const prefix = `/api/docs/${docId}/tables/${tableId}/`;
	const out = emu.log.map((e) => {
		if (e.apiPath === `/api/docs/${docId}` && e.method === 'GET') return undefined; // updatedAt
		const rel = e.apiPath.startsWith(prefix)
			? e.apiPath.slice(prefix.length)
			: e.apiPath === `/api/docs/${docId}/sql`
				? 'sql' // the idle check (POST /sql)
				: e.apiPath;
		const q = Object.keys(e.query)
			.sort()
			.map((k) => `${k}=${e.query[k]}`)
			.join('&');
		return `${e.method} ${rel}${q ? `?${q}` : ''} ${e.status}`;
	});
	emu.clearLog();
	return out.filter((r): r is string => r !== undefined);
}

function idFilter(ids: number[], extra: Record<string, unknown> = {}): string {
	return JSON.stringify({ ...extra, id: ids });
}

describe('Row Added', () => {
	it('first poll records the baseline and emits nothing; then each new row once', async () => {
		const t = newTable();
		add(t, names(3, 'old'));
		const p = poller(t);
		emu.clearLog();

		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['GET columns 200', 'GET records?limit=1&sort=-id 200']);
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 3 });

		add(t, [{ Name: 'a', Day: 1704844800 }, { Name: 'b' }]);
		const out = await p.poll('trigger');
		const added = { type: 'added' };
		expect(emittedJson(out)).toEqual([
			{
				id: 4,
				Name: 'a',
				Status: '',
				Updated: null,
				Created: 0,
				Day: '2024-01-10',
				Note: '',
				_change: added,
			},
			{
				id: 5,
				Name: 'b',
				Status: '',
				Updated: null,
				Created: 0,
				Day: null,
				Note: '',
				_change: added,
			},
		]);
		// id first, the cells in the table's order, _change last
		expect(Object.keys(emittedJson(out)[0])).toEqual([
			'id',
			'Name',
			'Status',
			'Updated',
			'Created',
			'Day',
			'Note',
			'_change',
		]);
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			`GET records?filter=${idFilter([4, 5])}&sort=id 200`,
			'GET columns 200',
		]);
		expect(p.savedStaticData[`node:${p.nodeName}`]).toMatchObject({
			cursor: { kind: 'rowAdded', lastId: 5 },
		});

		// Nothing new: one /sql request (max(id)) whose cost does not depend on the table.
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['POST sql 200']);
	});

	it("Simplify off returns Grist's raw { id, fields, _change }", async () => {
		const t = newTable();
		const p = poller(t, { simplify: false });
		await p.poll('trigger');
		add(t, [{ Name: 'x', Day: 1704844800 }]);
		const out = emittedJson(await p.poll('trigger'));
		expect(out).toEqual([
			{
				id: 1,
				fields: { Name: 'x', Status: '', Updated: null, Created: 0, Day: 1704844800, Note: '' },
				_change: { type: 'added' },
			},
		]);
		expect(Object.keys(out[0])).toEqual(['id', 'fields', '_change']);
	});

	it('manual test returns the latest record and moves no cursor', async () => {
		const t = newTable();
		add(t, names(4));
		const p = poller(t);
		await p.poll('trigger'); // baseline at 4
		add(t, names(2, 'new'));
		emu.clearLog();
		const sample = await p.poll('manual');
		expect(emittedIds(sample)).toEqual([6]);
		expect(requests(t)).toEqual(['GET columns 200', 'GET records?limit=1&sort=-id 200']);
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 4 });
		// The real polls still see both new rows.
		expect(emittedIds(await p.poll('trigger'))).toEqual([5, 6]);
	});

	it('manual test on an empty table says what to do', async () => {
		const t = newTable();
		// A manual run's error comes back as the run's error object (not thrown in this realm).
		const error = await poller(t)
			.poll('manual')
			.then(
				() => undefined,
				(e: { message?: string; description?: string }) => e,
			);
		expect(error?.message).toBe(`No record in table "${t}" to show as a sample`);
		expect(error?.description).toBe('Add a record to the table in Grist, then fetch again.');
	});

	it('survives an n8n restart: resumes from the saved cursor, nothing missed or repeated', async () => {
		const t = newTable();
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(2));
		expect(emittedIds(await p.poll('trigger'))).toEqual([1, 2]);
		add(t, names(3, 'while-down'));
		p.restart();
		expect(emittedIds(await p.poll('trigger'))).toEqual([3, 4, 5]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('a failed poll (server error) keeps the cursor; the next poll emits the same rows once', async () => {
		const t = newTable();
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(3));
		emu.clearLog();
		emu.fault({
			method: 'GET',
			path: new RegExp(`/tables/${t}/records$`),
			status: 500,
			body: { error: 'boom' },
		});
		await expect(p.poll('trigger')).rejects.toThrow('Boom');
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 0 });
		expect(emittedIds(await p.poll('trigger'))).toEqual([1, 2, 3]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('a failure after the records were read (columns request) emits nothing and moves nothing', async () => {
		const t = newTable();
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(2));
		emu.fault({
			method: 'GET',
			path: new RegExp(`/tables/${t}/columns$`),
			status: 500,
			body: { error: 'columns down' },
		});
		await expect(p.poll('trigger')).rejects.toThrow('Columns down');
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 0 });
		expect(emittedIds(await p.poll('trigger'))).toEqual([1, 2]);
	});

	it('a dropped connection (timeout-like) keeps the cursor too', async () => {
		const t = newTable();
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(2));
		emu.fault({ method: 'GET', path: new RegExp(`/tables/${t}/records$`), drop: true, times: 20 });
		await expect(p.poll('trigger')).rejects.toThrow(
			/The connection to the Grist server at .* broke before its answer arrived/,
		);
		emu.clearFaults();
		expect(emittedIds(await p.poll('trigger'))).toEqual([1, 2]);
	}, 60_000);

	it('a burst larger than one window: one poll, windows of ids in order', async () => {
		const t = newTable();
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(450));
		emu.clearLog();
		expect(emittedIds(await p.poll('trigger'))).toEqual(span(1, 450));
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			`GET records?filter=${idFilter(span(1, WINDOW_IDS))}&sort=id 200`,
			`GET records?filter=${idFilter(span(WINDOW_IDS + 1, 2 * WINDOW_IDS))}&sort=id 200`,
			`GET records?filter=${idFilter(span(2 * WINDOW_IDS + 1, 450))}&sort=id 200`,
			'GET columns 200',
		]);
	});

	it('a backlog above Max Records per Poll drains over several polls, in order', async () => {
		const t = newTable();
		const p = poller(t, { options: { maxRecords: 100 } });
		await p.poll('trigger');
		add(t, names(250));
		const polls = [];
		for (let i = 0; i < 4; i++) polls.push(emittedIds(await p.poll('trigger')));
		expect(polls).toEqual([span(1, 100), span(101, 200), span(201, 250), []]);
	});

	it('deleted rows: gaps are skipped; deleted top rows make their ids count as new again', async () => {
		const t = newTable();
		add(t, names(5));
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(4, 'n')); // 6..9
		emu.removeRecords(docId, t, [7, 9]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([6, 8]);
		emu.removeRecords(docId, t, [8]); // the top is 6 again: cursor goes down to 6
		expect(await p.poll('trigger')).toBeNull();
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 6 });
		expect(add(t, [{ Name: 'gets id 7' }])).toEqual([7]);
		expect(emittedJson(await p.poll('trigger')).map((j) => [j.id, j.Name])).toEqual([
			[7, 'gets id 7'],
		]);
	});

	it('last row deleted and its id reused between two polls: detected with a creation column', async () => {
		const t = newTable();
		add(t, [{ Name: 'a', Created: 1000 }]);
		const p = poller(t, { options: { creationColumn: 'Created' } });
		await p.poll('trigger');
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 1, mark: { value: 1000 } });
		// An edit of the row is not a new row.
		emu.clearLog();
		await patch(t, [{ id: 1, fields: { Name: 'a (edited)' } }]);
		expect(await p.poll('trigger')).toBeNull();
		// Deleted, and a new row takes id 1.
		emu.removeRecords(docId, t, [1]);
		expect(add(t, [{ Name: 'b', Created: 2000 }])).toEqual([1]);
		emu.clearLog();
		expect(emittedJson(await p.poll('trigger')).map((j) => [j.id, j.Name])).toEqual([[1, 'b']]);
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			'GET columns 200',
		]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('filter: only matching rows trigger, the filter goes with each window', async () => {
		const t = newTable();
		const p = poller(t, { filterType: 'json', filterJson: '{"Status": ["Open"]}' });
		await p.poll('trigger');
		add(t, [
			{ Name: 'a', Status: 'Open' },
			{ Name: 'b', Status: 'Done' },
			{ Name: 'c', Status: 'Open' },
		]);
		emu.clearLog();
		expect(emittedIds(await p.poll('trigger'))).toEqual([1, 3]);
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			`GET records?filter=${idFilter([1, 2, 3], { Status: ['Open'] })}&sort=id 200`,
			'GET columns 200',
		]);
	});

	it('a malformed filter fails before any request, naming the field', async () => {
		const t = newTable();
		emu.clearLog();
		await expect(
			poller(t, { filterType: 'json', filterJson: '{"Status": "Open"}' }).poll('trigger'),
		).rejects.toThrow('The Filter (JSON) value for column "Status" must be an array');
		expect(requests(t)).toEqual([]);
	});
});

describe('Row Added or Updated', () => {
	const params = { event: 'rowAddedOrUpdated', timestampColumn: 'Updated' };

	it('baseline, then added and updated rows in timestamp order, each change once', async () => {
		const t = newTable();
		add(t, [
			{ Name: 'a', Updated: 100 },
			{ Name: 'b', Updated: 200 },
		]);
		const p = poller(t, params);
		emu.clearLog();
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual([
			'GET columns 200',
			'GET records?limit=1&sort=-id 200',
			'GET records?limit=1&sort=-Updated,-id 200',
			'GET records?filter={"Updated":[200]}&sort=id 200',
		]);
		expect(p.nodeStaticData.cursor).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: 200,
			ids: [2],
			topId: 2,
		});

		await patch(t, [{ id: 1, fields: { Name: 'a2', Updated: 300 } }]);
		add(t, [{ Name: 'c', Updated: 250 }]);
		emu.clearLog();
		const out = emittedJson(await p.poll('trigger'));
		// a row above the highest id of the last poll is added, the others updated
		expect(out.map((j) => [j.id, j.Name, j.Updated, j._change])).toEqual([
			[3, 'c', new Date(250_000).toISOString(), { type: 'added' }],
			[1, 'a2', new Date(300_000).toISOString(), { type: 'updated' }],
		]);
		expect(p.nodeStaticData.cursor).toMatchObject({ topId: 3 });
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			'GET records?limit=2&sort=-Updated,-id 200',
			'GET records?limit=4&sort=-Updated,-id 200',
			'GET columns 200',
		]);
		// Nothing new: one /sql request of (ids at the cursor's timestamp + 1) rows.
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['POST sql 200']);
	});

	it('several updates sharing one timestamp, across a cap: none lost, none repeated', async () => {
		const t = newTable();
		add(t, [{ Name: 'base', Updated: 10 }]);
		const p = poller(t, { ...params, options: { maxRecords: 2 } });
		await p.poll('trigger');
		add(
			t,
			names(3).map((r) => ({ ...r, Updated: 20 })),
		);
		expect(emittedIds(await p.poll('trigger'))).toEqual([2, 3]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([4]);
		expect(await p.poll('trigger')).toBeNull();
		// A row updated later to that same timestamp is still a change.
		await patch(t, [{ id: 1, fields: { Updated: 20 } }]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([1]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it("a Grist clock far from n8n's: only Grist's own timestamps are compared", async () => {
		const t = newTable();
		const future = Math.floor(Date.now() / 1000) + 5 * 365 * 86400;
		add(t, [{ Name: 'a', Updated: future }]);
		const p = poller(t, params);
		await p.poll('trigger');
		await patch(t, [{ id: 1, fields: { Updated: future + 1 } }]);
		add(t, [{ Name: 'b', Updated: future + 0.5 }]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([2, 1]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('survives a restart and a failed poll without loss or repeat', async () => {
		const t = newTable();
		add(t, [{ Name: 'a', Updated: 1 }]);
		const p = poller(t, params);
		await p.poll('trigger');
		await patch(t, [{ id: 1, fields: { Updated: 2 } }]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([1]);
		add(t, [{ Name: 'b', Updated: 3 }]);
		p.restart();
		emu.fault({
			method: 'GET',
			path: new RegExp(`/tables/${t}/records$`),
			status: 500,
			body: { error: 'down' },
		});
		await expect(p.poll('trigger')).rejects.toThrow('Down');
		expect(emittedIds(await p.poll('trigger'))).toEqual([2]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('manual test returns the most recently changed record, moves no cursor', async () => {
		const t = newTable();
		add(t, [
			{ Name: 'a', Updated: 50 },
			{ Name: 'b', Updated: 40 },
		]);
		const p = poller(t, params);
		await p.poll('trigger');
		const before = JSON.stringify(p.nodeStaticData);
		expect(emittedIds(await p.poll('manual'))).toEqual([1]);
		expect(JSON.stringify(p.nodeStaticData)).toBe(before);
	});

	it('a timestamp column that is not Date/DateTime/Numeric: clear error naming the column and type', async () => {
		const t = newTable();
		const p = poller(t, { event: 'rowAddedOrUpdated', timestampColumn: 'Note' });
		await expect(p.poll('trigger')).rejects.toThrow(
			'The timestamp column "Note" is a Text column, not Date, DateTime or Numeric',
		);
	});

	it('a timestamp column deleted after activation: the poll names it and says what to do', async () => {
		const t = newTable();
		add(t, [{ Name: 'a', Updated: 1 }]);
		const p = poller(t, params);
		await p.poll('trigger');
		await api('DELETE', `/tables/${t}/columns/Updated`, undefined);
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe(`The timestamp column "Updated" does not exist in table "${t}"`);
		expect(error?.description).toBe(
			'It was deleted or renamed: pick the column again in Timestamp Column and save the workflow.',
		);
		expect(p.nodeStaticData.cursor).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: 1,
			ids: [1],
			topId: 1,
		});
	});

	it('a timestamp column changed to Text after activation: the poll says what to fix', async () => {
		const t = newTable();
		add(t, [{ Name: 'a', Updated: 1 }]);
		const p = poller(t, params);
		await p.poll('trigger');
		await changeColumn(t, 'Updated', { type: 'Text' });
		await patch(t, [{ id: 1, fields: { Updated: 'tomorrow' } }]);
		await expect(p.poll('trigger')).rejects.toThrow(
			'The timestamp column "Updated" is a Text column',
		);
		expect(p.nodeStaticData.cursor).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: 1,
			ids: [1],
			topId: 1,
		});
	});
});

describe('restarts: what n8n saves (after activation, and with each emitting poll)', () => {
	const saved = (p: Poller) => p.savedStaticData[`node:${p.nodeName}`] as IDataObject | undefined;

	it('Row Added: n8n restarts right after the baseline; rows added before and after are each emitted once', async () => {
		const t = newTable();
		add(t, names(3, 'old'));
		const p = poller(t);
		expect(await p.poll('trigger')).toBeNull();
		// The activation poll emitted nothing, and still its baseline is saved.
		expect(saved(p)?.cursor).toEqual({ kind: 'rowAdded', lastId: 3 });
		add(t, names(2, 'before-restart'));
		p.restart();
		add(t, names(1, 'after-restart'));
		emu.clearLog();
		expect(emittedJson(await p.poll('trigger')).map((j) => [j.id, j.Name])).toEqual([
			[4, 'before-restart1'],
			[5, 'before-restart2'],
			[6, 'after-restart1'],
		]);
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			`GET records?filter=${idFilter([4, 5, 6])}&sort=id 200`,
			'GET columns 200',
		]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('Row Added or Updated: n8n restarts right after the baseline; each change is emitted once', async () => {
		const t = newTable();
		add(t, [
			{ Name: 'a', Updated: 100 },
			{ Name: 'b', Updated: 200 },
		]);
		const p = poller(t, { event: 'rowAddedOrUpdated', timestampColumn: 'Updated' });
		expect(await p.poll('trigger')).toBeNull();
		expect(saved(p)?.cursor).toEqual({ kind: 'rowAddedOrUpdated', ts: 200, ids: [2], topId: 2 });
		await patch(t, [{ id: 1, fields: { Updated: 300 } }]);
		p.restart();
		add(t, [{ Name: 'c', Updated: 400 }]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([1, 3]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('a failed activation poll saves nothing; the next attempt takes the baseline', async () => {
		const t = newTable();
		add(t, names(2));
		const p = poller(t);
		emu.fault({
			method: 'GET',
			path: new RegExp(`/tables/${t}/records$`),
			status: 500,
			body: { error: 'down' },
		});
		await expect(p.poll('trigger')).rejects.toThrow('Down');
		expect(saved(p)).toBeUndefined();
		expect(p.nodeStaticData).toEqual({});
		add(t, names(1, 'late'));
		expect(await p.poll('trigger')).toBeNull();
		expect(saved(p)?.cursor).toEqual({ kind: 'rowAdded', lastId: 3 });
		add(t, names(1, 'new'));
		expect(emittedIds(await p.poll('trigger'))).toEqual([4]);
	});

	it('a poll that emits nothing saves nothing: a lowered cursor is saved with the next emitted row', async () => {
		const t = newTable();
		add(t, names(5));
		const p = poller(t);
		await p.poll('trigger');
		emu.removeRecords(docId, t, [4, 5]);
		expect(await p.poll('trigger')).toBeNull();
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 3 });
		expect(saved(p)?.cursor).toEqual({ kind: 'rowAdded', lastId: 5 });
		expect(add(t, [{ Name: 'x' }])).toEqual([4]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([4]);
		expect(saved(p)?.cursor).toEqual({ kind: 'rowAdded', lastId: 4 });
	});

	it('a restart after a lowered cursor: the creation column finds the row that took the saved id', async () => {
		const t = newTable();
		add(t, [
			{ Name: 'a', Created: 1 },
			{ Name: 'b', Created: 2 },
		]);
		const p = poller(t, { options: { creationColumn: 'Created' } });
		await p.poll('trigger');
		emu.removeRecords(docId, t, [2]);
		expect(await p.poll('trigger')).toBeNull(); // cursor 1 in memory, 2 saved
		p.restart();
		expect(add(t, [{ Name: 'c', Created: 3 }])).toEqual([2]);
		expect(emittedJson(await p.poll('trigger')).map((j) => [j.id, j.Name])).toEqual([[2, 'c']]);
		expect(await p.poll('trigger')).toBeNull();
	});
});

describe('Row Added: several top rows deleted and their ids handed out again', () => {
	it('after a restart that lost the lowered cursor: the creation column finds every re-created row', async () => {
		const t = newTable();
		add(
			t,
			span(1, 4).map((i) => ({ Name: `old${i}`, Created: i })),
		);
		const p = poller(t, { options: { creationColumn: 'Created' } });
		await p.poll('trigger');
		emu.removeRecords(docId, t, [3, 4]);
		expect(await p.poll('trigger')).toBeNull(); // lowered to 2 in memory; 4 stays saved
		p.restart();
		expect(
			add(t, [
				{ Name: 'new3', Created: 10 },
				{ Name: 'new4', Created: 11 },
			]),
		).toEqual([3, 4]);
		emu.clearLog();
		expect(emittedJson(await p.poll('trigger')).map((j) => [j.id, j.Name])).toEqual([
			[3, 'new3'],
			[4, 'new4'],
		]);
		expect(requests(t)).toEqual([
			'POST sql 200',
			'GET records?limit=1&sort=-id 200',
			'GET records?limit=8&sort=-Created,-id 200',
			'GET columns 200',
		]);
		expect(await p.poll('trigger')).toBeNull();
	});

	it('between two polls, with more rows after them: each new row once, in id order', async () => {
		const t = newTable();
		add(
			t,
			span(1, 3).map((i) => ({ Name: `old${i}`, Created: i })),
		);
		const p = poller(t, { options: { creationColumn: 'Created' } });
		await p.poll('trigger');
		emu.removeRecords(docId, t, [2, 3]);
		expect(
			add(
				t,
				span(1, 3).map((i) => ({ Name: `new${i}`, Created: 10 + i })),
			),
		).toEqual([2, 3, 4]);
		expect(emittedIds(await p.poll('trigger'))).toEqual([2, 3, 4]);
		expect(await p.poll('trigger')).toBeNull();
	});
});

describe('cost of a poll with nothing new (constant, whatever the table size)', () => {
	it('Row Added, with a filter: one /sql max(id) request (the top id, unfiltered)', async () => {
		const t = newTable();
		add(
			t,
			Array.from({ length: 2000 }, (_, i) => ({ Name: `r${i}`, Status: i % 2 ? 'Open' : 'Done' })),
		);
		const p = poller(t, { filterType: 'json', filterJson: '{"Status": ["Open"]}' });
		await p.poll('trigger');
		emu.clearLog();
		for (let i = 0; i < 3; i++) expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(Array(3).fill('POST sql 200'));
	});

	it('Row Added or Updated, with a filter: /sql, and where it sees a change, one request of (rows at the last timestamp + 1) rows', async () => {
		const t = newTable();
		add(
			t,
			Array.from({ length: 2000 }, (_, i) => ({
				Name: `r${i}`,
				Status: i % 2 ? 'Open' : 'Done',
				Updated: 1000 + i,
			})),
		);
		const p = poller(t, {
			event: 'rowAddedOrUpdated',
			timestampColumn: 'Updated',
			filterType: 'json',
			filterJson: '{"Status": ["Open"]}',
		});
		await p.poll('trigger');
		expect(p.nodeStaticData.cursor).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: 2999,
			ids: [2000],
			topId: 2000,
		});
		emu.clearLog();
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['POST sql 200']);
		// A change outside the filter is not due; /sql (unfiltered) sees it, so the records read
		// decides, at a constant size.
		await patch(t, [{ id: 1, fields: { Updated: 5000 } }]);
		emu.clearLog();
		for (let i = 0; i < 3; i++) expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(
			Array(3)
				.fill([
					'POST sql 200',
					'GET records?limit=1&sort=-id 200',
					'GET records?filter={"Status":["Open"]}&limit=2&sort=-Updated,-id 200',
				])
				.flat(),
		);
	});
});

describe('idle poll through /sql: rows scanned (the emulator cost model), fallback on 403', () => {
	/** The idle polls' requests and the rows each scanned, as the table grows. */
	async function idleCost(
		p: Poller,
		t: string,
		sizes: number[],
		row: (i: number) => Record<string, unknown>,
	) {
		const out: Array<[number, string[], Array<number | undefined>]> = [];
		for (const size of sizes) {
			const have = emu.records(docId, t).length;
			add(
				t,
				Array.from({ length: size - have }, (_, i) => row(have + i)),
			);
			while ((await p.poll('trigger')) !== null); // the baseline, or emits the new rows
			emu.clearLog();
			expect(await p.poll('trigger')).toBeNull();
			const scanned = emu.log
				.filter((e) => e.apiPath !== `/api/docs/${docId}`)
				.map((e) => e.rowsScanned);
			out.push([size, requests(t), scanned]);
		}
		return out;
	}

	emulatorOnly('the rows each request scans (rowsScanned) are the emulator’s cost model').it(
		'Row Added: max(id) scans O(1) rows however large the table; sorting records scanned it all',
		async () => {
			const t = newTable();
			const p = poller(t);
			const cost = await idleCost(p, t, [10, 1000, 5000], (i) => ({ Name: `r${i}` }));
			expect(cost).toEqual([
				[10, ['POST sql 200'], [1]],
				[1000, ['POST sql 200'], [1]],
				[5000, ['POST sql 200'], [1]],
			]);
			// What the idle poll asked, and what the records read it replaces costs.
			emu.clearLog();
			await p.poll('trigger');
			expect(emu.log[1].body).toEqual({
				sql: `SELECT max(id) AS id FROM "${t}"`,
				args: [],
				timeout: 1000,
			});
			emu.clearLog();
			await (async () => {
				const res = await fetch(
					`${emu.url}/o/team/api/docs/${docId}/tables/${t}/records?sort=-id&limit=1`,
					{
						headers: { Authorization: `Bearer ${USER_KEY}` },
					},
				);
				expect(res.status).toBe(200);
			})();
			expect(emu.log[0].rowsScanned).toBe(5000);
		},
	);

	emulatorOnly('the rows each request scans (rowsScanned) are the emulator’s cost model').it(
		'Row Added with a creation column: the top row by id, O(1)',
		async () => {
			const t = newTable();
			const p = poller(t, { options: { creationColumn: 'Created' } });
			const cost = await idleCost(p, t, [10, 3000], (i) => ({ Name: `r${i}`, Created: i }));
			expect(cost.map(([size, reqs, scanned]) => [size, reqs, scanned])).toEqual([
				[10, ['POST sql 200'], [2]],
				[3000, ['POST sql 200'], [2]],
			]);
		},
	);

	emulatorOnly('the rows each request scans (rowsScanned) are the emulator’s cost model').it(
		'Row Added or Updated: the newest timestamps, no document load (SQLite scans the column)',
		async () => {
			const t = newTable();
			const p = poller(t, { event: 'rowAddedOrUpdated', timestampColumn: 'Updated' });
			const cost = await idleCost(p, t, [10, 1000], (i) => ({ Name: `r${i}`, Updated: 100 + i }));
			// SQLite has no index on the timestamp: it reads the table from its file, but Grist does
			// not load the document (that is the records read's cost, and a 20× slower one in Grist).
			expect(cost).toEqual([
				[10, ['POST sql 200'], [10]],
				[1000, ['POST sql 200'], [1000]],
			]);
		},
	);

	it('403 on /sql: falls back to the records read and does not ask /sql again', async () => {
		const t = newTable();
		add(t, names(3));
		const p = poller(t);
		await p.poll('trigger');
		emu.fault({
			path: `/api/docs/${docId}/sql`,
			status: 403,
			times: 1,
			body: { error: 'insufficient document access' },
		});
		emu.clearLog();
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['POST sql 403', 'GET records?limit=1&sort=-id 200']);
		expect(p.nodeStaticData.sqlRefused).toBe(true);
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['GET records?limit=1&sort=-id 200']);
		add(t, names(1, 'new'));
		expect(emittedIds(await p.poll('trigger'))).toEqual([4]);
		expect(requests(t)).toEqual([
			'GET records?limit=1&sort=-id 200',
			`GET records?filter=${idFilter([4])}&sort=id 200`,
			'GET columns 200',
		]);
	});

	it('other /sql failures fall back for that poll only; emitted records are the same', async () => {
		const t = newTable();
		add(t, names(2));
		const p = poller(t);
		await p.poll('trigger');
		add(t, names(1, 'new'));
		emu.fault({ path: `/api/docs/${docId}/sql`, status: 400, times: 1 });
		emu.clearLog();
		expect(emittedIds(await p.poll('trigger'))).toEqual([3]);
		expect(requests(t)).toEqual([
			'POST sql 400',
			'GET records?limit=1&sort=-id 200',
			`GET records?filter=${idFilter([3])}&sort=id 200`,
			'GET columns 200',
		]);
		expect(p.nodeStaticData.sqlRefused).toBeUndefined();
		expect(await p.poll('trigger')).toBeNull();
		expect(requests(t)).toEqual(['POST sql 200']);
	});
});

describe('column pickers', () => {
	const load = async (method: string, tableId: string) =>
		await loadOptions({
			node: new GristTrigger(),
			kind: 'loadOptions',
			method,
			parameters: {
				...docTable(docId, tableId),
				event: 'rowAddedOrUpdated',
			},
			credentials: { apiKey: USER_KEY, url: emu.url },
		});

	it('Timestamp Column lists only Date, DateTime and Numeric columns', async () => {
		const t = newTable();
		expect(await load('getTimestampColumns', t)).toEqual([
			{
				name: 'Updated (not updated automatically)',
				value: 'Updated',
				description: 'DateTime (UTC) · no trigger formula: changes only when written',
			},
			{
				name: 'Created (not updated automatically)',
				value: 'Created',
				description: 'Numeric · no trigger formula: changes only when written',
			},
			{
				name: 'Day (not updated automatically)',
				value: 'Day',
				description: 'Date · no trigger formula: changes only when written',
			},
		]);
	});

	it('Creation Column lists the data columns (not formula columns)', async () => {
		const t = `Formulas${++tableSeq}`;
		emu.addTable(docId, t, [
			{ id: 'Name', type: 'Text' },
			{ id: 'Twice', type: 'Numeric', formula: '$Created * 2', isFormula: true },
			{ id: 'Created', type: 'Numeric', label: 'Created At' },
		]);
		expect(await load('getCreationColumns', t)).toEqual([
			{ name: 'Name', value: 'Name', description: 'Text' },
			{ name: 'Created At (Created)', value: 'Created', description: 'Numeric' },
		]);
	});
});

describe('errors after activation', () => {
	it('a table deleted or renamed: the error names the table and what to do; the cursor is kept', async () => {
		const t = newTable();
		const p = poller(t);
		await p.poll('trigger');
		await renameTable(t, `${t}Renamed`);
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe(`Table not found "${t}"`);
		expect(error?.description).toContain(
			`The table "${t}" of document "${docId}" does not exist any more`,
		);
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 0 });
	});

	it('a key that lost access: the error says so', async () => {
		const t = newTable();
		const other = emu.addUser({ email: 'viewer@example.com', apiKey: `viewer-${randomUUID()}` });
		emu.setAccess('doc', docId, other.email, 'viewers');
		const p = createPoller({
			node: new GristTrigger(),
			parameters: {
				...docTable(docId, t),
				event: 'rowAdded',
			},
			credentials: { apiKey: other.apiKey, url: emu.url },
		});
		await p.poll('trigger');
		emu.setAccess('doc', docId, other.email, null);
		// grist-core caches a user's access to a document for 5 s (DOC_AUTH_CACHE_TTL) and a
		// sharing change does not flush it: the loss shows once the cached access expires
		if (realGrist) await sleep(5500);
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toBe('No view access');
		expect(error?.description).toBe(
			`The user of the API key lost access to the table "${t}" of document "${docId}". Ask an owner of the document to share it again (Viewer role or higher), or use another credential.`,
		);
		expect(p.nodeStaticData.cursor).toEqual({ kind: 'rowAdded', lastId: 0 });
		expect(`${error?.message} ${error?.description}`).not.toContain(other.apiKey);
	});
});

emulatorOnly(
	'a user who replaces its key: the emulator’s users (a real run has two accounts, whose keys it does not change)',
).describe('errors after activation: a key that was revoked', () => {
	it('Grist rejects the key (401): the error says to update the credential; the cursor is kept', async () => {
		const t = newTable();
		const email = `revoked-${randomUUID()}@example.com`;
		const oldKey = `old-${randomUUID()}`;
		emu.addUser({ email, apiKey: oldKey });
		emu.setAccess('doc', docId, email, 'viewers');
		const p = createPoller({
			node: new GristTrigger(),
			parameters: {
				...docTable(docId, t),
				event: 'rowAddedOrUpdated',
				timestampColumn: 'Updated',
			},
			credentials: { apiKey: oldKey, url: emu.url },
		});
		await p.poll('trigger');
		emu.addUser({ email, apiKey: `new-${randomUUID()}` }); // the user made a new key
		add(t, [{ Name: 'a', Updated: 5 }]);
		const error = await p.poll('trigger').then(
			() => undefined,
			(e: Error & { description?: string; httpCode?: string }) => e,
		);
		expect(error?.httpCode).toBe('401');
		expect(error?.description).toBe(
			'Grist rejected the API key: update the Grist credential with a valid key (Account settings → Developer → API Key in Grist).',
		);
		expect(`${error?.message} ${error?.description}`).not.toContain(oldKey);
		expect(p.nodeStaticData.cursor).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: null,
			ids: [],
			topId: 0,
		});
	});
});

// ---------------------------------------------------------------------------------------------
// Direct API calls for changes the emulator's seeding helpers do not offer.

async function api(method: string, path: string, body: unknown): Promise<void> {
	const res = await fetch(`${emu.url}/api/docs/${docId}${path}`, {
		method,
		headers: { Authorization: `Bearer ${USER_KEY}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

async function patch(
	tableId: string,
	records: Array<{ id: number; fields: Record<string, unknown> }>,
): Promise<void> {
	await api('PATCH', `/tables/${tableId}/records`, { records });
}

async function changeColumn(
	tableId: string,
	colId: string,
	fields: Record<string, unknown>,
): Promise<void> {
	await api('PATCH', `/tables/${tableId}/columns`, { columns: [{ id: colId, fields }] });
}

async function renameTable(tableId: string, newId: string): Promise<void> {
	await api('PATCH', '/tables', { tables: [{ id: tableId, fields: { tableId: newId } }] });
}
