import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { listWebhooks } from '../../api/webhooks';
import { filtersCollection } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { applyLimit, limitFields } from '../../parameters/limit';
import { webhookItem } from '../../webhooks/webhookItems';
import { simplifyField } from './webhookLocator';
import { itemParameter, itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	...limitFields,
	simplifyField,
	filtersCollection([
		{
			displayName: 'Only Failing',
			name: 'onlyFailing',
			type: 'boolean',
			default: false,
			description:
				"Whether to list only webhooks whose deliveries fail (retrying, postponed or in error): they hold up the document's other webhooks",
		},
		{
			displayName: 'Table ID',
			name: 'tableId',
			type: 'string',
			default: '',
			description: 'Only webhooks of this table',
		},
	]),
];

export const description = operationDescription('webhook', 'getAll', properties);

/** GET /api/docs/{docId}/webhooks: one item per webhook with its delivery health. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const simplify = itemParameter.call(this, 'simplify', itemIndex, true) as boolean;
	const filters = itemParameterValue.call(this, 'filters', itemIndex, {}) as {
		onlyFailing?: boolean;
		tableId?: string;
	};
	let list = await listWebhooks(client, docId, itemIndex);
	const tableId = String(filters.tableId ?? '').trim();
	if (tableId !== '') list = list.filter((w) => w.fields?.tableId === tableId);
	let out = list.map((w) => webhookItem(w, true));
	if (filters.onlyFailing === true) {
		const failing = new Set(out.filter((w) => w.failing === true).map((w) => w.id));
		list = list.filter((w) => failing.has(w.id));
		out = out.filter((w) => failing.has(w.id));
	}
	const result = simplify ? out : list.map((w) => webhookItem(w, false));
	return applyLimit(this, result, itemIndex);
});
