/**
 * The Grist Trigger's cursors of the record events (Row Added: ./events/rowAddedCursor.ts; Row
 * Added or Updated: ./events/rowAddedOrUpdatedCursor.ts): given the state kept in the workflow's
 * static data and a way to read records, which records a poll emits and what the next state is.
 * No n8n and no HTTP in them: the event passes a `FetchRecords` built on GristClient, the unit
 * tests an in-memory table. This file holds what both cursors share.
 *
 * Grist's `GET /records` knows `filter` (equality only: `{"col": [v1, v2]}`), `sort` and `limit`,
 * and has no offset and no "greater than". The design works with those three only.
 *
 * Both: the state changes only in the returned object; the caller stores it only when the poll
 * succeeds, so a failed poll (server error, timeout) leaves the cursor where it was.
 *
 * ## Idle check (a cheap question first)
 * Where the credential may use Grist's `/sql`, a poll first asks a question Grist answers from the
 * document's SQLite file without loading the document (a records read with `sort` loads it and
 * sorts the whole table). Only a sure "nothing is due" ends the poll there; anything else
 * (something may be due, an unexpected value) goes on with the records reads, so what is
 * emitted and the cursor are exactly as without the check. Each cursor says its question.
 */
import type { GristRecord } from '../Grist/cells/cellValues';
import type { GristFilter } from '../Grist/query/filters';

export interface RecordsQuery {
	sort?: string;
	limit?: number;
	/**
	 * Given: the read applies the user's Filter; it holds the user's Grist filter (empty when the
	 * reader runs the user's conditions on `/sql`) with the cursor's own tests added. Absent: the
	 * whole table (e.g. its top id).
	 */
	filter?: GristFilter;
}

/** Reads records: `GET /records` with these parameters. Rows come back in `sort` order. */
export type FetchRecords = (query: RecordsQuery) => Promise<GristRecord[]>;

export interface PollLimits {
	/** Most records one poll emits; the rest comes with the next polls. */
	maxRecords: number;
	/** Most window requests one poll makes (Row Added). */
	maxRequests?: number;
	/** Whether the poll's time budget is spent: stop reading, emit what there is. */
	outOfTime?: () => boolean;
}

export interface PollOutcome<S> {
	records: GristRecord[];
	state: S;
	/** Whether the state differs from the input state. */
	changed: boolean;
	/** Whether more due records are known to remain for the next poll. */
	more: boolean;
}

/** A question for Grist's `/sql` (the idle check). */
export interface IdleQuery {
	sql: string;
	args: Array<string | number | null>;
}

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

/** Whether two states are the same (they are plain JSON). */
export function sameState<S>(a: S, b: S): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}
