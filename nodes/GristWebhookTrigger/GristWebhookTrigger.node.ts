import { randomBytes } from 'node:crypto';
import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialOptions } from '../Grist/parameters/authentication';
import { locatorValue } from '../Grist/parameters/locators';
import { conditionProperties } from '../Grist/parameters/webhookCondition';
import {
	GRIST_INSTANT_TRIGGER_RETIRED,
	retiredProperties,
} from '../Grist/parameters/retiredParameters';
import { checkSavedParameters } from '../Grist/parameters/savedParameters';
import { sameCondition } from '../Grist/webhooks/webhookConditions';
import {
	deliveredRecords,
	matchRegistration,
	unreachableUrlProblem,
	webhookFields,
} from '../Grist/webhooks/webhookFields';
import { listSearch } from '../Grist/methods';
import { GristClient } from '../Grist/api/client';
import { createWebhooks, listWebhooks } from '../Grist/api/webhooks';
import { getReadyColumns, getWatchableColumns } from './readyColumns';
import { referenceDisplayOption } from '../Grist/parameters/referenceDisplayOption';
import { watchedColumnsField } from '../Grist/parameters/watchedColumnsField';
import {
	triggerOnField,
	triggerOptionsField,
	triggerSimplifyField,
	triggerSourceFields,
} from '../Grist/triggers/triggerFields';
import { authorized, deliveredItems } from './deliveries';
import {
	clearRegistration,
	explainRegistrationError,
	readColumnTypes,
	registeredConditions,
	rememberCondition,
	removeRegistration,
	wanted,
	type Stored,
} from './webhookRegistration';
import { inputProblem, noWebhookId, notGristsDelivery } from './webhookTriggerErrors';

/** Activation (and Listen for Test Event) and each delivery refuse a node saved in an older shape. */
const checkSaved = (ctx: IHookFunctions | IWebhookFunctions) =>
	checkSavedParameters(ctx, new GristWebhookTrigger().description, GRIST_INSTANT_TRIGGER_RETIRED);

/**
 * Starts a workflow the moment rows are added or changed in a Grist table, through a webhook
 * that Grist calls.
 *
 * Lifecycle (n8n's webhookMethods): `checkExists` lists the document's webhooks and keeps the
 * one registration with this node's URL and settings (it survives n8n restarts), removing every
 * other one with the same URL (stale settings, duplicates) and the one of a previously chosen
 * document; `create` registers a new one with a random secret; `delete` removes it (404 is fine).
 * The registration's pieces are in ./webhookRegistration.ts; what a delivery becomes, in
 * ./deliveries.ts.
 */
export class GristWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Grist Instant Trigger',
		name: 'gristWebhookTrigger',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The table watched, once picked (a node added from the panel is named after its event); the
		// event before that.
		subtitle:
			'={{ (/^=/.test(String($rawParameter["table"] || "")) ? "" : String($rawParameter["table"] || "")) || {"add": "Row added", "update": "Row updated", "addOrUpdate": "Row added or updated"}[$parameter["event"]] }}',
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
					'Grist calls this n8n when rows change, so Grist must be able to reach it and the credential must own the document (<a href="https://github.com/n8n-nodes-grist/n8n-nodes-grist#grist-instant-trigger">how to set this up</a>). If Grist cannot reach n8n, use the Grist Trigger (polling).',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			...triggerSourceFields,
			triggerOnField(
				[
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
				'add',
			),
			...conditionProperties({ columnsMethod: 'getWatchableColumns' }),
			...retiredProperties(GRIST_INSTANT_TRIGGER_RETIRED),
			triggerSimplifyField(
				"Whether to return flat records (the row ID next to the fields) with dates as ISO text and lists as arrays, like the Grist Trigger and Get Many, instead of Grist's cells as sent",
			),
			triggerOptionsField([
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
				watchedColumnsField({
					method: 'getWatchableColumns',
					updates: 'start the workflow',
					displayOptions: { show: { '/event': ['update', 'addOrUpdate'] } },
				}),
				referenceDisplayOption,
			]),
		],
	};

	methods = { listSearch, loadOptions: { getReadyColumns, getWatchableColumns } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				checkSaved(this);
				const data = this.getWorkflowStaticData('node') as Stored;
				const client = await GristClient.create(this);
				const w = await wanted(this, client);
				const unreachable = unreachableUrlProblem(w.settings.url, client.server.hostname);
				if (unreachable) throw inputProblem(this.getNode(), unreachable.message, unreachable.hint);
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
					throw explainRegistrationError(client, error, w);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				checkSaved(this);
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
					if (!id) throw noWebhookId(this.getNode());
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
					throw explainRegistrationError(client, error, w);
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
		checkSaved(this);
		const data = this.getWorkflowStaticData('node') as Stored;
		if (!authorized(this, data)) return { noWebhookResponse: true };
		const parsed = deliveredRecords(this.getRequestObject().body as unknown);
		if ('problem' in parsed) {
			// Answered 2xx so that Grist does not retry it forever and stall the document's queue.
			this.logger.warn(notGristsDelivery(parsed.problem), {
				workflowId: this.getWorkflow().id,
				node: this.getNode().name,
			});
			return { webhookResponse: { received: false, problem: parsed.problem } };
		}
		if (parsed.records.length === 0) return { webhookResponse: { received: true, records: 0 } };
		const items = await deliveredItems(this, data, parsed.records);
		return { workflowData: [this.helpers.returnJsonArray(items)] };
	}
}
