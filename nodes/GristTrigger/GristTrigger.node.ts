import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialOptions } from '../Grist/parameters/authentication';
import { noticeField } from '../Grist/parameters/commonFields';
import { listSearch } from '../Grist/methods';
import { GristClient } from '../Grist/api/client';
import { DEFAULT_RETRY } from '../Grist/api/retry';
import { getWatchColumns } from '../Grist/methods/webhookOptions';
import { getCreationColumns, getTimestampColumns } from './timestampColumns';
import { referenceDisplayOption } from '../Grist/parameters/referenceDisplayOption';
import { watchedColumnsField } from '../Grist/parameters/watchedColumnsField';
import {
	triggerOnField,
	triggerOptionsField,
	triggerSimplifyField,
	triggerSourceFields,
} from '../Grist/triggers/triggerFields';
import { pollEventFor } from './events';
import type { PollContext } from './events/pollEvent';
import { recordsFetcher } from './events/recordPolling';
import { explainFailure, runPoll } from './pollRun';
import { n8nPollBudgetMs, pollBudgetMs } from './pollBudget';
import { pollAlone } from './pollGuard';
import { DEFAULT_MAX_RECORDS, readSettings } from './triggerSettings';
import { ALL_MATCHES, filterProperties } from '../Grist/parameters/filterFields';
import { GRIST_TRIGGER_RETIRED, retiredOptions } from '../Grist/parameters/retiredParameters';
import { checkSavedParameters } from '../Grist/parameters/savedParameters';

/** How the trigger runs the conditions of Filter. */
const TRIGGER_CONDITIONS =
	"Rows must match the conditions (all of them, or any, per Combine). Row Added and Row Added or Updated read the matching rows as Get Many does: Is One Of and Is Empty combined with AND use Grist's record filter, other conditions a read-only SQL query (needs an API key with read access to the whole document). The other events test each changed row.";

/**
 * Polls a Grist table for new, new and updated, or (from the document's history) updated and
 * deleted records. Each event is a module of ./events/ with its own cursor; ./pollRun.ts keeps
 * the cursor in the workflow's static data and skips polls while the document is unchanged. One
 * poll of a trigger runs at a time (./pollGuard.ts), within a time budget (./pollBudget.ts). A
 * manual poll ("Fetch test event") returns the latest record as a sample and neither reads nor
 * writes the cursor.
 */
export class GristTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Grist Trigger',
		name: 'gristTrigger',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The table watched, once picked (a node added from the panel is named after its event); the
		// event before that.
		subtitle:
			'={{ (/^=/.test(String($rawParameter["table"] || "")) ? "" : String($rawParameter["table"] || "")) || {"rowAddedOrUpdated": "Row added or updated", "rowDeleted": "Row deleted", "rowUpdated": "Row updated", "anyChange": "Row added, updated or deleted"}[$parameter["event"]] || "Row added" }}',
		// n8n's node panel shows this node and the Grist node as one entry ("Grist Records &
		// Documents"), with this description; the Grist Instant Trigger is an entry of its own. The
		// event options' `action` is what the panel lists under Triggers: both say how they start.
		description:
			'Records with upsert, conditions and SQL; tables, files; polling trigger (works anywhere)',
		documentationUrl: 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#grist-trigger',
		defaults: { name: 'Grist Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialOptions,
		properties: [
			noticeField(
				'pollCost',
				"Each poll is a Grist API call (a few more when it finds changes): polling every minute makes 1,440 calls a day, 43,200 a month. Grist's free plan allows 3,000 calls a month per site, paid plans a number per document per day: on the free plan, poll every 15 minutes or less often.",
			),
			...triggerSourceFields,
			triggerOnField(
				[
					{
						name: 'Row Added, Updated or Deleted',
						value: 'anyChange',
						action: 'On row added, updated or deleted (polling)',
						description: 'Every row change, from the change history, on a schedule',
					},
					{
						name: 'Row Added',
						value: 'rowAdded',
						action: 'On row added (polling)',
						description: 'New rows, checked on a schedule',
					},
					{
						name: 'Row Added or Updated',
						value: 'rowAddedOrUpdated',
						action: 'On row added or updated (polling)',
						description: 'New or changed rows, by a timestamp column, on a schedule',
					},
					{
						name: 'Row Deleted',
						value: 'rowDeleted',
						action: 'On row deleted (polling)',
						description: 'Deleted rows with their last values, on a schedule',
					},
					{
						name: 'Row Updated',
						value: 'rowUpdated',
						action: 'On row updated (polling)',
						description: 'Changed rows with their previous values, on a schedule',
					},
				],
				'rowAdded',
			),
			{
				displayName: 'Timestamp Column Name or ID',
				name: 'timestampColumn',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: 'getTimestampColumns',
					loadOptionsDependsOn: ['document.value', 'table.value'],
				},
				required: true,
				default: '',
				displayOptions: { show: { event: ['rowAddedOrUpdated'] } },
				hint: 'Set it up once in Grist: a DateTime column whose trigger formula NOW() applies on changes to any field.',
				description:
					'The column Grist updates whenever a row changes (such columns are listed first). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			...filterProperties({
				matches: ALL_MATCHES,
				combine: true,
				ignoreCase: true,
				json: true,
				referencesByName: true,
				columnsMethod: 'getWatchColumns',
				filterDescription:
					"Only rows that match trigger: their current values, a deleted row's last values",
				conditionsDescription: TRIGGER_CONDITIONS,
			}),
			triggerSimplifyField(
				"Whether to return flat rows (the row ID next to the cells) with dates as ISO text, instead of Grist's raw form with the cells under fields. Either way, _change says what happened to the row.",
			),
			triggerOptionsField([
				{
					displayName: 'Creation Column Name or ID',
					name: 'creationColumn',
					type: 'options',
					typeOptions: {
						loadOptionsMethod: 'getCreationColumns',
						loadOptionsDependsOn: ['document.value', 'table.value'],
					},
					default: '',
					displayOptions: { show: { '/event': ['rowAdded'] } },
					description:
						'A column set once when a record is created (e.g. a DateTime with the trigger formula NOW() on new records only). Lets the trigger tell new records that got the IDs of just-deleted last records from edits of those records. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'If Change History Is Lost',
					name: 'onLostHistory',
					type: 'options',
					options: [
						{
							name: 'Stop With an Error',
							value: 'error',
							description:
								'Each poll fails, saying so, until you choose the other option or change the trigger',
						},
						{
							name: 'Start Again From Now',
							value: 'restart',
							description:
								'Go on from the document as it is now; the changes in between are not emitted',
						},
					],
					default: 'error',
					displayOptions: { show: { '/event': ['rowDeleted', 'rowUpdated', 'anyChange'] } },
					description:
						'What to do when Grist no longer has the history since the last poll (it keeps about the last 1,000 actions of the document; a replaced or restored document has another history)',
				},
				{
					displayName: 'Max Records per Poll',
					name: 'maxRecords',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_MAX_RECORDS,
					displayOptions: { show: { '/event': ['rowAdded', 'rowAddedOrUpdated'] } },
					description:
						'Most records one poll emits; a larger backlog is emitted over the next polls, in order',
				},
				referenceDisplayOption,
				watchedColumnsField({
					method: 'getWatchColumns',
					updates: 'trigger',
					displayOptions: { show: { '/event': ['rowUpdated', 'anyChange'] } },
				}),
				...retiredOptions(GRIST_TRIGGER_RETIRED, 'options'),
			]),
		],
	};

	methods = {
		listSearch,
		loadOptions: { getTimestampColumns, getCreationColumns, getWatchColumns },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// also at activation: n8n runs a poll when the workflow is published
		checkSavedParameters(this, new GristTrigger().description, GRIST_TRIGGER_RETIRED);
		if (this.getMode() === 'manual') return await pollOnce(this, true);
		return await pollAlone(this, async () => await pollOnce(this, false));
	}
}

/**
 * One poll: in the editor ("Fetch test event") the event's sample; in an active workflow the
 * items since the cursor, its requests bounded by the poll's time budget.
 */
async function pollOnce(
	fn: IPollFunctions,
	manual: boolean,
): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(fn);
	const budgetMs = manual
		? n8nPollBudgetMs(fn)
		: pollBudgetMs(settings.pollTimes, n8nPollBudgetMs(fn));
	const client = await GristClient.create(
		fn,
		manual ? DEFAULT_RETRY : { ...DEFAULT_RETRY, budgetMs },
	);
	const ctx = { fn, client, settings, budgetMs } as PollContext;
	ctx.fetch = recordsFetcher(ctx);
	const event = pollEventFor(settings.event);
	try {
		if (manual) return [await event.sample(ctx)];
		return await runPoll(ctx, event);
	} catch (error) {
		throw await explainFailure(ctx, error);
	}
}
