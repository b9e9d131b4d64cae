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
import { conditionProperties, triggerCondition } from '../Grist/parameters/webhookCondition';
import {
	GRIST_INSTANT_TRIGGER_RETIRED,
	retiredProperties,
} from '../Grist/parameters/retiredParameters';
import { checkSavedParameters } from '../Grist/parameters/savedParameters';
import { sameCondition } from '../Grist/webhooks/webhookConditions';
import {
	columnIdList,
	deliveredRecords,
	matchRegistration,
	unreachableUrlProblem,
	webhookFields,
	type TriggerOn,
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
	applyStateSave,
	exactItems,
	isStateSave,
	newestState,
	type ChangesState,
} from './exactChanges';
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
import {
	anyChangeNeedsExact,
	exactWithCondition,
	inputProblem,
	noWebhookId,
	notGristsDelivery,
} from './webhookTriggerErrors';
import { nodeParameter } from '../Grist/parameters/read';
import type { GristClient as Client } from '../Grist/api/client';

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
			'={{ (/^=/.test(String($rawParameter["table"] || "")) ? "" : String($rawParameter["table"] || "")) || {"add": "Row added", "update": "Row updated", "addOrUpdate": "Row added or updated", "anyChange": "Row added, updated or deleted"}[$parameter["event"]] }}',
		description: 'Grist calls n8n at once on row changes; Grist must be able to reach this n8n',
		// The editor's texts while it waits: n8n's own read "Pull in events from Grist Instant".
		eventTriggerDescription:
			'Waiting for you to add a row to the table in Grist, or to edit one of its cells',
		activationMessage:
			'Grist now calls this workflow when rows of the table are added or changed, as the Trigger On setting says.',
		triggerPanel: {
			header: 'In Grist, add a row to the table or edit one of its cells',
			executionsHelp: {
				inactive:
					'Click "Listen for test event", then open the document in Grist and add a row to the table or edit a cell of it (a deleted row is noticed only with the next added or edited row): Grist calls n8n within a second and the workflow runs with it. Once you publish the workflow, Grist calls it on every change.',
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
			{
				displayName: 'Changes',
				name: 'changes',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'As Sent by Grist',
						value: 'asSent',
						description:
							"The rows in Grist's delivery: no Grist request per delivery, no previous values, no deletions",
					},
					{
						name: "Exact, From the Document's History",
						value: 'exact',
						description:
							"Each delivery only wakes the trigger: every change since the last one, read from the document's history, once, with previous values and deleted rows (2 requests per delivery; needs an API key)",
					},
				],
				default: 'asSent',
			},
			{
				displayName:
					'Grist sends no webhook for a deleted row: a deletion arrives with the next added or edited row of the table. Changes missed while n8n was down arrive with the next delivery.',
				name: 'exactNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { changes: ['exact'] } },
			},
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
					{
						name: 'Row Added, Updated or Deleted',
						value: 'anyChange',
						action: 'On row added, updated or deleted (instant)',
						description:
							'Grist calls n8n at once on a change (Changes: Exact); a deletion comes with the next change',
					},
				],
				'add',
			),
			...conditionProperties({ columnsMethod: 'getWatchableColumns' }).map((p) => ({
				...p,
				displayOptions: {
					...p.displayOptions,
					show: { ...p.displayOptions?.show, changes: ['asSent'] },
				},
			})),
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
					displayOptions: { show: { '/event': ['update', 'addOrUpdate', 'anyChange'] } },
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
				checkChangesMode(this);
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
					// Exact: an existing state is kept (the next delivery catches up from it).
					await rememberChanges(this, client, data, w.docId, true);
					return true;
				} catch (error) {
					throw explainRegistrationError(client, error, w);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				checkSaved(this);
				checkChangesMode(this);
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
					await rememberChanges(this, client, data, w.docId, false);
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
		const body = this.getRequestObject().body as unknown;
		const exact = isExact(this);
		// The trigger's own call that saves its state (./exactChanges.ts): it starts nothing, so
		// n8n saves the static data written here.
		if (exact && isStateSave(body)) return { webhookResponse: applyStateSave(data, body) };
		const parsed = deliveredRecords(body);
		if ('problem' in parsed) {
			// Answered 2xx so that Grist does not retry it forever and stall the document's queue.
			this.logger.warn(notGristsDelivery(parsed.problem), {
				workflowId: this.getWorkflow().id,
				node: this.getNode().name,
			});
			return { webhookResponse: { received: false, problem: parsed.problem } };
		}
		if (parsed.records.length === 0) return { webhookResponse: { received: true, records: 0 } };
		const on = nodeParameter(this, 'event', 'add') as TriggerOn;
		const items = exact
			? await exactItems({
					fn: this,
					client: await GristClient.create(this),
					data,
					docId: data.docId ?? locatorValue(this, 'document'),
					tableId: locatorValue(this, 'table'),
					on,
					simplify: nodeParameter(this, 'simplify', true) as boolean,
					watchedColumns:
						on === 'add'
							? []
							: columnIdList(
									(nodeParameter(this, 'options', {}) as { watchedColumns?: unknown })
										.watchedColumns,
								),
					records: parsed.records,
				})
			: await deliveredItems(this, data, parsed.records, on);
		// Nothing new since the saved state (a repeated delivery, or changes already emitted).
		if (items.length === 0) return { webhookResponse: { received: true, records: 0 } };
		return { workflowData: [this.helpers.returnJsonArray(items)] };
	}
}

/**
 * With Changes: Exact, the history state the trigger starts from: the newest one at activation
 * (kept when `keep` and one is saved for this document). Refuses what exact mode cannot run before
 * Grist is asked: Row Added, Updated or Deleted without it, a Filter or When with it.
 */
async function rememberChanges(
	fn: IHookFunctions,
	client: Client,
	data: Stored,
	docId: string,
	keep: boolean,
): Promise<void> {
	const exact = isExact(fn);
	if (!exact) {
		delete data.changes;
		return;
	}
	if (keep && data.changes) return;
	const state: ChangesState = await newestState(client, docId);
	data.changes = state;
}

/** The settings exact mode cannot run, refused before any request. */
export function checkChangesMode(fn: IHookFunctions): void {
	const exact = isExact(fn);
	const on = nodeParameter(fn, 'event', 'add') as TriggerOn;
	if (!exact && on === 'anyChange') throw anyChangeNeedsExact(fn.getNode());
	if (exact && triggerCondition(fn).type !== 'none') throw exactWithCondition(fn.getNode());
}

/** Changes: Exact, from the Document's History. */
function isExact(fn: IHookFunctions | IWebhookFunctions): boolean {
	return nodeParameter(fn, 'changes', 'asSent' as string) === 'exact';
}
