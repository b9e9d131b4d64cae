/**
 * What Row Added and Row Added or Updated share around their cursors (../cursor.ts): the reader of
 * the watched table's records, the poll's limits, the idle check through Grist's `/sql`, and the
 * poll's result from the cursor's outcome.
 */
import { NodeApiError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import type { GristClient } from '../../Grist/api/client';
import { fetchRecords } from '../../Grist/api/records';
import { runSql } from '../../Grist/api/sql';
import { type Target } from '../../Grist/api/paths';
import { checkColumns } from '../columnChecks';
import type { FetchRecords, IdleQuery, PollLimits, PollOutcome } from '../cursor';
import { emitRecords } from './polledItems';
import type { IdleMemo, PollContext, PollResult } from './pollEvent';

/** Longest time Grist may spend on the idle check's SQL (Grist caps it at 1 s by default). */
const SQL_TIMEOUT_MS = 1000;

/** GET /records of `target` with the cursor's query. */
export function recordsFetcher(client: GristClient, target: Target): FetchRecords {
	return async (query) => {
		const qs: IDataObject = {};
		if (query.filter) qs.filter = JSON.stringify(query.filter);
		if (query.sort) qs.sort = query.sort;
		if (query.limit !== undefined) qs.limit = query.limit;
		return await fetchRecords(client, target, qs);
	};
}

function pollBudgetMs(fn: IPollFunctions): number {
	const get = (fn as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	const value = typeof get === 'function' ? get.call(fn) : NaN;
	return Number.isFinite(value) && value > 0 ? value : 60_000;
}

/** Max Records per Poll, and half the poll's time budget from now. */
export function pollLimits(ctx: PollContext): PollLimits {
	const budgetMs = pollBudgetMs(ctx.fn);
	const started = Date.now();
	return {
		maxRecords: ctx.settings.maxRecords,
		outOfTime: () => Date.now() - started > budgetMs / 2,
	};
}

/**
 * The idle check (../cursor.ts): whether `/sql` says for sure that nothing is due (`idle` judges
 * the rows of `query`). False when it cannot tell, fails (the records reads then give the real
 * error) or is refused: a 403 is remembered, so later polls do not ask again.
 */
export async function sqlSaysIdle(
	ctx: PollContext,
	memo: IdleMemo,
	query: IdleQuery,
	idle: (rows: Array<Record<string, unknown>>) => boolean,
): Promise<boolean> {
	// OAuth2 tokens may not call /sql (Grist answers 403; the client stops it before sending).
	if (memo.sqlRefused || ctx.client.isOAuth) return false;
	let rows: Array<Record<string, unknown>>;
	try {
		rows = await runSql(ctx.client, ctx.settings.docId, query.sql, query.args, SQL_TIMEOUT_MS);
	} catch (error) {
		if (error instanceof NodeApiError && Number(error.httpCode) === 403) memo.sqlRefused = true;
		return false;
	}
	return idle(rows);
}

/** The poll's result from the cursor's outcome: its records as items, its state if it moved. */
export async function recordsResult<S>(
	ctx: PollContext,
	outcome: PollOutcome<S>,
): Promise<PollResult<S>> {
	let items: PollResult<S>['items'] = [];
	if (outcome.records.length > 0) {
		const columns = await checkColumns(ctx);
		items = await emitRecords(ctx, outcome.records, columns);
	}
	return outcome.changed
		? { items, cursor: outcome.state, more: outcome.more }
		: { items, more: outcome.more };
}
