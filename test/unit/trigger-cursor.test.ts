/**
 * The Grist Trigger's cursors (nodes/GristTrigger/cursor.ts, events/*Cursor.ts) against an in-memory table that
 * answers `GET /records` like Grist: equality filters (values ORed, keys ANDed), `sort` with `-`,
 * empty values first, `limit`, new ids = highest id + 1. Every query the cursor makes is logged
 * and asserted.
 */
import type { GristRecord } from '../../nodes/Grist/cells/cellValues';
import { InputError } from '../../nodes/Grist/errors/gristAnswers';
import { TIMESTAMP_FIELD } from '../../nodes/GristTrigger/pollErrors';
import {
	WINDOW_IDS,
	pollRowAdded,
	rowAddedBaseline,
	type RowAddedState,
} from '../../nodes/GristTrigger/events/rowAddedCursor';
import {
	pollRowUpdated,
	rowUpdatedBaseline,
	type RowUpdatedState,
} from '../../nodes/GristTrigger/events/rowAddedOrUpdatedCursor';
import { withIds, type FetchRecords, type RecordsQuery } from '../../nodes/GristTrigger/cursor';

class FakeTable {
	rows = new Map<number, Record<string, unknown>>();
	log: RecordsQuery[] = [];

	add(fields: Record<string, unknown> = {}): number {
		const id = Math.max(0, ...this.rows.keys()) + 1;
		this.rows.set(id, { ...fields });
		return id;
	}

	addMany(n: number, fields: (i: number) => Record<string, unknown> = () => ({})): number[] {
		return Array.from({ length: n }, (_, i) => this.add(fields(i)));
	}

	update(id: number, fields: Record<string, unknown>): void {
		const row = this.rows.get(id);
		if (!row) throw new Error(`no row ${id}`);
		Object.assign(row, fields);
	}

	remove(...ids: number[]): void {
		for (const id of ids) this.rows.delete(id);
	}

	fetch: FetchRecords = async (query) => {
		this.log.push(JSON.parse(JSON.stringify(query)) as RecordsQuery);
		let list: GristRecord[] = [...this.rows.entries()].map(([id, fields]) => ({
			id,
			fields: { ...fields },
		}));
		for (const [col, values] of Object.entries(query.filter ?? {})) {
			list = list.filter((r) => {
				const v = col === 'id' ? r.id : r.fields[col];
				return values.some((w) => JSON.stringify(w) === JSON.stringify(v ?? null));
			});
		}
		const sortKeys = (query.sort ?? '').split(',').filter((s) => s !== '');
		list.sort((a, b) => {
			for (const key of sortKeys) {
				const desc = key.startsWith('-');
				const col = desc ? key.slice(1) : key;
				const av = col === 'id' ? a.id : (a.fields[col] as number | null | undefined);
				const bv = col === 'id' ? b.id : (b.fields[col] as number | null | undefined);
				const an = av === null || av === undefined;
				const bn = bv === null || bv === undefined;
				let c = 0;
				if (an && !bn) c = -1;
				else if (!an && bn) c = 1;
				else if (!an && !bn)
					c = (av as number) < (bv as number) ? -1 : (av as number) > (bv as number) ? 1 : 0;
				if (c !== 0) return desc ? -c : c;
			}
			return 0;
		});
		if (query.limit) list = list.slice(0, query.limit);
		return list;
	};

	takeLog(): RecordsQuery[] {
		const log = this.log;
		this.log = [];
		return log;
	}
}

const ids = (records: GristRecord[]) => records.map((r) => r.id);
const span = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);
const limits = { maxRecords: 1000 };

describe('withIds', () => {
	it('adds an id list to the user filter', () => {
		expect(withIds({ Status: ['Open'] }, [3, 4])).toEqual({
			filter: { Status: ['Open'], id: [3, 4] },
			ids: [3, 4],
		});
	});
	it('intersects with the id values of the user filter', () => {
		expect(withIds({ id: [4, 9] }, [3, 4, 5])).toEqual({ filter: { id: [4] }, ids: [4] });
	});
});

describe('Row Added cursor', () => {
	let t: FakeTable;
	beforeEach(() => {
		t = new FakeTable();
	});

	it('baseline: highest id, one constant-size request', async () => {
		t.addMany(5);
		expect(await rowAddedBaseline(t.fetch)).toEqual({ kind: 'rowAdded', lastId: 5 });
		expect(t.takeLog()).toEqual([{ sort: '-id', limit: 1 }]);
		expect(await rowAddedBaseline(new FakeTable().fetch)).toEqual({ kind: 'rowAdded', lastId: 0 });
	});

	it('nothing new: one request, no records, state unchanged', async () => {
		t.addMany(1000);
		const state = await rowAddedBaseline(t.fetch);
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, {}, limits);
		expect(out).toEqual({ records: [], state, changed: false, more: false });
		expect(t.takeLog()).toEqual([{ sort: '-id', limit: 1 }]);
	});

	it('new rows: emitted once, oldest first, with one window request', async () => {
		t.addMany(3, (i) => ({ Name: `old${i}` }));
		let state = await rowAddedBaseline(t.fetch);
		t.addMany(3, (i) => ({ Name: `new${i}` }));
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, {}, limits);
		expect(ids(out.records)).toEqual([4, 5, 6]);
		expect(out.records.map((r) => r.fields.Name)).toEqual(['new0', 'new1', 'new2']);
		expect(out.state).toEqual({ kind: 'rowAdded', lastId: 6 });
		expect(out.changed).toBe(true);
		expect(t.takeLog()).toEqual([
			{ sort: '-id', limit: 1 },
			{ filter: { id: [4, 5, 6] }, sort: 'id' },
		]);
		state = out.state;
		const again = await pollRowAdded(state, t.fetch, {}, limits);
		expect(again.records).toEqual([]);
	});

	it('a burst larger than one window: several windows in id order, each id once', async () => {
		let state = await rowAddedBaseline(t.fetch);
		t.addMany(450);
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, {}, limits);
		expect(ids(out.records)).toEqual(span(1, 450));
		const log = t.takeLog();
		expect(log.map((q) => q.filter?.id)).toEqual([
			undefined,
			span(1, WINDOW_IDS),
			span(201, 400),
			span(401, 450),
		]);
		state = out.state;
		expect(state.lastId).toBe(450);
	});

	it('a backlog above Max Records per Poll drains over several polls, in order, none twice', async () => {
		let state = await rowAddedBaseline(t.fetch);
		t.addMany(250);
		const seen: number[] = [];
		const perPoll: number[][] = [];
		for (let i = 0; i < 4; i++) {
			const out = await pollRowAdded(state, t.fetch, {}, { maxRecords: 100 });
			perPoll.push(ids(out.records));
			seen.push(...ids(out.records));
			state = out.state;
		}
		expect(perPoll).toEqual([span(1, 100), span(101, 200), span(201, 250), []]);
		expect(seen).toEqual(span(1, 250));
	});

	it('stops at the request cap or when out of time and resumes at the same place', async () => {
		let state = await rowAddedBaseline(t.fetch);
		t.addMany(3 * WINDOW_IDS);
		const first = await pollRowAdded(state, t.fetch, {}, { maxRecords: 10_000, maxRequests: 1 });
		expect(ids(first.records)).toEqual(span(1, WINDOW_IDS));
		expect(first.more).toBe(true);
		state = first.state;
		const second = await pollRowAdded(
			state,
			t.fetch,
			{},
			{ maxRecords: 10_000, outOfTime: () => true },
		);
		expect(ids(second.records)).toEqual(span(WINDOW_IDS + 1, 2 * WINDOW_IDS));
		state = second.state;
		const third = await pollRowAdded(state, t.fetch, {}, limits);
		expect(ids(third.records)).toEqual(span(2 * WINDOW_IDS + 1, 3 * WINDOW_IDS));
		expect(third.more).toBe(false);
	});

	it('deleted rows between the cursor and the top are simply not emitted', async () => {
		const state = await rowAddedBaseline(t.fetch);
		t.addMany(6);
		t.remove(2, 4);
		const out = await pollRowAdded(state, t.fetch, {}, limits);
		expect(ids(out.records)).toEqual([1, 3, 5, 6]);
	});

	it('the top rows deleted: the cursor goes down and reused ids are emitted', async () => {
		t.addMany(5);
		let state = await rowAddedBaseline(t.fetch);
		t.remove(4, 5);
		const down = await pollRowAdded(state, t.fetch, {}, limits);
		expect(down.records).toEqual([]);
		expect(down.state).toEqual({ kind: 'rowAdded', lastId: 3 });
		expect(down.changed).toBe(true);
		state = down.state;
		expect(t.add({ Name: 'reuses 4' })).toBe(4);
		const out = await pollRowAdded(state, t.fetch, {}, limits);
		expect(out.records).toEqual([{ id: 4, fields: { Name: 'reuses 4' } }]);
	});

	it('last row deleted and its id reused between polls: detected with a creation column', async () => {
		t.add({ Created: 100 });
		t.add({ Created: 101 });
		let state = await rowAddedBaseline(t.fetch, { markColumn: 'Created' });
		expect(state).toEqual({ kind: 'rowAdded', lastId: 2, mark: { value: 101 } });
		t.remove(2);
		expect(t.add({ Created: 200 })).toBe(2);
		const out = await pollRowAdded(state, t.fetch, { markColumn: 'Created' }, limits);
		expect(out.records).toEqual([{ id: 2, fields: { Created: 200 } }]);
		state = out.state;
		expect(state).toEqual({ kind: 'rowAdded', lastId: 2, mark: { value: 200 } });
		expect((await pollRowAdded(state, t.fetch, { markColumn: 'Created' }, limits)).records).toEqual(
			[],
		);
	});

	it('reused id followed by more rows: the reused row is emitted first', async () => {
		t.add({ Created: 100 });
		const state = await rowAddedBaseline(t.fetch, { markColumn: 'Created' });
		t.remove(1);
		t.add({ Created: 300 });
		t.add({ Created: 301 });
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, { markColumn: 'Created' }, limits);
		expect(out.records.map((r) => r.fields.Created)).toEqual([300, 301]);
		expect(t.takeLog()[1]).toEqual({ filter: { id: [1, 2] }, sort: 'id' });
	});

	it('several top rows deleted and re-created between polls: all found through the creation column', async () => {
		t.addMany(5, (i) => ({ Created: 100 + i }));
		const state = await rowAddedBaseline(t.fetch, { markColumn: 'Created' });
		expect(state).toEqual({ kind: 'rowAdded', lastId: 5, mark: { value: 104 } });
		t.remove(3, 4, 5);
		expect(t.addMany(3, (i) => ({ Created: 200 + i }))).toEqual([3, 4, 5]);
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, { markColumn: 'Created' }, limits);
		expect(ids(out.records)).toEqual([3, 4, 5]);
		expect(out.state).toEqual({ kind: 'rowAdded', lastId: 5, mark: { value: 202 } });
		// The top id, then the newest-created rows in a page that grows until it reaches an old row.
		expect(t.takeLog()).toEqual([
			{ sort: '-id', limit: 1 },
			{ sort: '-Created,-id', limit: 8 },
		]);
		expect(
			(await pollRowAdded(out.state, t.fetch, { markColumn: 'Created' }, limits)).records,
		).toEqual([]);
	});

	it('re-created rows followed by more new rows: all in id order, each once; the page doubles', async () => {
		t.addMany(20, (i) => ({ Created: 100 + i }));
		const state = await rowAddedBaseline(t.fetch, { markColumn: 'Created' });
		t.remove(...span(11, 20));
		t.addMany(12, (i) => ({ Created: 200 + i })); // ids 11..22
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, { markColumn: 'Created' }, limits);
		expect(ids(out.records)).toEqual(span(11, 22));
		expect(t.takeLog()).toEqual([
			{ sort: '-id', limit: 1 },
			{ filter: { id: [20, 21, 22] }, sort: 'id' },
			{ sort: '-Created,-id', limit: 8 },
			{ sort: '-Created,-id', limit: 16 },
		]);
		expect(out.state).toEqual({ kind: 'rowAdded', lastId: 22, mark: { value: 211 } });
	});

	it('re-created rows above Max Records per Poll: drained over the next polls, none twice', async () => {
		t.addMany(6, (i) => ({ Created: 100 + i }));
		let state = await rowAddedBaseline(t.fetch, { markColumn: 'Created' });
		t.remove(3, 4, 5, 6);
		t.addMany(4, (i) => ({ Created: 200 + i })); // ids 3..6
		const perPoll: number[][] = [];
		for (let i = 0; i < 3; i++) {
			const out = await pollRowAdded(state, t.fetch, { markColumn: 'Created' }, { maxRecords: 2 });
			perPoll.push(ids(out.records));
			state = out.state;
		}
		expect(perPoll).toEqual([[3, 4], [5, 6], []]);
	});

	it('re-created rows with a user filter: only matching ones', async () => {
		t.addMany(4, (i) => ({ Created: 100 + i, Status: 'Open' }));
		const opts = { markColumn: 'Created', filter: { Status: ['Open'] } };
		const state = await rowAddedBaseline(t.fetch, opts);
		t.remove(2, 3, 4);
		t.addMany(3, (i) => ({ Created: 200 + i, Status: i === 1 ? 'Done' : 'Open' })); // ids 2..4
		const out = await pollRowAdded(state, t.fetch, opts, limits);
		expect(ids(out.records)).toEqual([2, 4]);
	});

	it('an edit of the last row is not a new row (creation column unchanged, or none)', async () => {
		t.add({ Created: 100, Name: 'a' });
		const withMark = await rowAddedBaseline(t.fetch, { markColumn: 'Created' });
		const without = await rowAddedBaseline(t.fetch);
		t.update(1, { Name: 'edited' });
		expect(
			(await pollRowAdded(withMark, t.fetch, { markColumn: 'Created' }, limits)).records,
		).toEqual([]);
		expect((await pollRowAdded(without, t.fetch, {}, limits)).records).toEqual([]);
	});

	it('without a creation column, delete + reuse between two polls is not detected (documented limit)', async () => {
		t.add({ Name: 'a' });
		const state = await rowAddedBaseline(t.fetch);
		t.remove(1);
		t.add({ Name: 'b' });
		expect((await pollRowAdded(state, t.fetch, {}, limits)).records).toEqual([]);
	});

	it('user filter: only matching rows, the filter sent with every window', async () => {
		const state = await rowAddedBaseline(t.fetch);
		t.addMany(6, (i) => ({ Status: i % 2 === 0 ? 'Open' : 'Done' }));
		t.takeLog();
		const out = await pollRowAdded(state, t.fetch, { filter: { Status: ['Open'] } }, limits);
		expect(ids(out.records)).toEqual([1, 3, 5]);
		expect(out.state.lastId).toBe(6);
		expect(t.takeLog()).toEqual([
			{ sort: '-id', limit: 1 },
			{ filter: { Status: ['Open'], id: [1, 2, 3, 4, 5, 6] }, sort: 'id' },
		]);
	});

	it('the cursor lands on the last emitted row when the cap cuts a window', async () => {
		const state: RowAddedState = await rowAddedBaseline(t.fetch);
		t.addMany(10);
		const out = await pollRowAdded(state, t.fetch, {}, { maxRecords: 4 });
		expect(ids(out.records)).toEqual([1, 2, 3, 4]);
		expect(out.state.lastId).toBe(4);
		expect(out.more).toBe(true);
	});
});

describe('Row Added or Updated cursor', () => {
	let t: FakeTable;
	const opts = { column: 'Updated' };
	beforeEach(() => {
		t = new FakeTable();
	});

	it('baseline: highest timestamp and every row that has it', async () => {
		t.add({ Updated: 10 });
		t.add({ Updated: 20 });
		t.add({ Updated: 20 });
		t.add({ Updated: null });
		expect(await rowUpdatedBaseline(t.fetch, opts)).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: 20,
			ids: [2, 3],
		});
		expect(t.takeLog()).toEqual([
			{ sort: '-Updated,-id', limit: 1 },
			{ filter: { Updated: [20] }, sort: 'id' },
		]);
		expect(await rowUpdatedBaseline(new FakeTable().fetch, opts)).toEqual({
			kind: 'rowAddedOrUpdated',
			ts: null,
			ids: [],
		});
	});

	it('nothing new: one request of ids.length + 1 rows', async () => {
		for (let i = 0; i < 500; i++) t.add({ Updated: i });
		const state = await rowUpdatedBaseline(t.fetch, opts);
		t.takeLog();
		const out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(out).toEqual({ records: [], state, changed: false, more: false });
		expect(t.takeLog()).toEqual([{ sort: '-Updated,-id', limit: 2 }]);
	});

	it('added and updated rows: emitted by timestamp, then id; each once', async () => {
		t.add({ Updated: 10, Name: 'a' });
		t.add({ Updated: 11, Name: 'b' });
		let state = await rowUpdatedBaseline(t.fetch, opts);
		t.update(1, { Updated: 15, Name: 'a2' });
		t.add({ Updated: 14, Name: 'c' });
		const out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(out.records.map((r) => r.fields.Name)).toEqual(['c', 'a2']);
		expect(out.state).toEqual({ kind: 'rowAddedOrUpdated', ts: 15, ids: [1] });
		state = out.state;
		expect((await pollRowUpdated(state, t.fetch, opts, limits)).records).toEqual([]);
	});

	it('several updates sharing one timestamp, split by the cap: none lost, none twice', async () => {
		t.add({ Updated: 5 });
		let state = await rowUpdatedBaseline(t.fetch, opts);
		t.add({ Updated: 7 });
		t.add({ Updated: 7 });
		t.add({ Updated: 7 });
		const first = await pollRowUpdated(state, t.fetch, opts, { maxRecords: 2 });
		expect(ids(first.records)).toEqual([2, 3]);
		expect(first.state).toEqual({ kind: 'rowAddedOrUpdated', ts: 7, ids: [2, 3] });
		expect(first.more).toBe(true);
		state = first.state;
		const second = await pollRowUpdated(state, t.fetch, opts, { maxRecords: 2 });
		expect(ids(second.records)).toEqual([4]);
		expect(second.state).toEqual({ kind: 'rowAddedOrUpdated', ts: 7, ids: [2, 3, 4] });
		state = second.state;
		// A row that later gets the same timestamp (same bulk action seen late, or a Date column) is due.
		t.update(1, { Updated: 7 });
		const third = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(ids(third.records)).toEqual([1]);
		state = third.state;
		expect((await pollRowUpdated(state, t.fetch, opts, limits)).records).toEqual([]);
	});

	it('a row emitted at ts and updated again later is emitted again (it changed)', async () => {
		t.add({ Updated: 1 });
		let state = await rowUpdatedBaseline(t.fetch, opts);
		t.update(1, { Updated: 2 });
		let out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(ids(out.records)).toEqual([1]);
		state = out.state;
		t.update(1, { Updated: 3 });
		out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(ids(out.records)).toEqual([1]);
	});

	it("only Grist timestamps are compared: values far from n8n's clock work the same", async () => {
		const future = Date.now() / 1000 + 10 * 365 * 86400; // a server clock years ahead
		t.add({ Updated: future });
		let state = await rowUpdatedBaseline(t.fetch, opts);
		t.add({ Updated: future + 0.001 });
		const out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(ids(out.records)).toEqual([2]);
		state = out.state;
		// A timestamp below the cursor (server clock went back) is not emitted: documented.
		t.add({ Updated: 5 });
		expect((await pollRowUpdated(state, t.fetch, opts, limits)).records).toEqual([]);
	});

	it('many due rows: the page doubles until it reaches the cursor, O(log n) requests', async () => {
		for (let i = 0; i < 10; i++) t.add({ Updated: i });
		const state = await rowUpdatedBaseline(t.fetch, opts);
		for (let i = 0; i < 100; i++) t.add({ Updated: 100 + i });
		t.takeLog();
		const out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(ids(out.records)).toEqual(span(11, 110));
		expect(t.takeLog().map((q) => q.limit)).toEqual([2, 4, 8, 16, 32, 64, 128]);
	});

	it('empty baseline: every row with a timestamp is due, rows without one never', async () => {
		let state: RowUpdatedState = await rowUpdatedBaseline(t.fetch, opts);
		t.add({ Updated: null });
		t.add({ Updated: 3 });
		t.add({ Updated: 2 });
		const out = await pollRowUpdated(state, t.fetch, opts, limits);
		expect(ids(out.records)).toEqual([3, 2]);
		state = out.state;
		expect((await pollRowUpdated(state, t.fetch, opts, limits)).records).toEqual([]);
	});

	it('user filter goes with every request', async () => {
		t.add({ Updated: 1, Status: 'Open' });
		const state = await rowUpdatedBaseline(t.fetch, { ...opts, filter: { Status: ['Open'] } });
		t.add({ Updated: 2, Status: 'Done' });
		t.add({ Updated: 3, Status: 'Open' });
		t.takeLog();
		const out = await pollRowUpdated(
			state,
			t.fetch,
			{ ...opts, filter: { Status: ['Open'] } },
			limits,
		);
		expect(ids(out.records)).toEqual([3]);
		expect(t.takeLog().every((q) => JSON.stringify(q.filter) === '{"Status":["Open"]}')).toBe(true);
	});

	it('a timestamp cell that is not a number fails the poll', async () => {
		t.add({ Updated: 1 });
		const state = await rowUpdatedBaseline(t.fetch, opts);
		t.add({ Updated: 'yesterday' });
		const failure = pollRowUpdated(state, t.fetch, opts, limits);
		await expect(failure).rejects.toBeInstanceOf(InputError);
		await expect(failure).rejects.toMatchObject({
			field: TIMESTAMP_FIELD,
			message: 'The timestamp column "Updated" holds a value that is not a date or number (row 2)',
		});
	});
});
