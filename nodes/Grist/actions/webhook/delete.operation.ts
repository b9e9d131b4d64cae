import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { toNodeError } from '../../errors/nodeErrors';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { deleteWebhook } from '../../transport/api';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { webhookIdField, webhookIdValue } from './webhookLocator';

const properties: INodeProperties[] = [
	{
		displayName:
			'Deleting the webhook of an active Grist Instant Trigger stops that workflow from receiving rows until it is activated again',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	documentLocator,
	webhookIdField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['delete'] } },
	properties,
);

/** DELETE /api/docs/{docId}/webhooks/{id}. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const id = webhookIdValue.call(this, itemIndex);
		try {
			await deleteWebhook(client, docId, id, itemIndex);
		} catch (error) {
			throw toNodeError(this.getNode(), error, {
				itemIndex,
				scope: 'webhook.id',
				values: { webhookId: id },
			});
		}
		return { id, deleted: true };
	});
}
