import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../../errors/nodeErrors';
import { listWebhooks, updateWebhook } from '../../api/webhooks';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { completePatch, webhookPatch } from '../../webhooks/webhookItems';
import type { WebhookFields } from '../../webhooks/webhookFields';
import { simplifyField, webhookAsItem, webhookIdField, webhookIdValue } from './webhookLocator';
import { applyCondition } from './webhookConditionInput';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { conditionProperties, itemCondition } from '../../parameters/webhookCondition';
import { operationDescription, perItem } from '../operationFrame';
import { updateFieldsCollection } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	documentLocator,
	webhookIdField,
	...conditionProperties({ keep: true }),
	simplifyField,
	updateFieldsCollection([
		{
			displayName: 'Authorization Header',
			name: 'authorization',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Sent as is in the Authorization header of every delivery (empty: none)',
		},
		{
			displayName: 'Enabled',
			name: 'enabled',
			type: 'boolean',
			default: true,
			description: 'Whether Grist sends events (off: paused, settings kept)',
		},
		{ displayName: 'Memo', name: 'memo', type: 'string', default: '' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		{
			displayName: 'Ready Column',
			name: 'readyColumn',
			type: 'string',
			default: '',
			placeholder: 'e.g. Ready',
			description:
				'ID of a Toggle (Bool) column: only records whose box is ticked are sent. Empty: no Ready Column.',
		},
		{
			displayName: 'Table ID',
			name: 'tableId',
			type: 'string',
			default: '',
			description:
				'The table the webhook watches (another table clears its Ready and Watched Columns unless given too)',
		},
		{
			displayName: 'Trigger On',
			name: 'event',
			type: 'options',
			options: [
				{ name: 'Row Added', value: 'add' },
				{ name: 'Row Added or Updated', value: 'addOrUpdate' },
				{ name: 'Row Updated', value: 'update' },
			],
			default: 'add',
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			description: 'Where Grist sends the changed rows',
		},
		{
			displayName: 'Watched Columns',
			name: 'watchedColumns',
			type: 'string',
			default: '',
			placeholder: 'e.g. Status, Amount',
			description:
				'Column IDs, separated by commas: updates are sent only when one of them changed (empty: any column)',
		},
	]),
];

export const description = operationDescription('webhook', 'update', properties);

/** PATCH /api/docs/{docId}/webhooks/{id}, then the webhook as Get Many gives it. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const id = webhookIdValue.call(this, itemIndex);
	const update = itemParameterValue.call(this, 'updateFields', itemIndex, {}) as IDataObject;
	let body: WebhookFields;
	try {
		body = webhookPatch(update);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`Update Fields in item ${itemIndex}: ${(error as Error).message}`,
			{ description: 'Fill in the field, or remove it from Update Fields.', itemIndex },
		);
	}
	const condition = itemCondition.call(this, itemIndex, 'keep');
	const changesCondition = condition.type !== 'keep';
	if (Object.keys(body).length === 0 && !changesCondition) {
		throw new NodeOperationError(
			this.getNode(),
			`No field to update was given (item ${itemIndex})`,
			{
				description:
					'Add a field under Update Fields, e.g. Enabled to pause or resume the webhook.',
				itemIndex,
			},
		);
	}
	if (changesCondition || body.watchedColIds !== undefined || body.tableId !== undefined) {
		const current = (await listWebhooks(client, docId, itemIndex)).find((w) => w.id === id);
		if (!current) {
			throw new NodeOperationError(
				this.getNode(),
				`The Webhook "${id}" of item ${itemIndex} does not exist in this document`,
				{
					description: 'Pick a webhook from the list (deleted, or the ID of another document).',
					itemIndex,
				},
			);
		}
		if (changesCondition) {
			const tableId = body.tableId ?? current.fields?.tableId ?? '';
			await applyCondition.call(this, client, itemIndex, { docId, tableId }, condition, body);
		}
		body = completePatch(body, current.fields ?? {});
	}
	try {
		await updateWebhook(client, docId, id, body, itemIndex);
	} catch (error) {
		// Grist's 404 for a webhook ID it does not know gets a hint naming the field and the item.
		throw toNodeError(this.getNode(), error, {
			itemIndex,
			scope: 'webhook.id',
			values: { webhookId: id },
		});
	}
	const simplify = itemParameter.call(this, 'simplify', itemIndex, true) as boolean;
	return await webhookAsItem(client, docId, id, simplify, itemIndex);
});
