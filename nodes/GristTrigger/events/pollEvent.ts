/**
 * What every event of the Grist Trigger offers the poll (../pollRun.ts), one module per event
 * family: Row Added (./rowAdded.ts), Row Added or Updated (./rowAddedOrUpdated.ts), and the
 * events read from the document's history, Row Deleted, Row Updated and Row Added, Updated or Deleted
 * (./rowChanges.ts). Each keeps its own cursor state in the node's static data; the poll picks
 * the module once, from Trigger On.
 */
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { GristClient } from '../../Grist/api/client';
import type { FetchRecords } from '../cursor';
import type { TriggerSettings } from '../triggerSettings';
import type { RowFilter } from './recordPolling';

/** One poll: the n8n context, the client, the trigger's settings and its table's records reader. */
export interface PollContext {
	fn: IPollFunctions;
	client: GristClient;
	settings: TriggerSettings;
	/** The most time this poll may take (ms; ../pollBudget.ts): the client's requests end by then. */
	budgetMs: number;
	/** Reads the watched table's records (./recordPolling.ts). */
	fetch: FetchRecords;
	/** The user's Filter, once resolved in this poll (./recordPolling.ts `rowFilter`). */
	rowFilter?: RowFilter;
}

/** What the idle check may remember between polls (in the node's static data). */
export interface IdleMemo {
	/** `/sql` answered 403 for this trigger: polls read records only. */
	sqlRefused?: boolean;
}

export interface PollResult<S> {
	items: INodeExecutionData[];
	/** The cursor after this poll; absent when it did not move. */
	cursor?: S;
	/** More is known to be due than this poll emitted: the next poll must not wait for a change. */
	more: boolean;
}

/** An event family; `S`: its cursor state, `{ kind: <event>, … }` in static data. */
export interface PollEvent<S extends { kind: string }> {
	/** The first poll (or one after a setting changed): where things stand. Nothing is emitted. */
	baseline(ctx: PollContext): Promise<S>;
	/**
	 * After the document changed (its `updatedAt` moved): whether a cheap question tells for sure
	 * that nothing is due since `cursor`. False when it cannot tell.
	 */
	isIdle(ctx: PollContext, cursor: S, memo: IdleMemo): Promise<boolean>;
	/** What is due since `cursor`: the items, and the cursor after them. */
	poll(ctx: PollContext, cursor: S): Promise<PollResult<S>>;
	/** A manual run ("Fetch test event"): the latest record as the event's item; no cursor. */
	sample(ctx: PollContext): Promise<INodeExecutionData[]>;
}
