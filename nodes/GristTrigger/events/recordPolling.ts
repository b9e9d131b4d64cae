/**
 * What Row Added and Row Added or Updated share around their cursors (../cursor.ts): the reader of
 * the watched table's records, the user's Filter, the poll's limits, the idle check through
 * Grist's `/sql`, and the poll's result from the cursor's outcome.
 *
 * Filter runs as in Record → Get Many: JSON, and conditions Grist's record filter expresses (Is
 * One Of, Is Empty, combined with AND), go with the records reads as Grist's `filter`; other
 * conditions make the reads that apply the user's filter one read-only SELECT on `/sql` each
 * (query/recordConditions.ts), with the cursor's own tests (a window of ids, a timestamp), sort
 * and limit in the same query, its rows decoded as `/records` gives them.
 */
import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { isApiLimitError } from '../../Grist/api/requestErrors';
import { columnTypes, type GristColumn } from '../../Grist/cells/tableColumns';
import type { GristRecord } from '../../Grist/cells/cellValues';
import { toNodeError } from '../../Grist/errors/nodeErrors';
import { InputError } from '../../Grist/errors/gristAnswers';
import { conditionsWithRowIds } from '../../Grist/read/referenceConditions';
import { ReferenceLookup } from '../../Grist/api/referenceLookup';
import { ColumnCache } from '../../Grist/api/schemaCache';
import { buildFilter, type GristFilter, type SortRule } from '../../Grist/query/filters';
import type { Condition } from '../../Grist/query/conditionSql';
import { buildConditionQuery, needsSql, sqlRecord } from '../../Grist/query/recordConditions';
import { fetchRecords } from '../../Grist/api/records';
import { runSql } from '../../Grist/api/sql';
import { checkColumns } from '../columnChecks';
import type { FetchRecords, IdleQuery, PollLimits, PollOutcome, RecordsQuery } from '../cursor';
import { CONDITIONS_HINT, conditionsNeedSql } from '../pollErrors';
import { emitRecords, type RowChangeType } from './polledItems';
import type { IdleMemo, PollContext, PollResult } from './pollEvent';

/** The user's Filter as the cursors use it (PollContext's `rowFilter`). */
export interface RowFilter {
	/**
	 * Grist's filter for the reads that apply the user's filter; undefined: every row. `{}` when
	 * the conditions run on `/sql` (`sql`).
	 */
	filter: GristFilter | undefined;
	sql?: { conditions: Condition[]; combine: string; types: Record<string, string> };
}

/** The user's Filter for this poll (resolved once per poll: conditions need the column types). */
export async function rowFilter(ctx: PollContext): Promise<GristFilter | undefined> {
	if (!ctx.rowFilter) ctx.rowFilter = await resolveFilter(ctx);
	return ctx.rowFilter.filter;
}

async function resolveFilter(ctx: PollContext): Promise<RowFilter> {
	const wanted = ctx.settings.filter;
	if (!wanted) return { filter: undefined };
	if ('json' in wanted) return { filter: wanted.json };
	const columns = await checkColumns(ctx);
	const types = columnTypes(columns);
	const { combine } = wanted;
	const conditions = await conditionsByRowId(ctx, columns, wanted.conditions);
	if (needsSql(conditions, combine)) {
		// OAuth2 tokens may not call /sql: said before any request, with what to do.
		if (ctx.client.isOAuth) throw conditionsNeedSql(ctx.fn.getNode());
		// the SELECT is built (and its conditions checked) now, so that a bad condition fails here
		sqlQuery({ conditions, combine, types }, ctx.settings.tableId, { filter: {} }, ctx);
		return { filter: {}, sql: { conditions, combine, types } };
	}
	try {
		return { filter: buildFilter(conditions, types) };
	} catch (error) {
		throw toNodeError(ctx.fn.getNode(), error, { hint: CONDITIONS_HINT });
	}
}

/**
 * The conditions with references given by the value their row shows turned into row IDs, as
 * Record → Get Many does (read/referenceConditions.ts), looked up in this poll.
 */
export async function conditionsByRowId(
	ctx: PollContext,
	columns: GristColumn[],
	conditions: Condition[],
): Promise<Condition[]> {
	const lookup = new ReferenceLookup(ctx.client, new ColumnCache(ctx.client));
	const { docId, tableId } = ctx.settings;
	try {
		return await conditionsWithRowIds(lookup, { docId, tableId }, columns, conditions, 0);
	} catch (error) {
		throw error instanceof InputError ? toNodeError(ctx.fn.getNode(), error) : error;
	}
}

/** Grist's sort (`-C,-id`) as sort rules. */
function sortRules(sort: string | undefined): SortRule[] {
	return (sort ?? '')
		.split(',')
		.filter((key) => key !== '')
		.map((key) =>
			key.startsWith('-')
				? { column: key.slice(1), direction: 'desc' as const }
				: { column: key, direction: 'asc' as const },
		);
}

/** The SELECT of a read that applies the user's conditions. */
function sqlQuery(
	sql: NonNullable<RowFilter['sql']>,
	tableId: string,
	query: RecordsQuery,
	ctx: PollContext,
) {
	try {
		return buildConditionQuery({
			tableId,
			conditions: sql.conditions,
			combine: sql.combine,
			types: sql.types,
			sort: sortRules(query.sort),
			limit: query.limit ?? 0,
			where: query.filter,
		});
	} catch (error) {
		throw toNodeError(ctx.fn.getNode(), error, { hint: CONDITIONS_HINT });
	}
}

/**
 * Reads the watched table's records with the cursor's query: `GET /records`, or, for a read that
 * applies the user's filter (`query.filter` given) when its conditions need `/sql`, one SELECT.
 */
export function recordsFetcher(ctx: PollContext): FetchRecords {
	const { docId, tableId } = ctx.settings;
	return async (query): Promise<GristRecord[]> => {
		const sql = ctx.rowFilter?.sql;
		if (sql && query.filter !== undefined) {
			const { sql: text, args } = sqlQuery(sql, tableId, query, ctx);
			const rows = await runSql(ctx.client, docId, text, args);
			return rows.map((row) => sqlRecord(row, sql.types));
		}
		const qs: IDataObject = {};
		if (query.filter) qs.filter = JSON.stringify(query.filter);
		if (query.sort) qs.sort = query.sort;
		if (query.limit !== undefined) qs.limit = query.limit;
		return await fetchRecords(ctx.client, { docId, tableId }, qs);
	};
}

/** Longest time Grist may spend on the idle check's SQL (Grist caps it at 1 s by default). */
const SQL_TIMEOUT_MS = 1000;

/** Max Records per Poll, and half the poll's time budget (../pollBudget.ts) from now. */
export function pollLimits(ctx: PollContext): PollLimits {
	const { budgetMs } = ctx;
	const started = Date.now();
	return {
		maxRecords: ctx.settings.maxRecords,
		outOfTime: () => Date.now() - started > budgetMs / 2,
	};
}

/**
 * The idle check (../cursor.ts): whether `/sql` says for sure that nothing is due (`idle` judges
 * the rows of `query`). False when it cannot tell, fails (the records reads then give the real
 * error) or is refused: a 403 is remembered, so later polls do not ask again. A refusal at the
 * plan's API limit ends the poll: the records reads would meet it too.
 */
export async function sqlSaysIdle(
	ctx: PollContext,
	memo: IdleMemo,
	query: IdleQuery,
	idle: (rows: Array<Record<string, unknown>>) => boolean,
): Promise<boolean> {
	// OAuth2 tokens may not call /sql (Grist answers 403; the client stops it before sending).
	if (memo.sqlRefused || ctx.client.isOAuth) return false;
	let rows: Array<Record<string, unknown>> | undefined;
	let limitRefusal: NodeApiError | undefined;
	try {
		rows = await runSql(ctx.client, ctx.settings.docId, query.sql, query.args, SQL_TIMEOUT_MS);
	} catch (error) {
		if (error instanceof NodeApiError && Number(error.httpCode) === 403) memo.sqlRefused = true;
		if (error instanceof NodeApiError && isApiLimitError(error)) limitRefusal = error;
	}
	// the plan's API limit refuses the records reads too: the poll ends with this refusal
	if (limitRefusal) throw limitRefusal;
	return rows !== undefined && idle(rows);
}

/**
 * The poll's result from the cursor's outcome: its records as items (`change`: what happened to
 * each), its state if it moved.
 */
export async function recordsResult<S>(
	ctx: PollContext,
	outcome: PollOutcome<S>,
	change: (record: GristRecord) => RowChangeType,
): Promise<PollResult<S>> {
	let items: PollResult<S>['items'] = [];
	if (outcome.records.length > 0) {
		const columns = await checkColumns(ctx);
		items = await emitRecords(ctx, outcome.records, columns, change);
	}
	return outcome.changed
		? { items, cursor: outcome.state, more: outcome.more }
		: { items, more: outcome.more };
}
