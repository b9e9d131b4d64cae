import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createWebhooks } from '../../api/webhooks';
import { withHint } from '../../errors/hints';
import {
	documentIdValue,
	documentLocator,
	tableIdValue,
	tableLocator,
} from '../../parameters/locators';
import { eventTypesOf } from '../../webhooks/webhookItems';
import { columnIdList, type WebhookFields } from '../../webhooks/webhookFields';
import { simplifyField, webhookAsItem } from './webhookLocator';
import { applyCondition } from './webhookConditionInput';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { conditionProperties, itemCondition } from '../../parameters/webhookCondition';
import { operationDescription, perItem } from '../operationFrame';
import { optionsCollection } from '../../parameters/commonFields';
import { watchedColumnsField } from '../../parameters/watchedColumnsField';

export const triggerOnField: INodeProperties = {
	displayName: 'Trigger On',
	name: 'event',
	type: 'options',
	options: [
		{
			name: 'Row Added',
			value: 'add',
			description: 'A new record is added (or becomes ready, with a Ready Column)',
		},
		{
			name: 'Row Added or Updated',
			value: 'addOrUpdate',
			description: 'A record is added or changed',
		},
		{ name: 'Row Updated', value: 'update', description: 'An existing record is changed' },
	],
	default: 'add',
};

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/hooks/grist',
		description:
			'Where Grist sends the changed rows (a POST with a JSON list of records). Grist must be allowed to call it: https on getgrist.com; ALLOWED_WEBHOOK_DOMAINS on a self-hosted Grist. To start an n8n workflow, use the Grist Instant Trigger instead: it registers its own webhook.',
	},
	triggerOnField,
	...conditionProperties({ columnsMethod: 'getWatchColumns' }),
	simplifyField,
	optionsCollection([
		{
			displayName: 'Authorization Header',
			name: 'authorization',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. Bearer s3cret',
			description:
				'Sent as is in the Authorization header of every delivery, so the receiver can check it (never shown in the output)',
		},
		{
			displayName: 'Enabled',
			name: 'enabled',
			type: 'boolean',
			default: true,
			description: 'Whether Grist sends events (a disabled webhook keeps its settings)',
		},
		{
			displayName: 'Memo',
			name: 'memo',
			type: 'string',
			default: '',
			description: "A note shown in Grist's webhook settings",
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: "The webhook's name in Grist's settings",
		},
		{
			displayName: 'Ready Column Name or ID',
			name: 'readyColumn',
			type: 'options',
			typeOptions: {
				loadOptionsMethod: 'getToggleColumns',
				loadOptionsDependsOn: ['document.value', 'table.value'],
			},
			default: '',
			description:
				'A Toggle (Bool) column: only records whose box is ticked are sent; ticking it counts as "added". Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		watchedColumnsField({ method: 'getWatchColumns', updates: 'are sent' }),
	]),
];

export const description = operationDescription('webhook', 'create', properties);

/** POST /api/docs/{docId}/webhooks, then the new webhook as Get Many gives it. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const tableId = tableIdValue.call(this, itemIndex);
	const url = String(itemParameter.call(this, 'url', itemIndex, '') ?? '').trim();
	if (!/^https?:\/\/[^/\s]+/i.test(url)) {
		throw new NodeOperationError(
			this.getNode(),
			url === ''
				? `The URL is empty (item ${itemIndex})`
				: `The URL "${url}" is not an http(s) address (item ${itemIndex})`,
			{
				description: 'Enter the address Grist sends the rows to, e.g. https://example.com/hook.',
				itemIndex,
			},
		);
	}
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	const fields: WebhookFields = {
		url,
		tableId,
		eventTypes: eventTypesOf(String(itemParameter.call(this, 'event', itemIndex, 'add'))),
		enabled: options.enabled !== false,
		isReadyColumn: String(options.readyColumn ?? '').trim() || null,
		watchedColIds: columnIdList(options.watchedColumns),
	};
	if (options.name) fields.name = String(options.name);
	if (options.memo) fields.memo = String(options.memo);
	if (options.authorization) fields.authorization = String(options.authorization);
	const condition = itemCondition.call(this, itemIndex);
	if (condition.type !== 'none') {
		await applyCondition.call(this, client, itemIndex, { docId, tableId }, condition, fields);
	}
	let id: string | undefined;
	try {
		[id] = await createWebhooks(client, docId, [fields], itemIndex);
	} catch (error) {
		throw withHint(error, 'webhook.create', { url });
	}
	if (!id)
		throw new NodeOperationError(this.getNode(), 'Grist did not return a webhook ID', {
			itemIndex,
		});
	const simplify = itemParameter.call(this, 'simplify', itemIndex, true) as boolean;
	return await webhookAsItem(client, docId, id, simplify, itemIndex);
});
