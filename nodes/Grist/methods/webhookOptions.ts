/**
 * Option lists of the Webhook resource: the document's webhooks (for Webhook ID), and the chosen
 * table's Toggle columns (Ready Column) and columns (Watched Columns), as the Instant Trigger lists them.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { triggerOnOf } from '../webhooks/webhookItems';
import { usageSummary } from '../webhooks/webhookFields';
import { pickedLocator } from '../parameters/locators';
import { GristClient } from '../api/client';
import { listWebhooks } from '../api/webhooks';
import { columnOption, pickedColumns } from './columnOptions';

const EVENT_TEXT: Record<string, string> = {
	add: 'rows added',
	update: 'rows updated',
	addOrUpdate: 'rows added or updated',
};

/** The document's webhooks: "name → URL", with table, events and delivery health. */
export async function getWebhooks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const docId = pickedLocator(this, 'document');
	if (docId === '') return [];
	const client = await GristClient.create(this);
	const list = await listWebhooks(client, docId);
	return list.map((w) => {
		const f = w.fields ?? {};
		const event = triggerOnOf(f.eventTypes);
		return {
			name: `${f.name ? `${f.name} → ` : ''}${f.url ?? w.id}`,
			value: w.id,
			description: `${f.tableId ?? ''}, ${event ? EVENT_TEXT[event] : 'no events'}${
				f.enabled === false ? ', disabled' : ''
			}; ${usageSummary(w.usage)}`,
		};
	});
}

/** The table's Toggle (Bool) columns: a webhook's Ready Column (Webhook resource, Instant Trigger). */
export async function readyColumnOptions(
	ctx: ILoadOptionsFunctions,
	current = false,
): Promise<INodePropertyOptions[]> {
	return ((await pickedColumns(ctx, { current })) ?? [])
		.filter((c) => c.type === 'Bool')
		.map((c) => columnOption(c));
}

/** The table's columns: a webhook's Watched Columns (Webhook resource, Instant Trigger). */
export async function watchedColumnOptions(
	ctx: ILoadOptionsFunctions,
	current = false,
): Promise<INodePropertyOptions[]> {
	return ((await pickedColumns(ctx, { current })) ?? []).map((c) => columnOption(c));
}

/** The table's Toggle (Bool) columns, for a webhook's Ready Column. */
export async function getToggleColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await readyColumnOptions(this);
}

/** The table's columns, for a webhook's Watched Columns. */
export async function getWatchColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await watchedColumnOptions(this);
}
