/**
 * The Grist Trigger's cursor: given the state kept in the workflow's static data and a way to
 * read records, which records a poll emits and what the next state is. No n8n and no HTTP in
 * here: the node passes a `FetchRecords` built on GristClient, the unit tests an in-memory table.
 *
 * Grist's `GET /records` knows `filter` (equality only: `{"col": [v1, v2]}`), `sort` and `limit`,
 * and has no offset and no "greater than". The design works with those three only.
 *
 * ## Row Added (`rowAdded`)
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
 * ## Row Added or Updated (`rowAddedOrUpdated`)
 * State `{ ts, ids }`: the highest timestamp emitted and the ids emitted at exactly that
 * timestamp. A row is due when `ts(row) > ts`, or `ts(row) === ts` and its id is not in `ids`.
 * Only timestamps read from Grist are compared, never n8n's clock, so a server clock that differs
 * from n8n's does not matter.
 * - One request, `sort=-C,-id&limit=k` (user filter applied) with `k = ids.length + 1`: when
 *   nothing is due, that page holds exactly the rows at `ts` and one older row (or the table
 *   ends). Otherwise `k` doubles until the page reaches below `ts` (or the table ends), so reading
 *   `n` due rows costs O(n) rows and O(log n) requests.
 * - Due rows are emitted oldest first by `(timestamp, id)`; at most `maxRecords` per poll, the
 *   rest on the next polls (in order; the cursor lands exactly on the last emitted row).
 * - Rows whose timestamp is empty are never emitted. A row whose timestamp is set to a value
 *   below `ts` (edited by hand, or the Grist server's clock went back) is not emitted. A row
 *   changed again with exactly the timestamp it was emitted with is not emitted again (matters
 *   for Date columns, whose value is one per day: use DateTime with `NOW()`).
 *
 * Both: the state changes only in the returned object; the caller stores it only when the poll
 * succeeds, so a failed poll (server error, timeout) leaves the cursor where it was.
 */
import type { GristRecord } from '../Grist/cells/cellValues';
import { InputError } from '../Grist/errors/gristAnswers';
import type { GristFilter } from '../Grist/query/filters';
import { sqlIdentifier } from '../Grist/query/sqlQuery';

export interface RecordsQuery {
	sort?: string;
	limit?: number;
	filter?: GristFilter;
}

/** Reads records: `GET /records` with these parameters. Rows come back in `sort` order. */
export type FetchRecords = (query: RecordsQuery) => Promise<GristRecord[]>;

/** Number of consecutive ids one window request asks for (keeps URLs around 2 KB). */
export const WINDOW_IDS = 200;

/** The field of the Row Added or Updated event whose cells are the timestamps. */
export const TIMESTAMP_FIELD = 'Timestamp Column';

export interface RowAddedState {
	kind: 'rowAdded';
	lastId: number;
	/** The creation-column value of row `lastId`, where it is known. */
	mark?: { value: unknown };
}

export interface RowUpdatedState {
	kind: 'rowAddedOrUpdated';
	/** Highest timestamp emitted (or seen at the baseline); `null`: none yet. */
	ts: number | null;
	/** Ids emitted (or seen at the baseline) with timestamp exactly `ts`. */
	ids: number[];
}

export type CursorState = RowAddedState | RowUpdatedState;

export interface PollLimits {
	/** Most records one poll emits; the rest comes with the next polls. */
	maxRecords: number;
	/** Most window requests one poll makes (Row Added). */
	maxRequests?: number;
	/** Whether the poll's time budget is spent: stop reading, emit what there is. */
	outOfTime?: () => boolean;
}

export interface PollOutcome<S extends CursorState> {
	records: GristRecord[];
	state: S;
	/** Whether the state differs from the input state. */
	changed: boolean;
	/** Whether more due records are known to remain for the next poll. */
	more: boolean;
}

// ---------------------------------------------------------------------------------------------
// Filters

/** The user filter with `id` restricted to `ids` (intersected with the user's own `id` values). */
export function withIds(
	filter: GristFilter | undefined,
	ids: number[],
): { filter: GristFilter; ids: number[] } {
	const user = filter ?? {};
	let wanted = ids;
	if (Array.isArray(user.id)) {
		const allowed = new Set(user.id.map((v) => Number(v)));
		wanted = ids.filter((id) => allowed.has(id));
	}
	return { filter: { ...user, id: wanted }, ids: wanted };
}

function hasFilter(filter: GristFilter | undefined): filter is GristFilter {
	return !!filter && Object.keys(filter).length > 0;
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

function sameState(a: CursorState, b: CursorState): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

// ---------------------------------------------------------------------------------------------
// Row Added

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

export async function pollRowAdded(
	state: RowAddedState,
	fetch: FetchRecords,
	opts: RowAddedOptions,
	limits: PollLimits,
): Promise<PollOutcome<RowAddedState>> {
	const maxRecords = Math.max(1, Math.floor(limits.maxRecords));
	const maxRequests = Math.max(1, limits.maxRequests ?? 50);
	const top = await topById(fetch);
	const topId = top?.id ?? 0;
	const lastId = state.lastId;
	const done = (
		records: GristRecord[],
		next: RowAddedState,
		more = false,
	): PollOutcome<RowAddedState> => ({
		records,
		state: next,
		changed: !sameState(state, next),
		more,
	});
	const at = (id: number, mark: { value: unknown } | undefined): RowAddedState =>
		mark ? { kind: 'rowAdded', lastId: id, mark } : { kind: 'rowAdded', lastId: id };

	if (topId < lastId) {
		// Rows at the end were deleted: their ids will be handed out again, so they count as new.
		return done([], at(topId, markOf(top, opts.markColumn)));
	}

	// A creation column tells whether the row at the cursor is still the one we know.
	const checkReuse = !!opts.markColumn && !!state.mark && lastId > 0;
	const reused = (row: GristRecord): boolean =>
		checkReuse && !sameMark(markOf(row, opts.markColumn), state.mark);

	if (topId === lastId) {
		if (!top || !reused(top)) return done([], state);
		// The last row was deleted and a new row got its id between two polls (rows below it may
		// have been re-created too).
		let rows = [top];
		if (hasFilter(opts.filter)) {
			const q = withIds(opts.filter, [lastId]);
			rows = q.ids.length ? await fetch({ filter: q.filter, sort: 'id' }) : [];
		}
		const below = await createdAfterMark(fetch, lastId, state.mark, opts);
		if (below.length >= maxRecords) {
			// The rest (up to the top) is above the new cursor: the next polls read it in windows.
			const emit = below.slice(0, maxRecords);
			const last = emit[emit.length - 1];
			return done(emit, at(last.id, markOf(last, opts.markColumn)), true);
		}
		return done([...below, ...rows], at(lastId, markOf(top, opts.markColumn)));
	}

	// New ids lastId+1 … topId: read them in windows, oldest first.
	const records: GristRecord[] = [];
	let cursor = lastId;
	let cursorMark = state.mark;
	let requests = 0;
	let next = lastId + 1;
	let more = false;
	let first = true;
	while (next <= topId) {
		const end = Math.min(next + WINDOW_IDS - 1, topId);
		const ids = range(next, end);
		if (first && checkReuse) ids.unshift(lastId);
		first = false;
		const q = withIds(opts.filter, ids);
		const rows = q.ids.length ? await fetch({ filter: q.filter, sort: 'id' }) : [];
		requests++;
		rows.sort((a, b) => a.id - b.id);
		let cut = false;
		let endRow: GristRecord | undefined;
		const candidates: GristRecord[] = [];
		for (const row of rows) {
			if (row.id === lastId) {
				if (!reused(row)) continue;
				// Rows below the cursor's row may have been re-created with it: they come first.
				candidates.push(...(await createdAfterMark(fetch, lastId, state.mark, opts)));
			} else if (row.id < next || row.id > end) {
				continue; // not asked for: ignore
			}
			candidates.push(row);
		}
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
		if (next <= topId && (full || requests >= maxRequests || limits.outOfTime?.() === true)) {
			more = true;
			break;
		}
	}
	return done(records, at(cursor, cursorMark), more);
}

// ---------------------------------------------------------------------------------------------
// Row Added or Updated

export interface RowUpdatedOptions {
	/** The timestamp column (Date, DateTime or Numeric). */
	column: string;
	filter?: GristFilter;
}

function timestampOf(row: GristRecord, column: string): number | null {
	const value = row.fields?.[column];
	if (value === null || value === undefined) return null;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	// Neither a number nor empty: the column has the wrong type.
	throw new InputError(
		`The timestamp column "${column}" holds a value that is not a date or number (row ${row.id})`,
		TIMESTAMP_FIELD,
		'Pick a Date, DateTime or Numeric column in Timestamp Column.',
	);
}

function byTimestampDesc(column: string): string {
	return `-${column},-id`;
}

/** First poll: the highest timestamp and every row that has it. Nothing is emitted. */
export async function rowUpdatedBaseline(
	fetch: FetchRecords,
	opts: RowUpdatedOptions,
): Promise<RowUpdatedState> {
	// The rows due against an empty cursor are all rows with a timestamp; reading them only to
	// skip them would cost the whole table, so: the top row, then the rows sharing its timestamp.
	const [top] = await fetch({ sort: byTimestampDesc(opts.column), limit: 1, filter: opts.filter });
	const ts = top ? timestampOf(top, opts.column) : null;
	if (ts === null) return { kind: 'rowAddedOrUpdated', ts: null, ids: [] };
	const rows = await fetch({ filter: { ...(opts.filter ?? {}), [opts.column]: [ts] }, sort: 'id' });
	const ids = new Set<number>([top.id]);
	for (const row of rows) if (timestampOf(row, opts.column) === ts) ids.add(row.id);
	return { kind: 'rowAddedOrUpdated', ts, ids: [...ids].sort((a, b) => a - b) };
}

export async function pollRowUpdated(
	state: RowUpdatedState,
	fetch: FetchRecords,
	opts: RowUpdatedOptions,
	limits: PollLimits,
): Promise<PollOutcome<RowUpdatedState>> {
	const maxRecords = Math.max(1, Math.floor(limits.maxRecords));
	const known = new Set(state.ids);
	const isDue = (ts: number | null, id: number): boolean =>
		ts !== null && (state.ts === null || ts > state.ts || (ts === state.ts && !known.has(id)));
	/** Whether a row sorted at the end of a page is below the cursor (so nothing due is below it). */
	const belowCursor = (ts: number | null): boolean =>
		ts === null || (state.ts !== null && ts < state.ts);

	let k = state.ids.length + 1;
	let page: GristRecord[];
	for (;;) {
		page = await fetch({ sort: byTimestampDesc(opts.column), limit: k, filter: opts.filter });
		for (const row of page) timestampOf(row, opts.column); // validates every value
		const last = page[page.length - 1];
		if (page.length < k || !last || belowCursor(timestampOf(last, opts.column))) break;
		k *= 2;
	}

	const due = page
		.map((row) => ({ row, ts: timestampOf(row, opts.column) }))
		.filter(({ row, ts }) => isDue(ts, row.id))
		.sort((a, b) => (a.ts as number) - (b.ts as number) || a.row.id - b.row.id);
	const emit = due.slice(0, maxRecords);
	if (emit.length === 0) return { records: [], state, changed: false, more: false };

	const lastTs = emit[emit.length - 1].ts as number;
	const ids = new Set<number>(lastTs === state.ts ? state.ids : []);
	for (const { row, ts } of emit) if (ts === lastTs) ids.add(row.id);
	const next: RowUpdatedState = {
		kind: 'rowAddedOrUpdated',
		ts: lastTs,
		ids: [...ids].sort((a, b) => a - b),
	};
	return {
		records: emit.map((e) => e.row),
		state: next,
		changed: true,
		more: due.length > emit.length,
	};
}

// ---------------------------------------------------------------------------------------------
// Idle check (a cheap question first)

/**
 * Where the credential may use Grist's `/sql`, a poll first asks a question Grist answers from the
 * document's SQLite file without loading the document (a records read with `sort` loads it and
 * sorts the whole table). Only a sure "nothing is due" ends the poll there; anything else
 * (something may be due, an unexpected value) goes on with the records reads above, so what is
 * emitted and the cursor are exactly as without the check.
 *
 * - Row Added: `max(id)` (with the creation column's value of that row when there is one),
 *   O(1) in SQLite. Idle when it is the cursor's id (and the creation value is the same).
 * - Row Added or Updated: the rows at or above the cursor's timestamp, newest first, at most
 *   `ids.length + 1` of them (unfiltered: when no row of the table is due, no filtered row is).
 *   Idle when they are exactly rows already emitted at the cursor's timestamp.
 */
export interface IdleQuery {
	sql: string;
	args: Array<string | number | null>;
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

export function rowUpdatedIdleQuery(
	tableId: string,
	column: string,
	state: RowUpdatedState,
): IdleQuery {
	const t = sqlIdentifier(tableId);
	const c = sqlIdentifier(column);
	if (state.ts === null) {
		return { sql: `SELECT id, ${c} AS ts FROM ${t} WHERE ${c} IS NOT NULL LIMIT 1`, args: [] };
	}
	return {
		sql: `SELECT id, ${c} AS ts FROM ${t} WHERE ${c} >= ? ORDER BY ${c} DESC, id DESC LIMIT ?`,
		args: [state.ts, state.ids.length + 1],
	};
}

export function rowUpdatedIsIdle(
	state: RowUpdatedState,
	rows: Array<Record<string, unknown>>,
): boolean {
	const known = new Set(state.ids);
	return rows.every((r) => r.ts === state.ts && typeof r.id === 'number' && known.has(r.id));
}
