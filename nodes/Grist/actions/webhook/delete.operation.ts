import type { INodeProperties } from 'n8n-workflow';

import { toNodeError } from '../../errors/nodeErrors';
import { deleteWebhook } from '../../api/webhooks';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { webhookIdField, webhookIdValue } from './webhookLocator';
import { operationDescription, perItem } from '../operationFrame';
import { noticeField } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	noticeField(
		'deleteNotice',
		'Deleting the webhook of an active Grist Instant Trigger stops that workflow from receiving rows until it is activated again',
	),
	documentLocator,
	webhookIdField,
];

export const description = operationDescription('webhook', 'delete', properties);

/** DELETE /api/docs/{docId}/webhooks/{id}. */
export const execute = perItem(async function (client, itemIndex) {
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
