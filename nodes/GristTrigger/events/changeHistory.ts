/**
 * What the change events of the polling trigger (Row Deleted, Row Updated, Row Added, Updated or Deleted; the
 * event is ./rowChanges.ts) read from Grist's document history: the cursor is a history state's hash; a poll asks
 * `GET /compare?left=<cursor>&right=HEAD` for the net changes since it, emits the watched table's
 * rows and stores the `right` hash Grist answered with (not HEAD read again, which could have
 * moved). So every change is emitted once, in the poll after it, also across restarts and in
 * queue mode (the cursor is in the node's static data, written only with the items it emits).
 *
 * When Grist no longer has the cursor's state (it keeps about 1,000 actions of the whole
 * document, any table's edits count; a document replaced or restored has another history), the
 * changes since the last poll cannot be listed. `/compare` then answers 500 `Cannot read hash`;
 * the trigger checks `/states` to tell that from a passing failure, then, as the user chose in
 * Options → If Change History Is Lost: stops with an error that says so (default), or starts again
 * from the document's current state (the changes in between are not emitted).
 */
import { NodeApiError, type INode } from 'n8n-workflow';

import { toNodeError } from '../../Grist/errors/nodeErrors';
import { type GristRecord } from '../../Grist/cells/cellValues';
import {
	classifyChanges,
	tableIdAfter,
	type ActionSummary,
	type ClassifyOptions,
	type HistoryState,
	type RowChange,
} from '../../Grist/history/rowChangeDecoding';
import type { GristClient } from '../../Grist/api/client';
import { compareStates, fetchStates } from '../../Grist/api/history';
import { fetchRecords } from '../../Grist/api/records';
import { historyForbidden, historyLost } from '../pollErrors';
import type { LostHistory } from '../triggerSettings';

/**
 * Rows of one bulk action whose cell values Grist reports (its default is 10); larger actions
 * report the rest as unknown. Bounds the answer of one poll after a huge bulk edit.
 */
export const COMPARE_MAX_ROWS = 10_000;

/** Ids per request when reading the current rows of added and updated records. */
const IDS_PER_READ = 500;

/** The newest history state: the baseline of a change trigger. */
export async function latestState(client: GristClient, docId: string): Promise<string> {
	const states = await fetchStates(client, docId);
	if (!states[0]) throw new Error(`Grist listed no history state for document "${docId}"`);
	return states[0].h;
}

/** The net changes between two history states. */
export interface Compared {
	left: HistoryState;
	right: HistoryState;
	summary: ActionSummary | undefined;
}

/**
 * `/compare` from the cursor to HEAD. Undefined when the cursor's state is no longer in Grist's
 * history and the user chose to start again: then `restartAt` holds the new cursor.
 */
export async function compareSince(
	client: GristClient,
	node: INode,
	docId: string,
	h: string,
	lost: LostHistory,
): Promise<Compared | { restartAt: string }> {
	let error: NodeApiError;
	try {
		const res = await compareStates(client, docId, h, 'HEAD', COMPARE_MAX_ROWS);
		return {
			left: res.left ?? { n: res.right.n, h },
			right: res.right,
			summary: res.details?.rightChanges,
		};
	} catch (failure) {
		if (!(failure instanceof NodeApiError)) throw toNodeError(node, failure);
		error = failure;
	}
	const status = Number(error.httpCode);
	if (status === 403 && /insufficient access/i.test(apiMessage(error)))
		throw historyForbidden(node);
	if (status !== 500 || !/cannot read hash/i.test(apiMessage(error)))
		throw toNodeError(node, error);
	const states = await fetchStates(client, docId);
	// the state is there: a passing failure
	if (states.some((s) => s.h === h)) throw toNodeError(node, error);
	if (lost === 'restart' && states[0]) return { restartAt: states[0].h };
	throw historyLost(node);
}

/** Grist's own error text (the client puts it in the message). */
function apiMessage(error: NodeApiError): string {
	return String(error.message ?? '');
}

/**
 * `changes` with each deleted row's values as they were when it was deleted. `/compare` from the
 * cursor gives a removed row's cells as they were at the cursor's state, so a row edited and then
 * deleted between two polls would show its old values. When the range holds more than one
 * action, the deleting action of each row is found by bisecting the states of the range — a row
 * that is there at state `lo` is in the `removeRows` of `/compare?left=<lo>&right=<mid>` exactly
 * when it was deleted by `mid` (these probes ask for no cells) — and then each deleting action is
 * compared alone: its cells are the rows' values right before it. Requests: none for a range of
 * one action or without deleted rows; otherwise one `/states`, about log2(actions) probes per
 * deleting action, and one compare per deleting action.
 *
 * A row whose deleting action is no longer in Grist's history keeps the values of the cursor's
 * state and is marked `valuesAsOfLastPoll`.
 */
export async function withValuesAtDeletion(
	client: GristClient,
	docId: string,
	range: { left: HistoryState; right: HistoryState },
	/** The table's id at the range's left state. */
	tableId: string,
	changes: RowChange[],
	classify: ClassifyOptions,
): Promise<RowChange[]> {
	const deleted = changes.filter((c) => c.change === 'deleted').map((c) => c.id);
	if (deleted.length === 0 || range.right.n - range.left.n <= 1) return changes;
	const exact = await deletionValues(client, docId, range, tableId, deleted, classify);
	return changes.map((c) =>
		c.change !== 'deleted' ? c : (exact.get(c.id) ?? { ...c, valuesAsOfLastPoll: true }),
	);
}

/** The deleted rows' values from their deleting actions (see withValuesAtDeletion). */
async function deletionValues(
	client: GristClient,
	docId: string,
	range: { left: HistoryState; right: HistoryState },
	tableId: string,
	ids: number[],
	classify: ClassifyOptions,
): Promise<Map<number, RowChange>> {
	const out = new Map<number, RowChange>();
	const byN = new Map((await fetchStates(client, docId)).map((s) => [s.n, s.h]));
	const chain: string[] = [];
	for (let n = range.left.n; n <= range.right.n; n++) chain.push(byN.get(n) ?? '');
	if (chain[0] !== range.left.h || chain[chain.length - 1] !== range.right.h || chain.includes(''))
		return out;

	// Bisection: each entry holds rows there at state `lo` and deleted by state `hi`.
	const found: Array<{ at: number; table: string; ids: number[] }> = [];
	const open = [{ lo: 0, hi: chain.length - 1, table: tableId, ids }];
	while (open.length > 0) {
		const { lo, hi, table, ids: rows } = open.pop()!;
		if (hi - lo === 1) {
			found.push({ at: hi, table, ids: rows });
			continue;
		}
		const mid = (lo + hi) >> 1;
		const probe = await compareStates(client, docId, chain[lo], chain[mid], 1);
		const summary = probe.details?.rightChanges;
		const tableAtMid = tableIdAfter(summary, table);
		const removed = new Set(
			tableAtMid === null ? rows : (summary?.tableDeltas?.[tableAtMid]?.removeRows ?? []),
		);
		const early = rows.filter((id) => removed.has(id));
		const late = rows.filter((id) => !removed.has(id));
		if (early.length > 0) open.push({ lo, hi: mid, table, ids: early });
		if (late.length > 0) open.push({ lo: mid, hi, table: tableAtMid ?? table, ids: late });
	}

	for (const { at, table, ids: rows } of found) {
		const res = await compareStates(client, docId, chain[at - 1], chain[at], COMPARE_MAX_ROWS);
		const summary = res.details?.rightChanges;
		const after = tableIdAfter(summary, table);
		const wantedIds = new Set(rows);
		const delta = after === null ? undefined : summary?.tableDeltas?.[after];
		for (const change of classifyChanges(delta, classify))
			if (change.change === 'deleted' && wantedIds.has(change.id)) out.set(change.id, change);
	}
	return out;
}

/** Current rows of `ids` (added and updated records), read in batches of ids. */
export async function currentRows(
	client: GristClient,
	docId: string,
	tableId: string,
	ids: number[],
): Promise<Map<number, GristRecord>> {
	const out = new Map<number, GristRecord>();
	for (let i = 0; i < ids.length; i += IDS_PER_READ) {
		const batch = ids.slice(i, i + IDS_PER_READ);
		const rows = await fetchRecords(
			client,
			{ docId, tableId },
			{ filter: JSON.stringify({ id: batch }) },
		);
		for (const row of rows) out.set(row.id, row);
	}
	return out;
}

/** Most `/compare` requests the search for a sample's change makes (Fetch Test Event). */
export const SAMPLE_COMPARES = 40;

/**
 * The newest single actions of Grist's kept history, newest first, with a row change of
 * `tableId` (its id now) for which `wanted` says yes: each as the compare of that one action, its
 * cells in full (a removed row's values right before its deletion). For *Fetch test event* on the
 * change events, which shows the latest real change.
 *
 * An action is found without comparing every action alone: the net changes from `HEAD~k` to the
 * newest state looked at (`maxRows=1`: ids, few cells) are asked for k = 1, 2, 4 … until they
 * hold a wanted change, then the least such k is found by bisection, and that one action is
 * compared. Net changes can hide one (a row added and deleted within the range), so this finds
 * the latest change that is still visible from the newest state, which is the latest change
 * unless later actions undid it. At most SAMPLE_COMPARES compares; a table renamed in Grist is
 * looked for by its current id only.
 */
export async function* recentActions(
	client: GristClient,
	docId: string,
	tableId: string,
	wanted: (changes: RowChange[]) => boolean,
	classify: ClassifyOptions,
): AsyncGenerator<Compared> {
	const states = await fetchStates(client, docId);
	const budget = { compares: SAMPLE_COMPARES };
	/** Whether the net changes from states[k] to states[anchor] hold a wanted change. */
	const holds = async (k: number, anchor: number): Promise<boolean> => {
		budget.compares--;
		const res = await compareStates(client, docId, states[k].h, states[anchor].h, 1);
		return wanted(classifyChanges(res.details?.rightChanges?.tableDeltas?.[tableId], classify));
	};
	for (let anchor = 0; ; ) {
		const k = await newestHolding(anchor, states.length - 1, holds, budget);
		if (k === undefined || budget.compares <= 0) return;
		// the action from states[k] to states[k - 1], alone
		budget.compares--;
		const res = await compareStates(client, docId, states[k].h, states[k - 1].h, COMPARE_MAX_ROWS);
		yield { left: states[k], right: states[k - 1], summary: res.details?.rightChanges };
		anchor = k;
	}
}

/**
 * The least k in (anchor, oldest] for which `holds(k, anchor)`: by doubling, then bisection;
 * undefined when none does or the budget of compares runs out first.
 */
async function newestHolding(
	anchor: number,
	oldest: number,
	holds: (k: number, anchor: number) => Promise<boolean>,
	budget: { compares: number },
): Promise<number | undefined> {
	let lo = anchor;
	let hi = -1;
	for (let step = 1; hi < 0; step *= 2) {
		if (lo >= oldest || budget.compares <= 0) return undefined;
		const k = Math.min(anchor + step, oldest);
		if (await holds(k, anchor)) hi = k;
		else lo = k;
	}
	while (hi - lo > 1) {
		if (budget.compares <= 0) return undefined;
		const mid: number = (lo + hi) >> 1;
		if (await holds(mid, anchor)) hi = mid;
		else lo = mid;
	}
	return hi;
}
