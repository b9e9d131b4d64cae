/**
 * The Grist Instant Trigger's webhook registration in Grist: the registration its fields ask
 * for, the conditions registered, the static data that records the registration, and removing
 * one. The lifecycle that uses them (checkExists, create, delete) is in the node.
 *
 * Filter and When become the webhook's `condition`, event types and watched columns
 * (webhooks/webhookConditions.ts). GET /webhooks does not return a condition, so when one is
 * wanted or was registered, `checkExists` reads it from GET /triggers: a changed condition makes a
 * new registration.
 */
import { NodeApiError, type IHookFunctions, type NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../Grist/errors/nodeErrors';
import { columnTypes } from '../Grist/cells/tableColumns';
import { InputError, attempt } from '../Grist/errors/gristAnswers';
import {
	buildWebhookCondition,
	conditionEventTypes,
	conditionWatchedColumns,
	webhookConditions,
} from '../Grist/webhooks/webhookConditions';
import {
	columnIdList,
	eventTypesFor,
	type TriggerOn,
	type WebhookSettings,
} from '../Grist/webhooks/webhookFields';
import { nodeParameter } from '../Grist/parameters/read';
import { triggerCondition } from '../Grist/parameters/webhookCondition';
import type { GristClient } from '../Grist/api/client';
import { deleteWebhook, listTriggers } from '../Grist/api/webhooks';
import { fetchColumns } from '../Grist/api/columns';
import { triggerTarget } from '../Grist/triggers/triggerTarget';
import { inputProblem, noConditionsOnServer } from './webhookTriggerErrors';

/**
 * Static data (`getWorkflowStaticData('node')`): `{ webhookId, docId, secret, columnTypes,
 * condition, changes }` (`condition`: the one registered, if any; `changes`: with Changes: Exact,
 * the history state up to which the trigger has emitted, ./exactChanges.ts).
 */
export interface Stored {
	webhookId?: string;
	docId?: string;
	secret?: string;
	columnTypes?: Record<string, string>;
	condition?: string;
	changes?: { n: number; h: string; table?: string };
}

interface Options {
	readyColumn?: string;
	watchedColumns?: string[] | string;
}

export interface Wanted {
	docId: string;
	tableId: string;
	settings: WebhookSettings;
}

/** The registration the node's fields ask for; the table's columns are read for a condition. */
export async function wanted(fn: IHookFunctions, client: GristClient): Promise<Wanted> {
	const { docId, tableId } = triggerTarget(fn);
	const on = nodeParameter(fn, 'event', 'add') as TriggerOn;
	const options = nodeParameter(fn, 'options', {}) as Options;
	const url = fn.getNodeWebhookUrl('default') ?? '';
	const ready = String(options.readyColumn ?? '').trim();
	const watched = on === 'add' ? [] : columnIdList(options.watchedColumns);
	const settings: WebhookSettings = {
		url,
		tableId,
		eventTypes: eventTypesFor(on),
		isReadyColumn: ready || null,
		watchedColIds: watched,
	};
	const input = triggerCondition(fn);
	if (input.type !== 'none') {
		const columns = (await fetchColumns(client, { docId, tableId })).filter((c) => !c.hidden);
		const built = attempt(() => buildWebhookCondition(input, columns));
		if (built.error) {
			const e = built.error;
			throw inputProblem(fn.getNode(), e.message, e instanceof InputError ? e.hint : undefined);
		}
		const { condition, notifyWhen } = built.value;
		settings.condition = condition;
		settings.eventTypes = conditionEventTypes(settings.eventTypes, notifyWhen);
		settings.watchedColIds = conditionWatchedColumns(
			notifyWhen,
			built.value.columns,
			watched,
			columns.map((c) => c.id),
		);
	}
	return { docId, tableId, settings };
}

/**
 * The condition of each webhook of the document (GET /triggers), when a condition is wanted or
 * was registered; undefined when neither (no extra request for triggers without conditions).
 */
export async function registeredConditions(
	fn: IHookFunctions,
	client: GristClient,
	w: Wanted,
	data: Stored,
): Promise<Map<string, string> | undefined> {
	if (!w.settings.condition && !data.condition) return undefined;
	try {
		return webhookConditions(await listTriggers(client, w.docId));
	} catch (error) {
		if (!is404(error)) throw toNodeError(client.getNode(), error);
		if (!w.settings.condition) return new Map();
		throw noConditionsOnServer(fn.getNode());
	}
}

export function clearRegistration(data: Stored): void {
	delete data.webhookId;
	delete data.docId;
	delete data.secret;
	delete data.columnTypes;
	delete data.condition;
	delete data.changes;
}

export function rememberCondition(data: Stored, w: Wanted): void {
	if (w.settings.condition) data.condition = w.settings.condition;
	else delete data.condition;
}

const is404 = (error: unknown) => error instanceof NodeApiError && error.httpCode === '404';

/** Removes a registration; one already gone (404) is fine. */
export async function removeRegistration(
	client: GristClient,
	docId: string,
	id: string,
): Promise<void> {
	try {
		await deleteWebhook(client, docId, id);
	} catch (error) {
		if (!is404(error)) throw toNodeError(client.getNode(), error);
	}
}

/** Adds to Grist's error what the user should change. */
export function explainRegistrationError(
	client: GristClient,
	error: unknown,
	w: Wanted,
): NodeApiError | NodeOperationError {
	return toNodeError(client.getNode(), error, {
		scope: 'trigger.webhook',
		values: {
			url: w.settings.url,
			gristHost: client.server.hostname,
			oauth: client.isOAuth,
			docId: w.docId,
			tableId: w.tableId,
		},
	});
}

/** The table's column types (for Simplify). */
export async function readColumnTypes(
	client: GristClient,
	docId: string,
	tableId: string,
): Promise<Record<string, string>> {
	return columnTypes(await fetchColumns(client, { docId, tableId }));
}
