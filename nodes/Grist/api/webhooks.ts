/**
 * Webhooks of a document (owners only; OAuth tokens need the doc:webhooks scope): list, create,
 * update, delete, clear the delivery queue, and the automations that hold their conditions.
 */
import type { TriggerRecord } from '../webhooks/webhookConditions';
import type { WebhookFields, WebhookSummary } from '../webhooks/webhookFields';
import type { GristClient } from './client';
import { documentEndpoint, type Endpoint } from './paths';

/** `/api/docs/{docId}/webhooks/{id}`, about that webhook. */
function webhookEndpoint(client: GristClient, docId: string, webhookId: string): Endpoint {
	const id = { value: webhookId, label: 'webhook ID' };
	const { path } = documentEndpoint(client, docId, 'webhooks', id);
	return { path, what: `webhook "${webhookId}"` };
}

/** GET /api/docs/{docId}/webhooks: every webhook of the document with its delivery `usage`. */
export async function listWebhooks(
	client: GristClient,
	docId: string,
	itemIndex?: number,
): Promise<WebhookSummary[]> {
	const res = await client.request<{ webhooks?: WebhookSummary[] }>({
		method: 'GET',
		...documentEndpoint(client, docId, 'webhooks'),
		itemIndex,
	});
	return res?.webhooks ?? [];
}

/** POST /api/docs/{docId}/webhooks: registers webhooks; returns their ids in order. */
export async function createWebhooks(
	client: GristClient,
	docId: string,
	webhooks: WebhookFields[],
	itemIndex?: number,
): Promise<string[]> {
	const res = await client.request<{ webhooks?: Array<{ id: string }> }>({
		method: 'POST',
		...documentEndpoint(client, docId, 'webhooks'),
		body: { webhooks: webhooks.map((fields) => ({ fields })) },
		itemIndex,
	});
	return (res?.webhooks ?? []).map((w) => w.id);
}

/** PATCH /api/docs/{docId}/webhooks/{id}. */
export async function updateWebhook(
	client: GristClient,
	docId: string,
	webhookId: string,
	fields: WebhookFields,
	itemIndex?: number,
): Promise<void> {
	const endpoint = webhookEndpoint(client, docId, webhookId);
	await client.request({ method: 'PATCH', ...endpoint, body: fields, itemIndex });
}

/** DELETE /api/docs/{docId}/webhooks/{id} (404 `Webhook not found "id"` when it is gone). */
export async function deleteWebhook(
	client: GristClient,
	docId: string,
	webhookId: string,
	itemIndex?: number,
): Promise<void> {
	await client.request({
		method: 'DELETE',
		...webhookEndpoint(client, docId, webhookId),
		itemIndex,
	});
}

/** DELETE /api/docs/{docId}/webhooks/queue: drops every delivery waiting in the document's queue. */
export async function clearWebhookQueue(
	client: GristClient,
	docId: string,
	itemIndex?: number,
): Promise<void> {
	const endpoint = documentEndpoint(client, docId, 'webhooks', 'queue');
	await client.request({ method: 'DELETE', ...endpoint, itemIndex });
}

/**
 * GET /api/docs/{docId}/triggers (Grist 1.7.12+, owners only): the document's automations, the
 * only place that returns a webhook's `condition` (GET /webhooks leaves it out). An older Grist
 * answers 404.
 */
export async function listTriggers(client: GristClient, docId: string): Promise<TriggerRecord[]> {
	const endpoint = documentEndpoint(client, docId, 'triggers');
	const res = await client.request<{ records?: TriggerRecord[] }>({ method: 'GET', ...endpoint });
	return res?.records ?? [];
}
