/**
 * The cursor of Row Added (`rowAdded`); what the record cursors share and their design is in
 * ../cursor.ts.
 *
 * State `{ lastId, mark? }`: every row with an id ≤ `lastId` is old. Grist gives a new row the id
 * `max(existing ids) + 1`, so an id below the current highest one is never handed out again.
 * - Check (every poll, 1 request, constant size): `sort=-id&limit=1`, unfiltered → top id `M`.
 *   - `M === lastId`: nothing new (see "reuse" below).
 *   - `M < lastId`: the rows at the end were deleted, so ids `M+1…lastId` are free and will be
 *     handed out again: the cursor goes down to `M` (no record emitted; nothing above `M` exists).
 *   - `M > lastId`: new rows have ids in `lastId+1…M`. They are read in id order, in windows of
 *     WINDOW_IDS consecutive ids (`filter={"id":[a…b], …user filter}&sort=id`): deleted ids
 *     simply do not come back, the work is proportional to the number of new ids, and the oldest
 *     rows come first, so a backlog larger than `maxRecords` (or than the poll's time budget) is
 *     drained over several polls, in order.
 * - Reuse of the highest id: when a poll sees the top id below the cursor, it lowers the cursor
 *   (above), so rows that later get those ids are emitted. If the last row is deleted *and* its id
 *   handed out again between two polls — or n8n restarted before a lowered cursor was saved (n8n
 *   saves static data only after activation and with a poll that emits) — the id alone cannot
 *   tell. With a creation column (`markColumn`: a column whose value is set once when the row is
 *   created, e.g. a trigger formula `NOW()` on new records only), the cursor keeps that value of
 *   its row (`mark`) and a different value at the same id means a new row, which is emitted.
 *   The rows below it may have been re-created too: when the mark is a number (Date, DateTime,
 *   Numeric), every row below the cursor's id whose creation value is above the mark is new as
 *   well; they are read newest first (`sort=-C,-id`, a page doubling from 8 until it reaches an
 *   older row: cost proportional to their number) and emitted first, in id order, under the same
 *   `maxRecords` cap. Without a creation column, a changed row at the cursor's id is taken as an
 *   edit of the old row and not emitted.
 * - User filter: rows that do not match when they are first read are passed over for good.
 *
 *
 * Idle check: `max(id)` (with the creation column's value of that row when there is one),
 * O(1) in SQLite. Idle when it is the cursor's id (and the creation value is the same).
 */
import type { GristRecord } from '../../Grist/cells/cellValues';
import type { GristFilter } from '../../Grist/query/filters';
import { sqlIdentifier } from '../../Grist/query/sqlQuery';
import {
	sameState,
	withIds,
	type FetchRecords,
	type IdleQuery,
	type PollLimits,
	type PollOutcome,
} from '../cursor';

/** Number of consecutive ids one window request asks for (keeps URLs around 2 KB). */
export const WINDOW_IDS = 200;

export interface RowAddedState {
	kind: 'rowAdded';
	lastId: number;
	/** The creation-column value of row `lastId`, where it is known. */
	mark?: { value: unknown };
}

function range(from: number, to: number): number[] {
	const out: number[] = [];
	for (let i = from; i <= to; i++) out.push(i);
	return out;
}

function markOf(
	record: GristRecord | undefined,
	markColumn: string | undefined,
): { value: unknown } | undefined {
	if (!record || !markColumn) return undefined;
	const value = record.fields?.[markColumn];
	return { value: value === undefined ? null : value };
}

function sameMark(a: { value: unknown } | undefined, b: { value: unknown } | undefined): boolean {
	return JSON.stringify(a?.value ?? null) === JSON.stringify(b?.value ?? null);
}

export interface RowAddedOptions {
	filter?: GristFilter;
	/** Creation column used to tell a reused id from an edited row. */
	markColumn?: string;
}

/** The newest row of the table (unfiltered), or undefined for an empty table. */
async function topById(fetch: FetchRecords): Promise<GristRecord | undefined> {
	const rows = await fetch({ sort: '-id', limit: 1 });
	return rows[0];
}

/** First poll: where the table stands. Nothing is emitted. */
export async function rowAddedBaseline(
	fetch: FetchRecords,
	opts: RowAddedOptions = {},
): Promise<RowAddedState> {
	const top = await topById(fetch);
	const state: RowAddedState = { kind: 'rowAdded', lastId: top?.id ?? 0 };
	const mark = markOf(top, opts.markColumn);
	if (mark) state.mark = mark;
	return state;
}

/**
 * Rows below the cursor's id that were created after the cursor's row: when the row at the cursor
 * turned out to be a new row (its creation value changed), the rows just below it may have been
 * deleted and re-created too (Grist hands out max id + 1). With a numeric creation column
 * (Date/DateTime/Numeric, set once at creation, e.g. `NOW()`), those are the rows whose creation
 * value is above the one kept with the cursor: read newest first (`sort=-C,-id`, user filter
 * applied) in a page that doubles until it reaches an older row, so the cost follows their number.
 * Returned in id order.
 */
async function createdAfterMark(
	fetch: FetchRecords,
	lastId: number,
	mark: { value: unknown } | undefined,
	opts: RowAddedOptions,
): Promise<GristRecord[]> {
	const column = opts.markColumn;
	const since = mark?.value;
	if (!column || typeof since !== 'number' || !Number.isFinite(since) || lastId <= 1) return [];
	const newer = (row: GristRecord): boolean => {
		const value = row.fields?.[column];
		return typeof value === 'number' && value > since;
	};
	let k = 8;
	let page: GristRecord[];
	for (;;) {
		page = await fetch({ sort: `-${column},-id`, limit: k, filter: opts.filter });
		const last = page[page.length - 1];
		if (page.length < k || !last || !newer(last)) break;
		k *= 2;
	}
	return page.filter((row) => row.id < lastId && newer(row)).sort((a, b) => a.id - b.id);
}

/** One Row Added poll: its inputs, and the newest row of the table it found. */
interface RowAddedPoll {
	state: RowAddedState;
	fetch: FetchRecords;
	opts: RowAddedOptions;
	limits: PollLimits;
	maxRecords: number;
	top: GristRecord | undefined;
	topId: number;
	/** Whether a creation column tells if the row at the cursor is still the one we know. */
	checkReuse: boolean;
}

function rowAddedAt(id: number, mark: { value: unknown } | undefined): RowAddedState {
	return mark ? { kind: 'rowAdded', lastId: id, mark } : { kind: 'rowAdded', lastId: id };
}

function outcome(
	p: RowAddedPoll,
	records: GristRecord[],
	next: RowAddedState,
	more = false,
): PollOutcome<RowAddedState> {
	return { records, state: next, changed: !sameState(p.state, next), more };
}

/** Whether a row at the cursor's id is a new row: its creation value is not the cursor's. */
function reused(p: RowAddedPoll, row: GristRecord): boolean {
	return p.checkReuse && !sameMark(markOf(row, p.opts.markColumn), p.state.mark);
}

export async function pollRowAdded(
	state: RowAddedState,
	fetch: FetchRecords,
	opts: RowAddedOptions,
	limits: PollLimits,
): Promise<PollOutcome<RowAddedState>> {
	const top = await topById(fetch);
	const p: RowAddedPoll = {
		state,
		fetch,
		opts,
		limits,
		maxRecords: Math.max(1, Math.floor(limits.maxRecords)),
		top,
		topId: top?.id ?? 0,
		checkReuse: !!opts.markColumn && !!state.mark && state.lastId > 0,
	};
	if (p.topId < state.lastId) {
		// Rows at the end were deleted: their ids will be handed out again, so they count as new.
		return outcome(p, [], rowAddedAt(p.topId, markOf(top, opts.markColumn)));
	}
	if (p.topId === state.lastId) return await atSameTop(p);
	return await readNewIds(p);
}

/** The top id is the cursor's: nothing new, unless a new row got the id of the last one. */
async function atSameTop(p: RowAddedPoll): Promise<PollOutcome<RowAddedState>> {
	const { state, top, opts } = p;
	if (!top || !reused(p, top)) return outcome(p, [], state);
	// The last row was deleted and a new row got its id between two polls (rows below it may
	// have been re-created too).
	let rows = [top];
	if (opts.filter !== undefined) {
		const q = withIds(opts.filter, [state.lastId]);
		rows = q.ids.length ? await p.fetch({ filter: q.filter, sort: 'id' }) : [];
	}
	const below = await createdAfterMark(p.fetch, state.lastId, state.mark, opts);
	if (below.length >= p.maxRecords) {
		// The rest (up to the top) is above the new cursor: the next polls read it in windows.
		const emit = below.slice(0, p.maxRecords);
		const last = emit[emit.length - 1];
		return outcome(p, emit, rowAddedAt(last.id, markOf(last, opts.markColumn)), true);
	}
	return outcome(p, [...below, ...rows], rowAddedAt(state.lastId, markOf(top, opts.markColumn)));
}

/** New ids lastId+1 … topId: read in windows, oldest first, up to the poll's limits. */
async function readNewIds(p: RowAddedPoll): Promise<PollOutcome<RowAddedState>> {
	const { opts, top, topId, maxRecords } = p;
	const maxRequests = Math.max(1, p.limits.maxRequests ?? 50);
	const records: GristRecord[] = [];
	let cursor = p.state.lastId;
	let cursorMark = p.state.mark;
	let requests = 0;
	let next = cursor + 1;
	let more = false;
	while (next <= topId) {
		const end = Math.min(next + WINDOW_IDS - 1, topId);
		const candidates = await windowRows(p, next, end, requests === 0);
		requests++;
		let cut = false;
		let endRow: GristRecord | undefined;
		for (const row of candidates) {
			if (records.length >= maxRecords) {
				cut = true;
				break;
			}
			records.push(row);
			if (row.id === end) endRow = row;
		}
		if (cut) {
			const last = records[records.length - 1];
			cursor = last.id;
			cursorMark = markOf(last, opts.markColumn);
			more = true;
			break;
		}
		cursor = end;
		cursorMark = end === topId ? markOf(top, opts.markColumn) : markOf(endRow, opts.markColumn);
		next = end + 1;
		const full = records.length >= maxRecords;
		if (next <= topId && (full || requests >= maxRequests || p.limits.outOfTime?.() === true)) {
			more = true;
			break;
		}
	}
	return outcome(p, records, rowAddedAt(cursor, cursorMark), more);
}

/**
 * The rows of the window `next…end` (user filter applied), in id order. The first window also
 * reads the cursor's row when a creation column can tell it was re-created: then it comes first,
 * after the rows below it created since (createdAfterMark).
 */
async function windowRows(
	p: RowAddedPoll,
	next: number,
	end: number,
	first: boolean,
): Promise<GristRecord[]> {
	const lastId = p.state.lastId;
	const ids = range(next, end);
	if (first && p.checkReuse) ids.unshift(lastId);
	const q = withIds(p.opts.filter, ids);
	const rows = q.ids.length ? await p.fetch({ filter: q.filter, sort: 'id' }) : [];
	rows.sort((a, b) => a.id - b.id);
	const candidates: GristRecord[] = [];
	for (const row of rows) {
		if (row.id === lastId) {
			if (!reused(p, row)) continue;
			// Rows below the cursor's row may have been re-created with it: they come first.
			candidates.push(...(await createdAfterMark(p.fetch, lastId, p.state.mark, p.opts)));
		} else if (row.id < next || row.id > end) {
			continue; // not asked for: ignore
		}
		candidates.push(row);
	}
	return candidates;
}

export function rowAddedIdleQuery(tableId: string, markColumn?: string): IdleQuery {
	const t = sqlIdentifier(tableId);
	if (!markColumn) return { sql: `SELECT max(id) AS id FROM ${t}`, args: [] };
	return {
		sql: `SELECT id, ${sqlIdentifier(markColumn)} AS mark FROM ${t} WHERE id = (SELECT max(id) FROM ${t})`,
		args: [],
	};
}

/** A raw SQLite value (Bool 0/1, lists as JSON text) against a value as the records API gives it. */
function sameRawValue(raw: unknown, api: unknown): boolean {
	if (api === undefined || api === null) return raw === null || raw === undefined;
	if (typeof api === 'boolean') return raw === (api ? 1 : 0);
	if (Array.isArray(api) && api[0] === 'L') return raw === JSON.stringify(api.slice(1));
	if (typeof api === 'number' || typeof api === 'string') return raw === api;
	return false;
}

export function rowAddedIsIdle(
	state: RowAddedState,
	rows: Array<Record<string, unknown>>,
	markColumn?: string,
): boolean {
	const top = rows[0];
	const topId = top && typeof top.id === 'number' ? top.id : top?.id == null ? 0 : NaN;
	if (topId !== state.lastId) return false;
	if (!markColumn || !state.mark || state.lastId === 0) return true;
	return sameRawValue(top.mark, state.mark.value);
}
