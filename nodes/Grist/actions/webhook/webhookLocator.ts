/** What the Webhook operations share: the Webhook field, reading it, the webhook as an item. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { GristClient } from '../../api/client';
import { listWebhooks } from '../../api/webhooks';
import { webhookItem } from '../../webhooks/webhookItems';
import { itemParameter } from '../../parameters/read';

export const webhookIdField: INodeProperties = {
	displayName: 'Webhook Name or ID',
	name: 'webhookId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getWebhooks', loadOptionsDependsOn: ['document.value'] },
	default: '',
	required: true,
	description:
		'The webhook (Get Many outputs the IDs). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		"Whether to return each webhook flat: its settings in the Grist Instant Trigger's terms and its delivery health (status, waiting events, last error and HTTP status), instead of Grist's fields and usage as sent",
};

/** The Webhook field; an empty one is an input error naming the item. */
export function webhookIdValue(this: IExecuteFunctions, itemIndex: number): string {
	const id = String(itemParameter.call(this, 'webhookId', itemIndex, '') ?? '').trim();
	if (id === '') {
		throw new NodeOperationError(this.getNode(), `The Webhook is empty (item ${itemIndex})`, {
			description: 'Pick a webhook from the list, or enter its ID (Get Many outputs the IDs).',
			itemIndex,
		});
	}
	return id;
}

/** GET /webhooks, then the item of webhook `id` (as Get Many gives it). */
export async function webhookAsItem(
	client: GristClient,
	docId: string,
	id: string,
	simplify: boolean,
	itemIndex: number,
) {
	const list = await listWebhooks(client, docId, itemIndex);
	const found = list.find((w) => w.id === id);
	return found ? webhookItem(found, simplify) : { id };
}
