/**
 * Row Added or Updated: records whose timestamp column moved past the cursor, oldest first (the
 * cursor: ./rowAddedOrUpdatedCursor.ts).
 */
import type { PollContext, PollEvent } from './pollEvent';
import { emitRecords, latestRecord } from './polledItems';
import { pollLimits, recordsResult, sqlSaysIdle } from './recordPolling';
import {
	byTimestampDesc,
	pollRowUpdated,
	rowUpdatedBaseline,
	rowUpdatedIdleQuery,
	rowUpdatedIsIdle,
	type RowUpdatedOptions,
	type RowUpdatedState,
} from './rowAddedOrUpdatedCursor';

const cursorOptions = (ctx: PollContext): RowUpdatedOptions => ({
	column: ctx.settings.timestampColumn,
	filter: ctx.settings.filter,
});

export const rowAddedOrUpdatedEvent: PollEvent<RowUpdatedState> = {
	async baseline(ctx) {
		return await rowUpdatedBaseline(ctx.fetch, cursorOptions(ctx));
	},

	async isIdle(ctx, cursor, memo) {
		const { tableId, timestampColumn } = ctx.settings;
		const query = rowUpdatedIdleQuery(tableId, timestampColumn, cursor);
		return await sqlSaysIdle(ctx, memo, query, (rows) => rowUpdatedIsIdle(cursor, rows));
	},

	async poll(ctx, cursor) {
		return await recordsResult(
			ctx,
			await pollRowUpdated(cursor, ctx.fetch, cursorOptions(ctx), pollLimits(ctx)),
		);
	},

	async sample(ctx) {
		const sort = byTimestampDesc(ctx.settings.timestampColumn);
		const { record, columns } = await latestRecord(ctx, sort);
		return await emitRecords(ctx, [record], columns);
	},
};
