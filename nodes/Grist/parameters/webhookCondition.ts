/**
 * The condition fields of a Grist webhook, shared by the Grist Instant Trigger and Webhook →
 * Create / Update: Only Rows Matching (None, Column Filters, Formula), the filters (a column, a
 * match Grist's column filters can express, values) or the formula, and When (while matching,
 * starts / stops matching, changes while matching). Their values are read here.
 */
import type { IExecuteFunctions, IHookFunctions, INodeProperties } from 'n8n-workflow';

import type { ConditionInput, WebhookFilter } from '../webhooks/webhookConditions';
import { itemParameter, itemParameterValue, nodeParameter } from './read';
import { betweenToField } from './readQueryFields';
import { entryList } from './commonFields';

const MATCHES = [
	{
		name: 'Is One Of',
		value: 'anyOf',
		description: 'Equal to one of the values (a list: has one)',
	},
	{ name: 'Is None Of', value: 'noneOf', description: 'Equal to none of the values' },
	{ name: 'Equals', value: 'equals' },
	{ name: 'Not Equals', value: 'notEquals' },
	{ name: 'Greater Than or Equal', value: 'gte', description: 'Numbers and dates' },
	{ name: 'Less Than or Equal', value: 'lte', description: 'Numbers and dates' },
	{
		name: 'Between',
		value: 'between',
		description: 'Numbers and dates, from Value to To, both included (dates: whole days)',
	},
	{
		name: 'Is Empty',
		value: 'isEmpty',
		description: 'No value: empty text, no number, no date, no reference, an empty list',
	},
	{ name: 'Is Not Empty', value: 'isNotEmpty' },
];

/** The column of a condition: a picker when `columnsMethod` lists the columns, else an ID field. */
function conditionColumnField(columnsMethod: string | undefined): INodeProperties {
	return columnsMethod
		? {
				displayName: 'Column Name or ID',
				name: 'column',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: columnsMethod,
					loadOptionsDependsOn: ['document.value', 'table.value'],
				},
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
			}
		: {
				displayName: 'Column ID',
				name: 'column',
				type: 'string',
				default: '',
				placeholder: 'e.g. Status',
				description: "A column of the webhook's table",
			};
}

/** Only Rows Matching; with `keep` (Webhook → Update), Keep as Is comes first and is the default. */
function conditionTypeField(keep: boolean | undefined): INodeProperties {
	const typeField: INodeProperties = {
		displayName: 'Only Rows Matching',
		name: 'conditionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'None',
				value: 'none',
				description: keep ? 'Remove the condition: every row is sent' : 'Every row',
			},
			{
				name: 'Column Filters',
				value: 'filters',
				description: 'Rows whose cells match every condition',
			},
			{
				name: 'Formula',
				value: 'formula',
				description: 'Rows for which a Grist formula is true (advanced)',
			},
		],
		default: 'none',
		description:
			'Grist sends only rows that match (it checks the condition itself, on added and updated rows; never on deleted ones)',
	};
	const keepOption = {
		name: 'Keep as Is',
		value: 'keep',
		description: 'The condition is not changed',
	};
	return keep
		? { ...typeField, options: [keepOption, ...(typeField.options ?? [])], default: 'keep' }
		: typeField;
}

/** Conditions (Column Filters): a column, a match and its values, per condition. */
function conditionFiltersField(column: INodeProperties): INodeProperties {
	return entryList(
		{ displayName: 'Conditions', name: 'conditionFilters', placeholder: 'Add Condition' },
		{
			displayName: 'Condition',
			name: 'conditions',
			values: [
				column,
				{
					displayName: 'Match',
					name: 'match',
					type: 'options',
					options: MATCHES,
					default: 'anyOf',
				},
				{
					displayName: 'Value',
					name: 'values',
					type: 'string',
					default: '',
					placeholder: 'e.g. Approved',
					description:
						'For Is One Of / Is None Of: several, separated by commas (or a JSON array). Converted to the column type: numbers, dates as 2024-01-31, true/false, references as row IDs.',
					displayOptions: { hide: { match: ['isEmpty', 'isNotEmpty'] } },
				},
				betweenToField,
			],
		},
		{
			description: 'Rows must match every condition',
			displayOptions: { show: { conditionType: ['filters'] } },
		},
	);
}

function conditionFormulaField(): INodeProperties {
	return {
		displayName: 'Formula',
		name: 'conditionFormula',
		type: 'string',
		default: '',
		placeholder: 'e.g. $Status == "Approved" and $Amount > 1000',
		description:
			'A Grist condition on the row: $Column (or rec.Column), constants, comparisons, in, and / or / not, .lower() and .upper(). Column IDs are checked against the table.',
		displayOptions: { show: { conditionType: ['formula'] } },
	};
}

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
		displayOptions: { show: { conditionType: matching } },
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
		conditionTypeField(opts.keep),
		conditionFiltersField(conditionColumnField(opts.columnsMethod)),
		conditionFormulaField(),
		notifyWhenField(['filters', 'formula']),
	];
}

function input(get: (name: string, fallback: unknown) => unknown, type: string): ConditionInput {
	const filters = get('conditionFilters.conditions', []) as WebhookFilter[] | undefined;
	return {
		type: String(get('conditionType', type)),
		filters: filters ?? [],
		formula: String(get('conditionFormula', '') ?? ''),
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
