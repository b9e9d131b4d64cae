import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { clearWebhookQueue } from '../../api/webhooks';
import { noticeField } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'clearNotice',
		"Drops every event waiting to be delivered by the document's webhooks (they are not sent later). Use it when a failing webhook holds up the queue.",
	),
	documentLocator,
];

export const description = operationDescription('webhook', 'clearQueue', properties);

/** DELETE /api/docs/{docId}/webhooks/queue. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	await clearWebhookQueue(client, docId, itemIndex);
	return { documentId: docId, queueCleared: true };
});
