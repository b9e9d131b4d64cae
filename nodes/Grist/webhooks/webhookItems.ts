/**
 * Pure helpers of the Webhook resource: one output item per webhook (simplified: its settings in
 * the Grist Instant Trigger's terms and its delivery health; raw: Grist's `fields` and `usage`),
 * never with the secret (`authorization`) or the unsubscribe key, and the PATCH body of Update.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	columnIdList,
	isFailing,
	usageSummary,
	type TriggerOn,
	type WebhookEventType,
	type WebhookFields,
	type WebhookSummary,
} from './webhookFields';

/** The Instant Trigger's "Trigger On" for Grist's eventTypes. */
export function triggerOnOf(eventTypes: readonly string[] | undefined): TriggerOn | undefined {
	const set = new Set(eventTypes ?? []);
	if (set.has('add') && set.has('update')) return 'addOrUpdate';
	if (set.has('add')) return 'add';
	if (set.has('update')) return 'update';
	return undefined;
}

const iso = (ms: number | null | undefined) =>
	typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null;

/** One output item for a webhook; secrets left out, `hasAuthorization` says whether one is set. */
export function webhookItem(w: WebhookSummary, simplify: boolean): IDataObject {
	const fields: WebhookSummary['fields'] = { ...(w.fields ?? {}) };
	const authorization = fields.authorization;
	delete fields.authorization;
	delete fields.unsubscribeKey;
	const hasAuthorization = typeof authorization === 'string' && authorization !== '';
	if (!simplify) {
		return {
			id: w.id,
			fields: { ...fields, hasAuthorization } as IDataObject,
			usage: (w.usage ?? null) as IDataObject | null,
		};
	}
	const usage = w.usage ?? null;
	const last = usage?.lastEventBatch ?? null;
	return {
		id: w.id,
		name: fields.name ?? '',
		memo: fields.memo ?? '',
		url: fields.url ?? '',
		tableId: fields.tableId ?? '',
		event: triggerOnOf(fields.eventTypes) ?? null,
		eventTypes: [...(fields.eventTypes ?? [])],
		enabled: fields.enabled !== false,
		readyColumn: fields.isReadyColumn || null,
		watchedColumns: [...(fields.watchedColIds ?? [])].filter((c) => c !== ''),
		hasAuthorization,
		status: usage?.status ?? 'idle',
		waiting: usage?.numWaiting ?? 0,
		failing: isFailing(usage),
		health: usageSummary(usage),
		lastErrorMessage: usage?.lastErrorMessage ?? last?.errorMessage ?? null,
		lastHttpStatus: usage?.lastHttpStatus ?? last?.httpStatus ?? null,
		lastSuccessAt: iso(usage?.lastSuccessTime),
		lastFailureAt: iso(usage?.lastFailureTime),
		lastBatch: last ? ({ ...last } as IDataObject) : null,
	};
}

export function eventTypesOf(on: string): WebhookEventType[] {
	if (on === 'add') return ['add'];
	if (on === 'update') return ['update'];
	if (on === 'addOrUpdate') return ['add', 'update'];
	throw new Error(`"${on}" is not one of Row Added, Row Updated, Row Added or Updated`);
}

/** Update Fields (as the node's collection gives them) → the PATCH body; empty Ready Column clears it. */
export function webhookPatch(update: IDataObject): WebhookFields {
	const body: WebhookFields = {};
	if (update.enabled !== undefined) body.enabled = update.enabled === true;
	if (update.url !== undefined) {
		const url = String(update.url).trim();
		if (url === '') throw new Error('the URL is empty');
		body.url = url;
	}
	if (update.event !== undefined) body.eventTypes = eventTypesOf(String(update.event));
	if (update.tableId !== undefined) {
		const tableId = String(update.tableId).trim();
		if (tableId === '') throw new Error('the Table ID is empty');
		body.tableId = tableId;
	}
	if (update.readyColumn !== undefined) {
		const col = String(update.readyColumn).trim();
		body.isReadyColumn = col === '' ? null : col;
	}
	if (update.watchedColumns !== undefined) body.watchedColIds = columnIdList(update.watchedColumns);
	if (update.name !== undefined) body.name = String(update.name);
	if (update.memo !== undefined) body.memo = String(update.memo);
	if (update.authorization !== undefined) body.authorization = String(update.authorization);
	return body;
}

/**
 * Grist applies `watchedColIds` only together with `tableId`, and a `tableId` without them (or
 * without `isReadyColumn`) resets them (DocApiTriggers.ts). So a PATCH that changes one of them
 * gets the webhook's current table and, on the same table, its current other settings.
 */
export function completePatch(
	body: WebhookFields,
	current: WebhookSummary['fields'],
): WebhookFields {
	if (body.watchedColIds === undefined && body.tableId === undefined) return body;
	const out: WebhookFields = { ...body };
	const currentTable = current.tableId;
	if (out.tableId === undefined && currentTable !== undefined) out.tableId = currentTable;
	if (out.tableId === currentTable) {
		if (out.watchedColIds === undefined)
			out.watchedColIds = [...(current.watchedColIds ?? [])].filter((c) => c !== '');
		if (out.isReadyColumn === undefined) out.isReadyColumn = current.isReadyColumn || null;
	}
	return out;
}
