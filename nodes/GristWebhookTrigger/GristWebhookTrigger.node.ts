import { randomBytes } from 'node:crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../Grist/errors/nodeErrors';
import { authenticationProperty, credentialOptions } from '../Grist/parameters/authentication';
import { documentLocator, locatorValue, tableLocator } from '../Grist/parameters/locators';
import { nodeParameter } from '../Grist/parameters/read';
import { triggerTarget } from '../Grist/parameters/trigger';
import { conditionProperties, triggerCondition } from '../Grist/parameters/webhookCondition';
import { columnTypes } from '../Grist/cells/tableColumns';
import { InputError, attempt } from '../Grist/errors/gristAnswers';
import {
	buildWebhookCondition,
	conditionEventTypes,
	conditionWatchedColumns,
	sameCondition,
	webhookConditions,
} from '../Grist/webhooks/webhookConditions';
import {
	bearer,
	columnIdList,
	deliveredItem,
	deliveredRecords,
	eventTypesFor,
	matchRegistration,
	secretsEqual,
	unknownColumns,
	unreachableUrlProblem,
	webhookFields,
	type TriggerOn,
	type WebhookSettings,
} from '../Grist/webhooks/webhookFields';
import { listSearch } from '../Grist/methods';
import { GristClient } from '../Grist/transport';
import {
	createWebhooks,
	deleteWebhook,
	fetchColumns,
	listTriggers,
	listWebhooks,
} from '../Grist/transport/api';
import { getReadyColumns, getWatchableColumns } from './loadOptions';
import { addDeliveredDisplay } from '../Grist/actions/referenceDisplay';
import { referenceDisplayOption } from '../Grist/parameters/referenceDisplay';

/**
 * Starts a workflow the moment rows are added or changed in a Grist table, through a webhook
 * that Grist calls.
 *
 * Lifecycle (n8n's webhookMethods): `checkExists` lists the document's webhooks and keeps the
 * one registration with this node's URL and settings (it survives n8n restarts), removing every
 * other one with the same URL (stale settings, duplicates) and the one of a previously chosen
 * document; `create` registers a new one with a random secret; `delete` removes it (404 is fine).
 *
 * Only Rows Matching / When become the webhook's `condition`, event types and watched columns
 * (webhooks/webhookConditions.ts). GET /webhooks does not return a condition, so when one is
 * wanted or was registered, `checkExists` reads it from GET /triggers: a changed condition makes a
 * new registration.
 *
 * Static data (`getWorkflowStaticData('node')`): `{ webhookId, docId, secret, columnTypes,
 * condition }` (`condition`: the one registered, if any). The
 * secret is sent by Grist as `Authorization: Bearer <secret>`; a request without it gets 401 and
 * starts nothing. Column types (for Simplify) are read once per activation, and again only when a
 * delivery carries a column they do not know: those are kept in this process's memory
 * (`laterColumnTypes`), not in static data. n8n loads the workflow afresh for every delivery, and
 * in queue mode the webhook process does not save what `webhook()` writes into static data
 * (measured with n8n 2.41.1; a single n8n does); writing there would also race with the main
 * process's writes.
 */
interface Stored {
	webhookId?: string;
	docId?: string;
	secret?: string;
	columnTypes?: Record<string, string>;
	condition?: string;
}

interface Options {
	readyColumn?: string;
	watchedColumns?: string[] | string;
}

interface Wanted {
	docId: string;
	tableId: string;
	settings: WebhookSettings;
}

/** The registration the node's fields ask for; the table's columns are read for a condition. */
async function wanted(fn: IHookFunctions, client: GristClient): Promise<Wanted> {
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
			throw new NodeOperationError(fn.getNode(), e.message, {
				description: e instanceof InputError ? e.hint : undefined,
			});
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
async function registeredConditions(
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
		throw new NodeOperationError(fn.getNode(), 'This Grist server cannot filter webhook rows', {
			description:
				'Only Rows Matching needs Grist 1.7.12 or later (GET /triggers answered 404). Update Grist, or set Only Rows Matching to None and filter in the workflow (e.g. with an If node).',
		});
	}
}

function clearRegistration(data: Stored): void {
	delete data.webhookId;
	delete data.docId;
	delete data.secret;
	delete data.columnTypes;
	delete data.condition;
}

function rememberCondition(data: Stored, w: Wanted): void {
	if (w.settings.condition) data.condition = w.settings.condition;
	else delete data.condition;
}

const is404 = (error: unknown) => error instanceof NodeApiError && error.httpCode === '404';

/** Removes a registration; one already gone (404) is fine. */
async function removeRegistration(client: GristClient, docId: string, id: string): Promise<void> {
	try {
		await deleteWebhook(client, docId, id);
	} catch (error) {
		if (!is404(error)) throw toNodeError(client.getNode(), error);
	}
}

/** Adds to Grist's error what the user should change. */
function explain(
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

/**
 * Column types read by `webhook()` for columns added after activation, per registration (document,
 * webhook and table), in this process's memory; the oldest registration is dropped past 200.
 */
const laterColumnTypes = new Map<string, Record<string, string>>();
const LATER_COLUMN_TYPES_MAX = 200;

function rememberLaterColumnTypes(key: string, types: Record<string, string>): void {
	laterColumnTypes.delete(key);
	laterColumnTypes.set(key, types);
	while (laterColumnTypes.size > LATER_COLUMN_TYPES_MAX) {
		const oldest = laterColumnTypes.keys().next().value;
		if (oldest === undefined) break;
		laterColumnTypes.delete(oldest);
	}
}

async function readColumnTypes(
	client: GristClient,
	docId: string,
	tableId: string,
): Promise<Record<string, string>> {
	return columnTypes(await fetchColumns(client, { docId, tableId }));
}

export class GristWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Grist Instant Trigger',
		name: 'gristWebhookTrigger',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ {"add": "Row added", "update": "Row updated", "addOrUpdate": "Row added or updated"}[$parameter["event"]] }}',
		description: 'Grist calls n8n at once on row changes; Grist must be able to reach this n8n',
		// The editor's texts while it waits: n8n's own read "Pull in events from Grist Instant".
		eventTriggerDescription: 'Waiting for you to add or change a row of the table in Grist',
		activationMessage:
			'Grist now calls this workflow when rows of the table are added or changed, as the Trigger On setting says.',
		triggerPanel: {
			header: 'Add or change a row of the table in Grist',
			executionsHelp: {
				inactive:
					'While you build the workflow, click "Listen for test event", then add or change a row of the table in Grist: the workflow runs with it. Once you publish the workflow, Grist calls it on every change.',
				active:
					'The workflow is published: Grist calls it each time a row of the table is added or changed (see Executions).',
			},
			activationHint:
				'Publish the workflow and Grist calls it on every change, without the editor open.',
		},
		documentationUrl: 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#grist-instant-trigger',
		defaults: { name: 'Grist Instant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialOptions,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Grist calls this n8n when rows change, so it must be able to reach it; the credential must be an owner of the document. <a href="https://github.com/n8n-nodes-grist/n8n-nodes-grist#grist-instant-trigger">What the n8n and Grist admins set up</a>. Where Grist cannot reach n8n, use the Grist Trigger (polling).',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			authenticationProperty,
			documentLocator,
			tableLocator,
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Row Added',
						value: 'add',
						action: 'On row added (instant)',
						description:
							'Grist calls n8n at once when a new record is added (or becomes ready, with a Ready Column)',
					},
					{
						name: 'Row Added or Updated',
						value: 'addOrUpdate',
						action: 'On row added or updated (instant)',
						description: 'Grist calls n8n at once when a record is added or changed',
					},
					{
						name: 'Row Updated',
						value: 'update',
						action: 'On row updated (instant)',
						description: 'Grist calls n8n at once when an existing record is changed',
					},
				],
				default: 'add',
			},
			...conditionProperties({ columnsMethod: 'getWatchableColumns' }),
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description:
					"Whether to return flat records (the row ID next to the fields) with dates as ISO text and lists as arrays, like the Grist Trigger and Get Many, instead of Grist's cells as sent",
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Ready Column Name or ID',
						name: 'readyColumn',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getReadyColumns',
							loadOptionsDependsOn: ['document.value', 'table.value'],
						},
						default: '',
						description:
							'A Toggle (Bool) column: only records whose box is ticked start the workflow; ticking it counts as "added". Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Watched Column Names or IDs',
						name: 'watchedColumns',
						type: 'multiOptions',
						typeOptions: {
							loadOptionsMethod: 'getWatchableColumns',
							loadOptionsDependsOn: ['document.value', 'table.value'],
						},
						default: [],
						displayOptions: { show: { '/event': ['update', 'addOrUpdate'] } },
						description:
							'Updates start the workflow only when one of these columns changed (empty: any column). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					referenceDisplayOption,
				],
			},
		],
	};

	methods = { listSearch, loadOptions: { getReadyColumns, getWatchableColumns } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node') as Stored;
				const client = await GristClient.create(this);
				const w = await wanted(this, client);
				const unreachable = unreachableUrlProblem(w.settings.url, client.server.hostname);
				if (unreachable)
					throw new NodeOperationError(this.getNode(), unreachable.message, {
						description: unreachable.hint,
					});
				try {
					// The document changed since the registration was made: remove the old one.
					if (data.webhookId && data.docId && data.docId !== w.docId) {
						await removeRegistration(client, data.docId, data.webhookId).catch(() => undefined);
						clearRegistration(data);
					}
					const list = await listWebhooks(client, w.docId);
					const conditions = await registeredConditions(this, client, w, data);
					const { keep, remove } = matchRegistration(
						list,
						w.settings,
						data.webhookId,
						(hook) =>
							!conditions || sameCondition(conditions.get(hook.id), w.settings.condition ?? null),
					);
					for (const other of remove) await removeRegistration(client, w.docId, other.id);
					if (!keep) {
						clearRegistration(data);
						return false;
					}
					data.webhookId = keep.id;
					data.docId = w.docId;
					data.secret = keep.secret;
					data.columnTypes = await readColumnTypes(client, w.docId, w.tableId);
					rememberCondition(data, w);
					return true;
				} catch (error) {
					throw explain(client, error, w);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node') as Stored;
				const client = await GristClient.create(this);
				const w = await wanted(this, client);
				const secret = randomBytes(32).toString('hex');
				const workflow = this.getWorkflow();
				let id: string | undefined;
				try {
					[id] = await createWebhooks(client, w.docId, [
						webhookFields(w.settings, secret, {
							name: 'n8n Grist Instant Trigger',
							memo: `n8n workflow "${workflow.name ?? ''}" (${workflow.id ?? ''})`,
						}),
					]);
					if (!id)
						throw new NodeOperationError(this.getNode(), 'Grist did not return a webhook ID');
					const types = await readColumnTypes(client, w.docId, w.tableId);
					data.webhookId = id;
					data.docId = w.docId;
					data.secret = secret;
					data.columnTypes = types;
					rememberCondition(data, w);
					return true;
				} catch (error) {
					// never leave a registration behind that n8n does not know
					if (id) await removeRegistration(client, w.docId, id).catch(() => undefined);
					throw explain(client, error, w);
				}
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node') as Stored;
				const client = await GristClient.create(this);
				if (data.webhookId && data.docId) {
					await removeRegistration(client, data.docId, data.webhookId);
				} else {
					// Nothing recorded (e.g. static data lost): remove whatever has this node's URL.
					const url = this.getNodeWebhookUrl('default');
					const docId = locatorValue(this, 'document');
					if (url && docId) {
						const list = await listWebhooks(client, docId).catch(() => []);
						for (const w of list)
							if (w.fields?.url === url) await removeRegistration(client, docId, w.id);
					}
				}
				clearRegistration(data);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const data = this.getWorkflowStaticData('node') as Stored;
		const req = this.getRequestObject();
		const given = req.headers.authorization;
		if (!data.secret || typeof given !== 'string' || !secretsEqual(given, bearer(data.secret))) {
			const res = this.getResponseObject();
			res.status(401).json({ message: 'Authorization is missing or wrong' });
			return { noWebhookResponse: true };
		}
		const parsed = deliveredRecords(req.body as unknown);
		if ('problem' in parsed) {
			// Answered 2xx so that Grist does not retry it forever and stall the document's queue.
			this.logger.warn(
				`Grist Instant Trigger: ignored a delivery that is not Grist's: ${parsed.problem}`,
				{
					workflowId: this.getWorkflow().id,
					node: this.getNode().name,
				},
			);
			return { webhookResponse: { received: false, problem: parsed.problem } };
		}
		if (parsed.records.length === 0) return { webhookResponse: { received: true, records: 0 } };
		const simplify = nodeParameter(this, 'simplify', true) as boolean;
		const docId = data.docId ?? locatorValue(this, 'document');
		const tableId = locatorValue(this, 'table');
		const laterKey = JSON.stringify([
			this.getWorkflow().id ?? '',
			this.getNode().name,
			docId,
			data.webhookId ?? '',
			tableId,
		]);
		let types = { ...data.columnTypes, ...laterColumnTypes.get(laterKey) };
		if (simplify && unknownColumns(parsed.records, types).length > 0) {
			try {
				const client = await GristClient.create(this);
				types = await readColumnTypes(client, docId, tableId);
				rememberLaterColumnTypes(laterKey, types);
			} catch (error) {
				this.logger.warn(
					`Grist Instant Trigger: could not read the table's columns, values of new columns are passed as sent: ${(error as Error).message}`,
				);
			}
		}
		const items = parsed.records.map((r) => ({
			json: deliveredItem(r, simplify, types) as IDataObject,
		}));
		await addDeliveredDisplay(this, { docId, tableId }, parsed.records, items, simplify);
		return { workflowData: [this.helpers.returnJsonArray(items.map((i) => i.json))] };
	}
}
