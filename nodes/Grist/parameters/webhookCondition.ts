/**
 * The condition fields of a Grist webhook, shared by the Grist Instant Trigger and Webhook →
 * Create / Update: Filter (None, Conditions, Formula: ./filterFields.ts, with the matches Grist's
 * column filters can express) and When (while matching, starts / stops matching, changes while
 * matching). Their values are read here.
 */
import type { IExecuteFunctions, IHookFunctions, INodeProperties } from 'n8n-workflow';

import type { ConditionInput, WebhookFilter } from '../webhooks/webhookConditions';
import { itemParameter, itemParameterValue, nodeParameter } from './read';
import { WEBHOOK_MATCHES, filterProperties } from './filterFields';

/** When: shown for a filter or formula condition (`matching`: the condition types that have one). */
function notifyWhenField(matching: string[]): INodeProperties {
	return {
		displayName: 'When',
		name: 'notifyWhen',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Row Changes While Matching',
				value: 'updated',
				description: 'An existing row that matched before and still matches is changed',
			},
			{
				name: 'Row Starts Matching',
				value: 'enters',
				description:
					'A row is added matching, or a change makes it match (e.g. Status becomes Approved)',
			},
			{
				name: 'Row Stops Matching',
				value: 'leaves',
				description:
					'A change makes a row no longer match (not deletions; the row is sent with its new values)',
			},
			{
				name: 'Trigger On Events While Matching',
				value: 'matching',
				description: "Trigger On's events (added, updated), for rows that match after the change",
			},
		],
		default: 'matching',
		description:
			"When a row is sent. Starts, Stops and Changes While Matching listen to both additions and updates, whatever Trigger On says, and watch the condition's columns.",
		displayOptions: { show: { filterType: matching } },
	};
}

/**
 * The condition fields. `keep`: Webhook → Update, where the default leaves the condition as it is;
 * `columnsMethod`: the load-options method listing the table's columns (none: a column ID field,
 * for Update, which has no Table field).
 */
export function conditionProperties(opts: {
	columnsMethod?: string;
	keep?: boolean;
}): INodeProperties[] {
	return [
		...filterProperties({
			matches: WEBHOOK_MATCHES,
			formula: true,
			keep: opts.keep,
			columnsMethod: opts.columnsMethod,
			noneDescription: opts.keep ? 'Remove the filter: every row is sent' : 'Every row',
			filterDescription:
				'Grist sends only rows that match (it checks the filter itself, on added and updated rows; never on deleted ones)',
			conditionsDescription:
				'Rows must match every condition. Grist checks them itself: ranges (Greater Than or Equal, Less Than or Equal, Between) only on number and date columns, dates as whole days.',
		}),
		notifyWhenField(['conditions', 'formula']),
	];
}

function input(get: (name: string, fallback: unknown) => unknown, type: string): ConditionInput {
	const filters = get('conditions.conditions', []) as WebhookFilter[] | undefined;
	return {
		type: String(get('filterType', type)),
		filters: filters ?? [],
		formula: String(get('filterFormula', '') ?? ''),
		notifyWhen: String(get('notifyWhen', 'matching')),
	};
}

/** The condition fields of a trigger. */
export function triggerCondition(ctx: IHookFunctions): ConditionInput {
	return input((name, fallback) => nodeParameter(ctx, name, fallback), 'none');
}

/** The condition fields of item `itemIndex` (Webhook → Create / Update, whose default is `keep`). */
export function itemCondition(
	this: IExecuteFunctions,
	itemIndex: number,
	type: 'none' | 'keep' = 'none',
): ConditionInput {
	return input(
		(name, fallback) =>
			typeof fallback === 'string'
				? itemParameter.call(this, name, itemIndex, fallback)
				: itemParameterValue.call(this, name, itemIndex, fallback),
		type,
	);
}
