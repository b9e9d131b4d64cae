/**
 * Changes: Exact, from the Document's History. A delivery from Grist only wakes the trigger: the
 * items are the table's net row changes in Grist's history since the state the trigger saved
 * (`GET /compare?left=<state>&right=HEAD`, read and shaped as the Grist Trigger's change events
 * do, ../GristTrigger/events/changeHistory.ts and rowChanges.ts), then the state moves to the
 * `right` state Grist compared against.
 *
 * Where the state is kept. n8n (2.41) does not save what `webhook()` writes into static data when
 * the delivery starts an execution (neither a single n8n nor the webhook process of queue mode:
 * starting the execution builds the workflow again, which clears n8n's "changed" mark before the
 * save); it does save it after a call that starts none. So the state is saved by a second call to
 * this node's own webhook URL (`{ gristTriggerState: { from, to } }`, with the registration's
 * secret), which starts nothing and which n8n saves — before the delivery's items are returned.
 * That save moves the state only from the state it started from (`from`): a delivery that
 * another one overtook (a repeat of the same batch by Grist, two deliveries that meet in two
 * processes) reads again from the state saved by the other one, and emits only what is left.
 * Within one n8n process, deliveries of one trigger run one at a time and start from the newest
 * state this process saved (`latest`), since the workflow of a waiting delivery was loaded
 * before the one ahead of it saved.
 *
 * Requests per delivery: one `/compare`; one records read of the added and updated rows (none
 * when there are none); for deleted rows after more than one action, the deleting actions
 * (changeHistory.ts `withValuesAtDeletion`). Column types: those read at activation (static
 * data), read again only for a delivery whose changes name a column added since.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { columnTypes, isHiddenColumnId } from '../Grist/cells/tableColumns';
import type { GristRecord } from '../Grist/cells/cellValues';
import { classifyChanges, tableIdAfter, type RowChange } from '../Grist/history/rowChangeDecoding';
import { bearer, deliveredItem, type TriggerOn } from '../Grist/webhooks/webhookFields';
import type { GristClient } from '../Grist/api/client';
import { fetchColumns } from '../Grist/api/columns';
import { fetchStates } from '../Grist/api/history';
import {
	compareSince,
	currentRows,
	withValuesAtDeletion,
} from '../GristTrigger/events/changeHistory';
import { changeItem, inColumnOrder } from '../GristTrigger/events/rowChanges';
import type { Stored } from './webhookRegistration';
import { historyGone, stateNotSaved, tableGone } from './webhookTriggerErrors';

/** The history state up to which the trigger has emitted (`n`, `h` as `/states` lists them). */
export interface ChangesState {
	n: number;
	h: string;
	/** The table's id when Grist renamed it since the trigger's Table was picked. */
	table?: string;
}

/** The body of the call that saves the state: a JSON object, never a Grist delivery (an array). */
export interface StateSave {
	gristTriggerState: { from: string; to: ChangesState };
}

/** The newest state of the document: the trigger's baseline at activation. */
export async function newestState(client: GristClient, docId: string): Promise<ChangesState> {
	const [first] = await fetchStates(client, docId);
	if (!first) throw new Error(`Grist listed no history state for document "${docId}"`);
	return { n: first.n, h: first.h };
}

/** Whether a request body is the trigger's own state save. */
export function isStateSave(body: unknown): body is StateSave {
	const save = (body as Partial<StateSave> | null)?.gristTriggerState;
	return (
		typeof body === 'object' &&
		body !== null &&
		!Array.isArray(body) &&
		typeof save?.from === 'string' &&
		typeof save.to?.h === 'string' &&
		typeof save.to.n === 'number'
	);
}

/**
 * The state save received (in `webhook()`): moves the static data's state from `from` to `to`,
 * unless another delivery moved it meanwhile; n8n saves the static data after this call.
 */
export function applyStateSave(data: Stored, save: StateSave): IDataObject {
	const { from, to } = save.gristTriggerState;
	if (data.changes && data.changes.h !== from)
		return { saved: false, current: data.changes as unknown as IDataObject };
	data.changes = to.table ? { n: to.n, h: to.h, table: to.table } : { n: to.n, h: to.h };
	return { saved: true };
}

/** Per trigger (workflow, node, registration): the newest state this process saved. */
const latest = new Map<string, ChangesState>();
/** Per trigger: the delivery running in this process; the next one waits for it. */
const running = new Map<string, Promise<unknown>>();
const LATEST_MAX = 200;

function remember(key: string, state: ChangesState): void {
	latest.delete(key);
	latest.set(key, state);
	while (latest.size > LATEST_MAX) {
		const oldest = latest.keys().next().value;
		if (oldest === undefined) break;
		latest.delete(oldest);
	}
}

/** Runs `work` after the deliveries of the same trigger that this process is running. */
async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
	const before = running.get(key) ?? Promise.resolve();
	const mine = before.catch(() => undefined).then(work);
	running.set(key, mine);
	try {
		return await mine;
	} finally {
		if (running.get(key) === mine) running.delete(key);
	}
}

/** The newer of two states (a higher action number). */
function newer(a: ChangesState | undefined, b: ChangesState | undefined): ChangesState | undefined {
	if (!a) return b;
	if (!b) return a;
	return b.n > a.n ? b : a;
}

export interface ExactDelivery {
	fn: IWebhookFunctions;
	client: GristClient;
	data: Stored;
	docId: string;
	tableId: string;
	on: TriggerOn;
	simplify: boolean;
	watchedColumns: string[];
	/** The rows Grist delivered (used only when the history since the state is gone). */
	records: Array<Record<string, unknown> & { id: number }>;
}

/** Attempts of one delivery when other deliveries keep moving the state before it saves. */
const SAVE_ATTEMPTS = 3;

/** The items of one delivery in exact mode; the state is saved before they are returned. */
export async function exactItems(d: ExactDelivery): Promise<IDataObject[]> {
	const key = JSON.stringify([
		d.fn.getWorkflow().id ?? '',
		d.fn.getNode().name,
		d.docId,
		d.data.webhookId ?? '',
	]);
	return await oneAtATime(key, async () => {
		let state = newer(d.data.changes, latest.get(key));
		for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
			const { items, next } = state
				? await sinceState(d, state)
				: { items: fromDelivery(d), next: await newestState(d.client, d.docId) };
			if (state && next.h === state.h && next.table === state.table) return items;
			const answer = await saveState(d, state?.h ?? '', next);
			if (answer.saved) {
				remember(key, next);
				return items;
			}
			state = answer.current;
		}
		throw stateNotSaved(d.fn.getNode(), 'other deliveries kept moving it');
	});
}

/** The changes since `state`, and the state after them. */
async function sinceState(
	d: ExactDelivery,
	state: ChangesState,
): Promise<{ items: IDataObject[]; next: ChangesState }> {
	const node = d.fn.getNode();
	const since = await compareSince(d.client, node, d.docId, state.h, 'restart');
	if ('restartAt' in since) {
		d.fn.logger.warn(historyGone());
		const states = await fetchStates(d.client, d.docId);
		const at = states.find((s) => s.h === since.restartAt) ?? states[0];
		return { items: fromDelivery(d), next: { n: at.n, h: at.h } };
	}
	const fromTable = state.table ?? d.tableId;
	const tableId = tableIdAfter(since.summary, fromTable);
	if (tableId === null) throw tableGone(node, d.tableId);
	const next: ChangesState =
		tableId === d.tableId
			? { n: since.right.n, h: since.right.h }
			: { n: since.right.n, h: since.right.h, table: tableId };
	const delta = since.summary?.tableDeltas?.[tableId];
	if (!delta) return { items: [], next };
	const types = await typesFor(d, tableId, Object.keys(delta.columnDeltas ?? {}));
	const order = Object.keys(types);
	const classify = { columns: order, types };
	const wanted = classifyChanges(delta, { ...classify, watchedColumns: d.watchedColumns }).filter(
		(c) => emits(d.on, c),
	);
	const changed = await withValuesAtDeletion(d.client, d.docId, since, fromTable, wanted, classify);
	const live = [...new Set(changed.filter((c) => c.change !== 'deleted').map((c) => c.id))];
	const current: Map<number, GristRecord> =
		live.length > 0 ? await currentRows(d.client, d.docId, tableId, live) : new Map();
	const items = changed.map((c) => {
		const shaped = changeItem(
			{ ...c, values: inColumnOrder(c.values, order) },
			c.change === 'deleted' ? undefined : current.get(c.id),
			d.simplify,
			types,
		);
		return { ...shaped.json, _change: shaped.change };
	});
	return { items, next };
}

/**
 * The table's column types, in its column order: those read at activation, or the columns read
 * again when the changes name one they do not know (a column added since).
 */
async function typesFor(
	d: ExactDelivery,
	tableId: string,
	changedColumns: string[],
): Promise<Record<string, string>> {
	const known = d.data.columnTypes;
	const needed = changedColumns.filter((c) => !c.startsWith('-') && !isHiddenColumnId(c));
	if (known && tableId === d.tableId && needed.every((c) => c in known)) return known;
	return columnTypes(await fetchColumns(d.client, { docId: d.docId, tableId }));
}

/** Which row changes Trigger On emits. */
function emits(on: TriggerOn, change: RowChange): boolean {
	if (on === 'anyChange') return true;
	if (on === 'add') return change.change === 'added';
	if (on === 'update') return change.change === 'updated';
	return change.change !== 'deleted';
}

/**
 * Where the history since the state is gone: the delivered rows as Grist sent them, saying that
 * their values come from the delivery alone (no previous values, no deletions).
 */
function fromDelivery(d: ExactDelivery): IDataObject[] {
	const types = d.data.columnTypes ?? {};
	return d.records.map((r) => ({
		...deliveredItem(r, d.simplify, types),
		_change: { ...sentChange(d.on), fromDeliveryOnly: true },
	}));
}

/**
 * `_change` of a delivered row: what Trigger On says of it. With Row Added or Updated Grist's
 * delivery does not say which of the two a row is.
 */
export function sentChange(on: TriggerOn): IDataObject {
	if (on === 'add') return { type: 'added' };
	if (on === 'update') return { type: 'updated' };
	return { type: 'addedOrUpdated' };
}

/**
 * Saves the state through this node's own webhook URL (see the header). In a manual run
 * ("Listen for test event") nothing is saved: the test registration lasts one delivery.
 */
async function saveState(
	d: ExactDelivery,
	from: string,
	to: ChangesState,
): Promise<{ saved: true } | { saved: false; current?: ChangesState }> {
	if (d.fn.getMode() === 'manual') {
		d.data.changes = to;
		return { saved: true };
	}
	const url = d.fn.getNodeWebhookUrl('default');
	if (!url || !d.data.secret) throw stateNotSaved(d.fn.getNode(), 'no webhook URL or secret');
	const body: StateSave = { gristTriggerState: { from, to } };
	let answer: { saved?: boolean; current?: ChangesState } | undefined;
	try {
		answer = (await d.fn.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			headers: { Authorization: bearer(d.data.secret) },
		})) as typeof answer;
	} catch (error) {
		throw stateNotSaved(d.fn.getNode(), (error as Error).message);
	}
	if (answer?.saved === true) return { saved: true };
	if (answer?.saved === false) return { saved: false, current: answer.current };
	throw stateNotSaved(d.fn.getNode(), 'the answer was not the trigger’s');
}
