/**
 * Row Added or Updated: records whose timestamp column moved past the cursor, oldest first (the
 * cursor: ./rowAddedOrUpdatedCursor.ts).
 *
 * Added or updated: the stored cursor also keeps `topId`, the table's highest row ID when the
 * last poll that emitted (or the baseline) began. Grist gives a new row the highest ID + 1, so an
 * emitted row above `topId` did not exist then: `_change.type` is `added`, else `updated`. Read
 * before the rows, so a row added while a poll runs counts as added. After a poll that left a
 * backlog, `topId` stays, so the backlog's new rows are still told apart. Where the last rows were
 * deleted and their IDs handed out again between two polls, a new row reads as `updated`.
 */
import type { PollContext, PollEvent } from './pollEvent';
import { emitRecords, latestRecord } from './polledItems';
import { pollLimits, recordsResult, rowFilter, sqlSaysIdle } from './recordPolling';
import {
	byTimestampDesc,
	pollRowUpdated,
	rowUpdatedBaseline,
	rowUpdatedIdleQuery,
	rowUpdatedIsIdle,
	type RowUpdatedOptions,
	type RowUpdatedState,
} from './rowAddedOrUpdatedCursor';

/** The cursor and the table's highest row ID (see above). */
export type AddedOrUpdatedState = RowUpdatedState & { topId: number };

const cursorOptions = async (ctx: PollContext): Promise<RowUpdatedOptions> => ({
	column: ctx.settings.timestampColumn,
	filter: await rowFilter(ctx),
});

/** The table's highest row ID (0: empty). */
async function topId(ctx: PollContext): Promise<number> {
	const [top] = await ctx.fetch({ sort: '-id', limit: 1 });
	return top?.id ?? 0;
}

export const rowAddedOrUpdatedEvent: PollEvent<AddedOrUpdatedState> = {
	async baseline(ctx) {
		const top = await topId(ctx);
		return { ...(await rowUpdatedBaseline(ctx.fetch, await cursorOptions(ctx))), topId: top };
	},

	async isIdle(ctx, cursor, memo) {
		const { tableId, timestampColumn } = ctx.settings;
		const query = rowUpdatedIdleQuery(tableId, timestampColumn, cursor);
		return await sqlSaysIdle(ctx, memo, query, (rows) => rowUpdatedIsIdle(cursor, rows));
	},

	async poll(ctx, cursor) {
		const top = await topId(ctx);
		const { topId: before, ...state } = cursor;
		const outcome = await pollRowUpdated(
			state,
			ctx.fetch,
			await cursorOptions(ctx),
			pollLimits(ctx),
		);
		const after = outcome.more ? before : Math.max(top, ...outcome.records.map((r) => r.id));
		const result = await recordsResult(ctx, outcome, (r) => (r.id > before ? 'added' : 'updated'));
		return {
			items: result.items,
			more: result.more,
			...(result.cursor ? { cursor: { ...result.cursor, topId: after } } : {}),
		};
	},

	async sample(ctx) {
		// a sample cannot tell a new row from a changed one: it says updated
		const sort = byTimestampDesc(ctx.settings.timestampColumn);
		const { record, columns } = await latestRecord(ctx, sort, await rowFilter(ctx));
		return await emitRecords(ctx, [record], columns, () => 'updated');
	},
};
