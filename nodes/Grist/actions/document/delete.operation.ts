import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { deleteDocument } from '../../api/documents';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	{
		displayName: 'Deleting a document is permanent, including its forks and attachments',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	documentLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['delete'] } },
	properties,
);

/** DELETE /api/docs/{docId} (needs the Owner role). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		await deleteDocument(client, docId, itemIndex);
		return { deleted: true };
	});
}
