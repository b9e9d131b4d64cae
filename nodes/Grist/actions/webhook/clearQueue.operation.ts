import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { clearWebhookQueue } from '../../api/webhooks';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	{
		displayName:
			"Drops every event waiting to be delivered by the document's webhooks (they are not sent later). Use it when a failing webhook holds up the queue.",
		name: 'clearNotice',
		type: 'notice',
		default: '',
	},
	documentLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['clearQueue'] } },
	properties,
);

/** DELETE /api/docs/{docId}/webhooks/queue. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		await clearWebhookQueue(client, docId, itemIndex);
		return { documentId: docId, queueCleared: true };
	});
}
