/**
 * The cursor of Row Added or Updated (`rowAddedOrUpdated`); what the record cursors share and
 * their design is in ../cursor.ts.
 *
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
 * Idle check: the rows at or above the cursor's timestamp, newest first, at most
 * `ids.length + 1` of them (unfiltered: when no row of the table is due, no filtered row is).
 * Idle when they are exactly rows already emitted at the cursor's timestamp.
 */
import type { GristRecord } from '../../Grist/cells/cellValues';
import type { GristFilter } from '../../Grist/query/filters';
import { sqlIdentifier } from '../../Grist/query/sqlQuery';
import type { FetchRecords, IdleQuery, PollLimits, PollOutcome } from '../cursor';
import { notATimestamp } from '../pollErrors';

export interface RowUpdatedState {
	kind: 'rowAddedOrUpdated';
	/** Highest timestamp emitted (or seen at the baseline); `null`: none yet. */
	ts: number | null;
	/** Ids emitted (or seen at the baseline) with timestamp exactly `ts`. */
	ids: number[];
}

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
	throw notATimestamp(column, row.id);
}

export function byTimestampDesc(column: string): string {
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
