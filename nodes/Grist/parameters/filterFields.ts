/**
 * The Filter of every place that picks rows — Record → Get Many, Columnar → Get Many, the Grist
 * Trigger, the Grist Instant Trigger and Webhook → Create / Update — defined once: Filter
 * (`filterType`: None, Conditions, Formula, JSON, as far as the place has them), the Conditions
 * (`conditions.conditions`: Column, Match, Value(s), To, Ignore Case), Combine, the formula
 * (`filterFormula`) and the JSON filter (`filterJson`). A place says what it can run (its
 * matches, Combine, Ignore Case, Formula, JSON); a match it cannot run is left out of its list.
 */
import type {
	IDisplayOptions,
	IHookFunctions,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';

import type { Condition } from '../query/conditionSql';
import { entryList } from './commonFields';
import { nodeParameter } from './read';

/** Every match of a condition, in the order the Match list shows them. */
const MATCH_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Is One Of',
		value: 'anyOf',
		description: 'Equal to one of the values (a list: has one of them)',
	},
	{
		name: 'Is None Of',
		value: 'noneOf',
		description: 'Equal to none of the values (empty cells included)',
	},
	{ name: 'Equals', value: 'equals' },
	{ name: 'Not Equals', value: 'notEquals', description: 'Empty cells included' },
	{ name: 'Greater Than', value: 'gt' },
	{ name: 'Greater Than or Equal', value: 'gte' },
	{ name: 'Less Than', value: 'lt' },
	{ name: 'Less Than or Equal', value: 'lte' },
	{ name: 'Between', value: 'between', description: 'Between From and To, both included' },
	{
		name: 'Contains',
		value: 'contains',
		description: 'Text containing the value; a list: has the value',
	},
	{ name: 'Does Not Contain', value: 'notContains' },
	{ name: 'Starts With', value: 'startsWith' },
	{ name: 'Ends With', value: 'endsWith' },
	{
		name: 'Is Empty',
		value: 'isEmpty',
		description:
			'Cells with no value: empty text, no number (0 is a number), no date, no reference, no list',
	},
	{ name: 'Is Not Empty', value: 'isNotEmpty' },
];

/** Every match value, in the Match list's order. */
export const ALL_MATCHES = MATCH_OPTIONS.map((o) => String(o.value));

/** Grist's record filter: a cell is one of the values, or empty (Columnar → Get Many). */
export const EQUALITY_MATCHES = ['anyOf', 'isEmpty'];

/** What Grist's webhook column filters express: included / excluded values, min / max bounds. */
export const WEBHOOK_MATCHES = [
	'anyOf',
	'noneOf',
	'equals',
	'notEquals',
	'gte',
	'lte',
	'between',
	'isEmpty',
	'isNotEmpty',
];

const SEVERAL_VALUES = ['anyOf', 'noneOf'];
const NO_VALUE = ['isEmpty', 'isNotEmpty'];
const IGNORE_CASE_MATCHES = [
	'equals',
	'notEquals',
	'anyOf',
	'noneOf',
	'contains',
	'notContains',
	'startsWith',
	'endsWith',
];

/** How values are converted; `byName`: a place that also takes a reference by its shown value. */
const converted = (byName: boolean | undefined) =>
	`Converted to the column type: numbers, dates as 2024-01-31 or an n8n date, true/false, references as row IDs${byName ? ' or the value the row shows (e.g. a name)' : ''}. A Choice column: one of its choices, as written in Grist.`;

/** What a place can run, and how its fields are shown. */
export interface FilterPlace {
	/** The matches the place can run (a subset of ALL_MATCHES). */
	matches: string[];
	/** Combine (AND / OR). */
	combine?: boolean;
	ignoreCase?: boolean;
	/** Formula (Grist's formula condition of a webhook). */
	formula?: boolean;
	/** JSON (Grist's filter object). */
	json?: boolean;
	/** References may be given by the value their row shows (Record → Get Many). */
	referencesByName?: boolean;
	/** Keep as Is first and the default (Webhook → Update). */
	keep?: boolean;
	/** The load-options method listing the table's columns; none: a Column ID text field. */
	columnsMethod?: string;
	/** What Filter says about the place (where it matters). */
	filterDescription?: string;
	/** What the Conditions list says: how its conditions run here. */
	conditionsDescription: string;
	/** What Filter → None says. */
	noneDescription?: string;
	/** Shown only when these hold too (e.g. the trigger's events that have a Filter). */
	show?: IDisplayOptions['show'];
}

/** `show` of a top-level field of the place, with the place's own conditions. */
function shownWhen(place: FilterPlace, show: IDisplayOptions['show'] = {}): IDisplayOptions {
	return { show: { ...(place.show ?? {}), ...show } };
}

/** Filter (`filterType`). */
function filterTypeField(place: FilterPlace): INodeProperties {
	const options: INodePropertyOptions[] = [];
	if (place.keep)
		options.push({ name: 'Keep as Is', value: 'keep', description: 'The filter is not changed' });
	options.push({ name: 'None', value: 'none', description: place.noneDescription ?? 'Every row' });
	options.push({
		name: 'Conditions',
		value: 'conditions',
		description: 'Pick columns and the values to match, typed by the column',
	});
	if (place.formula)
		options.push({
			name: 'Formula',
			value: 'formula',
			description: 'Rows for which a Grist formula is true (advanced)',
		});
	if (place.json)
		options.push({
			name: 'JSON',
			value: 'json',
			description: 'Grist\'s filter object, e.g. {"Status": ["Open"]}',
		});
	const field: INodeProperties = {
		displayName: 'Filter',
		name: 'filterType',
		type: 'options',
		noDataExpression: true,
		options,
		default: 'none',
		...(place.filterDescription ? { description: place.filterDescription } : {}),
		...(place.show ? { displayOptions: shownWhen(place) } : {}),
	};
	return place.keep ? { ...field, default: 'keep' } : field;
}

/** The Column of a condition: a picker when the place lists columns, else a column ID. */
function columnField(place: FilterPlace): INodeProperties {
	return place.columnsMethod
		? {
				displayName: 'Column Name or ID',
				name: 'column',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: place.columnsMethod,
					loadOptionsDependsOn: ['document.value', 'table.value'],
				},
				default: '',
				description:
					'The column to filter on. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
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

/** Of `list`, the matches the place runs. */
const only = (place: FilterPlace, list: string[]): string[] =>
	list.filter((m) => place.matches.includes(m));

/**
 * One condition's fields. The value is one parameter, `values`, labelled by the match: "Values"
 * (Is One Of, Is None Of), "From" (Between), "Value" (the others); To (`value2`) is Between's upper
 * bound.
 */
function conditionValues(place: FilterPlace): INodeProperties[] {
	const value: INodeProperties = {
		displayName: 'Values',
		name: 'values',
		type: 'string',
		default: '',
	};
	const CONVERTED = converted(place.referencesByName);
	const single = place.matches.filter(
		(m) => !SEVERAL_VALUES.includes(m) && !NO_VALUE.includes(m) && m !== 'between',
	);
	const fields: INodeProperties[] = [
		columnField(place),
		{
			displayName: 'Match',
			name: 'match',
			type: 'options',
			options: MATCH_OPTIONS.filter((o) => place.matches.includes(String(o.value))),
			default: 'anyOf',
		},
	];
	if (only(place, SEVERAL_VALUES).length > 0)
		fields.push({
			...value,
			placeholder: 'e.g. Open, Done',
			description: `One or more values, separated by commas (or a JSON array for values that contain commas). ${CONVERTED} Left empty, the condition matches only empty cells, not every row: remove the condition to match every row.`,
			displayOptions: { show: { match: only(place, SEVERAL_VALUES) } },
		});
	if (place.matches.includes('between'))
		fields.push(
			{
				...value,
				displayName: 'From',
				placeholder: 'e.g. 2024-01-01',
				description: `The lower bound of Between (included). ${CONVERTED}`,
				displayOptions: { show: { match: ['between'] } },
			},
			{
				displayName: 'To',
				name: 'value2',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2024-12-31',
				description: 'The upper bound of Between (included)',
				displayOptions: { show: { match: ['between'] } },
			},
		);
	if (single.length > 0)
		fields.push({
			...value,
			displayName: 'Value',
			placeholder: 'e.g. 10',
			description: `The value to compare with. ${CONVERTED}`,
			displayOptions: { show: { match: single } },
		});
	if (place.ignoreCase)
		fields.push({
			displayName: 'Ignore Case',
			name: 'ignoreCase',
			type: 'boolean',
			default: false,
			description: 'Whether upper and lower case letters match each other (A–Z only)',
			displayOptions: { show: { match: only(place, IGNORE_CASE_MATCHES) } },
		});
	return fields;
}

/** Conditions (`conditions.conditions`). */
function conditionsField(place: FilterPlace): INodeProperties {
	return entryList(
		{ displayName: 'Conditions', name: 'conditions', placeholder: 'Add Condition' },
		{ displayName: 'Condition', name: 'conditions', values: conditionValues(place) },
		{
			description: place.conditionsDescription,
			displayOptions: shownWhen(place, { filterType: ['conditions'] }),
		},
	);
}

function combineField(place: FilterPlace): INodeProperties {
	return {
		displayName: 'Combine',
		name: 'combine',
		type: 'options',
		options: [
			{ name: 'All Conditions (AND)', value: 'and' },
			{ name: 'Any Condition (OR)', value: 'or' },
		],
		default: 'and',
		displayOptions: shownWhen(place, { filterType: ['conditions'] }),
	};
}

function formulaField(place: FilterPlace): INodeProperties {
	return {
		displayName: 'Formula',
		name: 'filterFormula',
		type: 'string',
		default: '',
		placeholder: 'e.g. $Status == "Approved" and $Amount > 1000',
		description:
			'A Grist condition on the row: $Column (or rec.Column), constants, comparisons, in, and / or / not, .lower() and .upper(). Column IDs are checked against the table.',
		displayOptions: shownWhen(place, { filterType: ['formula'] }),
	};
}

function jsonField(place: FilterPlace): INodeProperties {
	return {
		displayName: 'Filter (JSON)',
		name: 'filterJson',
		type: 'json',
		default: '{}',
		description:
			'Column IDs and arrays of stored values to match, e.g. {"Status": ["Open", "Done"], "Owner": [3]}',
		displayOptions: shownWhen(place, { filterType: ['json'] }),
	};
}

/** The Filter fields of a place, in the order the panel shows them. */
export function filterProperties(place: FilterPlace): INodeProperties[] {
	const fields = [filterTypeField(place), conditionsField(place)];
	if (place.combine) fields.push(combineField(place));
	if (place.formula) fields.push(formulaField(place));
	if (place.json) fields.push(jsonField(place));
	return fields;
}

/** A trigger's Filter as set: its type, the conditions and Combine, the JSON filter. */
export interface FilterInput {
	type: string;
	conditions: Condition[];
	combine: string;
	json: unknown;
}

/** The Filter fields of a trigger (one value for every poll or registration). */
export function readTriggerFilter(ctx: IPollFunctions | IHookFunctions): FilterInput {
	const conditions = nodeParameter(ctx, 'conditions.conditions', []) as Condition[] | undefined;
	return {
		type: String(nodeParameter(ctx, 'filterType', 'none')),
		conditions: conditions ?? [],
		combine: String(nodeParameter(ctx, 'combine', 'and')),
		json: nodeParameter(ctx, 'filterJson', '{}' as unknown),
	};
}
