import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { documentIdValue, documentLocator } from '../common.descriptions';
import { docPath } from './get.operation';

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
	return await forEachItem.call(this, items, async (i) => {
		const docId = documentIdValue.call(this, i);
		await client.request({
			method: 'DELETE',
			path: docPath(client, docId),
			what: `document "${docId}"`,
			itemIndex: i,
		});
		return { deleted: true };
	});
}
