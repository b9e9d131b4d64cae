import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import type { GristClient } from '../../transport';
import { applyUserActions, fetchTables } from '../../transport/api';
import { forEachSchemaItem } from '../schemaChanges';

const properties: INodeProperties[] = [
	{
		displayName:
			'This deletes the table with all its rows, columns and the pages that show it. Only the document history in Grist can bring it back.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	documentLocator,
	tableLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['table'], operation: ['delete'] } },
	properties,
);

/**
 * POST /api/docs/{doc}/apply `[["RemoveTable", id]]` (Grist has no REST route to delete a table),
 * after checking the table exists (Grist's own answer for an unknown table is a sandbox error).
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
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
}
