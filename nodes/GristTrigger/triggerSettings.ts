/**
 * The Grist Trigger's settings, read once per poll from its fields and checked: which event, the
 * table, and the options that event uses (the others read as empty, so that they do not change
 * the cursor's key).
 */
import type { IPollFunctions } from 'n8n-workflow';

import { toNodeError } from '../Grist/errors/nodeErrors';
import { parseJsonFilter, type GristFilter } from '../Grist/query/filters';
import type { Condition } from '../Grist/query/conditionSql';
import { columnIdList } from '../Grist/webhooks/webhookFields';
import { nodeParameter } from '../Grist/parameters/read';
import { readTriggerFilter } from '../Grist/parameters/filterFields';
import { triggerTarget } from '../Grist/triggers/triggerTarget';
import { FILTER_HINT, badMaxRecords, noTimestampColumn } from './pollErrors';
import type { PollTimeEntry } from './pollBudget';

/** The events read from Grist's document history. */
export type ChangeEvent = 'rowDeleted' | 'rowUpdated' | 'anyChange';

/** Trigger On. */
export type TriggerEvent = 'rowAdded' | 'rowAddedOrUpdated' | ChangeEvent;

/** Options → If Change History Is Lost. */
export type LostHistory = 'error' | 'restart';

export const DEFAULT_MAX_RECORDS = 500;

/** The events whose cursor depends on the Filter (they read the matching records). */
export const RECORD_EVENTS: TriggerEvent[] = ['rowAdded', 'rowAddedOrUpdated'];

/** Filter: Grist's filter object (JSON), or conditions run as Get Many runs them. */
export type TriggerFilter =
	| { json: GristFilter }
	| { conditions: Condition[]; combine: 'and' | 'or' };

export interface TriggerSettings {
	docId: string;
	tableId: string;
	event: TriggerEvent;
	simplify: boolean;
	/** Row Added or Updated: the timestamp column (else empty). */
	timestampColumn: string;
	/** Row Added: Options → Creation Column (else empty). */
	creationColumn: string;
	maxRecords: number;
	/** Filter; undefined: every row. */
	filter: TriggerFilter | undefined;
	/** Row Updated, Row Added, Updated or Deleted: Options → Watched Columns (empty: any column). */
	watchedColumns: string[];
	onLostHistory: LostHistory;
	/** n8n's Poll Times (`pollTimes.item`), for the poll's time budget (./pollBudget.ts). */
	pollTimes: PollTimeEntry[];
}

interface TriggerOptions {
	creationColumn?: string;
	maxRecords?: number;
	watchedColumns?: string[] | string;
	onLostHistory?: LostHistory;
}

/** The fields of the trigger; a missing or wrong one is an error that names it. */
export function readSettings(fn: IPollFunctions): TriggerSettings {
	const node = fn.getNode();
	const { docId, tableId } = triggerTarget(fn);
	const event = nodeParameter(fn, 'event', 'rowAdded') as TriggerEvent;
	const simplify = nodeParameter(fn, 'simplify', true) as boolean;
	const options = nodeParameter(fn, 'options', {}) as TriggerOptions;
	const timestampColumn =
		event === 'rowAddedOrUpdated'
			? String(nodeParameter(fn, 'timestampColumn', '' as unknown) ?? '').trim()
			: '';
	if (event === 'rowAddedOrUpdated' && !timestampColumn) throw noTimestampColumn(node);
	const creationColumn = event === 'rowAdded' ? String(options.creationColumn ?? '').trim() : '';
	const maxRecords = Number(options.maxRecords ?? DEFAULT_MAX_RECORDS);
	if (!Number.isFinite(maxRecords) || maxRecords < 1) throw badMaxRecords(node);
	const filter = readFilter(fn);
	const pollTimes = nodeParameter(fn, 'pollTimes', {}) as { item?: PollTimeEntry[] };
	return {
		docId,
		tableId,
		event,
		simplify,
		timestampColumn,
		creationColumn,
		maxRecords,
		filter,
		watchedColumns: columnIdList(options.watchedColumns ?? []),
		onLostHistory: options.onLostHistory === 'restart' ? 'restart' : 'error',
		pollTimes: Array.isArray(pollTimes?.item) ? pollTimes.item : [],
	};
}

/** Filter, checked: undefined when it lets every row through. */
function readFilter(fn: IPollFunctions): TriggerFilter | undefined {
	const input = readTriggerFilter(fn);
	if (input.type === 'conditions') {
		if (input.conditions.length === 0) return undefined;
		return { conditions: input.conditions, combine: input.combine === 'or' ? 'or' : 'and' };
	}
	if (input.type !== 'json') return undefined;
	try {
		const raw = input.json;
		const json = parseJsonFilter(raw === undefined ? '' : raw, 'Filter (JSON)');
		return Object.keys(json).length === 0 ? undefined : { json };
	} catch (error) {
		throw toNodeError(fn.getNode(), error, { hint: FILTER_HINT });
	}
}
