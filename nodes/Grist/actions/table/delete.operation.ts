import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { applyUserActions } from '../../api/documents';
import { fetchTables } from '../../api/tables';
import { forEachSchemaItem } from '../schemaChanges';
import { operationDescription, perItemThrough } from '../operationFrame';
import { noticeField } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	noticeField(
		'deleteNotice',
		'This deletes the table with all its rows, columns and the pages that show it. Only the document history in Grist can bring it back.',
	),
	documentLocator,
	tableLocator,
];

export const description = operationDescription('table', 'delete', properties);

/**
 * POST /api/docs/{doc}/apply `[["RemoveTable", id]]` (Grist has no REST route to delete a table),
 * after checking the table exists (Grist's own answer for an unknown table is a sandbox error).
 */
export const execute = perItemThrough(forEachSchemaItem, async function (client, itemIndex) {
	const target = readTarget.call(this, itemIndex);
	const tables = await fetchTables(client, target.docId, { itemIndex });
	if (!tables.some((t) => t.id === target.tableId)) {
		throw new NodeOperationError(
			this.getNode(),
			`Table not found "${target.tableId}" (item ${itemIndex})`,
			{
				itemIndex,
				description: `The document's tables are: ${tables.map((t) => t.id).join(', ') || 'none'}. Table IDs are case-sensitive.`,
			},
		);
	}
	await applyUserActions(client, target.docId, [['RemoveTable', target.tableId]], itemIndex);
	return { id: target.tableId, deleted: true };
});
