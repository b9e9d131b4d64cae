/**
 * Row Added: records with an id above the cursor's, in id order (the cursor: ./rowAddedCursor.ts).
 * Options → Creation Column tells a new record that got the id of a just-deleted last record
 * from an edit of that record.
 */
import type { PollContext, PollEvent } from './pollEvent';
import { emitRecords, latestRecord } from './polledItems';
import { pollLimits, recordsResult, rowFilter, sqlSaysIdle } from './recordPolling';
import {
	pollRowAdded,
	rowAddedBaseline,
	rowAddedIdleQuery,
	rowAddedIsIdle,
	type RowAddedState,
} from './rowAddedCursor';

/** The creation column, if one is set. */
const markColumn = (ctx: PollContext): string | undefined =>
	ctx.settings.creationColumn || undefined;

export const rowAddedEvent: PollEvent<RowAddedState> = {
	async baseline(ctx) {
		await rowFilter(ctx); // a Filter that cannot run fails the activation, not a later poll
		return await rowAddedBaseline(ctx.fetch, { markColumn: markColumn(ctx) });
	},

	async isIdle(ctx, cursor, memo) {
		const mark = markColumn(ctx);
		return await sqlSaysIdle(ctx, memo, rowAddedIdleQuery(ctx.settings.tableId, mark), (rows) =>
			rowAddedIsIdle(cursor, rows, mark),
		);
	},

	async poll(ctx, cursor) {
		const opts = { filter: await rowFilter(ctx), markColumn: markColumn(ctx) };
		const outcome = await pollRowAdded(cursor, ctx.fetch, opts, pollLimits(ctx));
		return await recordsResult(ctx, outcome, () => 'added');
	},

	async sample(ctx) {
		const { record, columns } = await latestRecord(ctx, '-id', await rowFilter(ctx));
		return await emitRecords(ctx, [record], columns, () => 'added');
	},
};
