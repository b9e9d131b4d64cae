import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialOptions } from '../Grist/parameters/authentication';
import { listSearch } from '../Grist/methods';
import { GristClient } from '../Grist/api/client';
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
import { DEFAULT_MAX_RECORDS, readSettings } from './triggerSettings';

/**
 * Polls a Grist table for new, new and updated, or (from the document's history) updated and
 * deleted records. Each event is a module of ./events/ with its own cursor; ./pollRun.ts keeps
 * the cursor in the workflow's static data and skips polls while the document is unchanged. A
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
			'={{ (/^=/.test(String($rawParameter["table"] || "")) ? "" : String($rawParameter["table"] || "")) || {"rowAddedOrUpdated": "Row added or updated", "rowDeleted": "Row deleted", "rowUpdated": "Row updated", "anyChange": "Any change"}[$parameter["event"]] || "Row added" }}',
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
			...triggerSourceFields,
			triggerOnField(
				[
					{
						name: 'Any Change',
						value: 'anyChange',
						action: 'On row added, updated or deleted (polling)',
						description:
							"Checks the document's change history on a schedule for added, updated and deleted records, each saying which; works anywhere",
					},
					{
						name: 'Row Added',
						value: 'rowAdded',
						action: 'On row added (polling)',
						description:
							'Checks the table on a schedule (Poll Times) for new records; works anywhere',
					},
					{
						name: 'Row Added or Updated',
						value: 'rowAddedOrUpdated',
						action: 'On row added or updated (polling)',
						description:
							'Checks the table on a schedule (Poll Times) for added or changed records (needs a timestamp column); works anywhere',
					},
					{
						name: 'Row Deleted',
						value: 'rowDeleted',
						action: 'On row deleted (polling)',
						description:
							"Checks the document's change history on a schedule for deleted records, with their last values; works anywhere",
					},
					{
						name: 'Row Updated',
						value: 'rowUpdated',
						action: 'On row updated (polling)',
						description:
							"Checks the document's change history on a schedule for changed records, with their previous values; works anywhere",
					},
				],
				'rowAdded',
			),
			{
				displayName:
					'Row Added or Updated needs a column that Grist updates on every change of a record. Set it up once in Grist: a DateTime column, "Set trigger formula" NOW(), "Apply on changes to: Any field". Columns without one are listed last, "not updated automatically".',
				name: 'timestampNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { event: ['rowAddedOrUpdated'] } },
			},
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
				description:
					'A Date, DateTime or Numeric column that changes whenever the record changes: a trigger formula NOW() on any change (listed first). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			triggerSimplifyField(
				"Whether to return flat records (the row ID next to the fields) with dates as ISO text, instead of Grist's raw form with the fields nested",
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
					displayName: 'Filter (JSON)',
					name: 'filter',
					type: 'json',
					default: '',
					displayOptions: { show: { '/event': ['rowAdded', 'rowAddedOrUpdated'] } },
					placeholder: '{"Status": ["Open", "Done"]}',
					description:
						'Only records matching this Grist filter trigger: keys are column IDs, values arrays of stored values (ORed); keys are ANDed',
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
			]),
		],
	};

	methods = {
		listSearch,
		loadOptions: { getTimestampColumns, getCreationColumns, getWatchColumns },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		const client = await GristClient.create(this);
		const fetch = recordsFetcher(client, { docId: settings.docId, tableId: settings.tableId });
		const ctx: PollContext = { fn: this, client, settings, fetch };
		const event = pollEventFor(settings.event);
		try {
			if (this.getMode() === 'manual') return [await event.sample(ctx)];
			return await runPoll(ctx, event);
		} catch (error) {
			throw await explainFailure(ctx, error);
		}
	}
}
