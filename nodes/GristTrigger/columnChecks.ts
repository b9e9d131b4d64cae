/**
 * The columns the Grist Trigger relies on, checked against the table: the timestamp column of
 * Row Added or Updated (it exists and is Date, DateTime or Numeric) and the creation column of
 * Row Added (it exists).
 */
import type { IPollFunctions } from 'n8n-workflow';

import { isTimestampColumn, type GristColumn } from '../Grist/cells/tableColumns';
import type { GristClient } from '../Grist/api/client';
import { fetchColumns } from '../Grist/api/columns';
import { columnMissing, timestampColumnType } from './pollErrors';
import type { TriggerSettings } from './triggerSettings';

/** Fetches the table's columns and checks the columns the trigger relies on. */
export async function checkColumns(ctx: {
	fn: IPollFunctions;
	client: GristClient;
	settings: TriggerSettings;
}): Promise<GristColumn[]> {
	const { docId, tableId, timestampColumn, creationColumn } = ctx.settings;
	const columns = await fetchColumns(ctx.client, { docId, tableId });
	const node = ctx.fn.getNode();
	if (timestampColumn) {
		const column = columns.find((c) => c.id === timestampColumn);
		if (!column) throw columnMissing(node, 'timestamp', timestampColumn, tableId);
		if (!isTimestampColumn(column)) throw timestampColumnType(node, column);
	}
	if (creationColumn && !columns.some((c) => c.id === creationColumn))
		throw columnMissing(node, 'creation', creationColumn, tableId);
	return columns;
}
