/**
 * The fields of the read query of Record → Get Many and Columnar → Get Many: Return All / Limit,
 * Filter (none, built from conditions, or JSON) and Sort. The record read's conditions add
 * comparisons, text matches, Combine (AND / OR) and Ignore Case, which run through /sql
 * (query/recordConditions.ts); the columnar read keeps Grist's equality filter. readQuery.ts
 * reads them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { limitFields } from './limit';
import { entryList } from './commonFields';

const filterTypeField: INodeProperties = {
	displayName: 'Filter',
	name: 'filterType',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'None', value: 'none' },
		{
			name: 'Build',
			value: 'builder',
			description: 'Pick columns and the values to match, typed by the column',
		},
		{
			name: 'JSON',
			value: 'json',
			description: 'Grist\'s filter object, e.g. {"Status": ["Open"]}',
		},
	],
	default: 'none',
};

/** Filter → Build: the Conditions (`filters.conditions`), one condition made of `values`. */
function conditionsField(description: string, values: INodeProperties[]): INodeProperties {
	return entryList(
		{ displayName: 'Conditions', name: 'filters', placeholder: 'Add Condition' },
		{ displayName: 'Condition', name: 'conditions', values },
		{ description, displayOptions: { show: { filterType: ['builder'] } } },
	);
}

const conditionColumn: INodeProperties = {
	displayName: 'Column Name or ID',
	name: 'column',
	type: 'options',
	typeOptions: {
		loadOptionsMethod: 'getColumns',
		loadOptionsDependsOn: ['document.value', 'table.value'],
	},
	default: '',
	description:
		'The column to filter on. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Grist's record filter: a cell is one of the values, or empty. */
const equalityMatch: INodeProperties = {
	displayName: 'Match',
	name: 'match',
	type: 'options',
	options: [
		{
			name: 'Is Empty',
			value: 'isEmpty',
			description:
				'Cells with no value: empty text, no number (0 is a number), no date, no reference, no list',
		},
		{
			name: 'Is One Of',
			value: 'anyOf',
			description: 'Cells equal to one of the values',
		},
	],
	default: 'anyOf',
};

const equalityValues: INodeProperties = {
	displayName: 'Values',
	name: 'values',
	type: 'string',
	default: '',
	placeholder: 'e.g. Open, Done',
	description:
		'One or more values, separated by commas (or a JSON array for values that contain commas). Values are converted to the column type: dates as 2024-01-31, references as row IDs. Left empty, the condition matches only empty cells, not every row: remove the condition to match every row.',
	displayOptions: { show: { match: ['anyOf'] } },
};

const filterJsonField: INodeProperties = {
	displayName: 'Filter (JSON)',
	name: 'filterJson',
	type: 'json',
	default: '{}',
	description:
		'Column IDs and arrays of stored values to match, e.g. {"Status": ["Open", "Done"], "Owner": [3]}',
	displayOptions: { show: { filterType: ['json'] } },
};

/** Sort, its Natural Sort saying what it says (Record → Get Many: when it works). */
function sortFieldWith(naturalSortDescription: string): INodeProperties {
	return entryList(
		{ displayName: 'Sort', name: 'sort', placeholder: 'Add Sort Rule' },
		{
			displayName: 'Rule',
			name: 'rules',
			values: [
				{
					...conditionColumn,
					description:
						'The column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Direction',
					name: 'direction',
					type: 'options',
					options: [
						{
							name: 'Ascending',
							value: 'asc',
						},
						{
							name: 'Descending',
							value: 'desc',
						},
					],
					default: 'asc',
				},
				{
					displayName: 'Empty Last',
					name: 'emptyLast',
					type: 'boolean',
					default: false,
					description: 'Whether to put empty values last (Grist puts them first by default)',
				},
				{
					displayName: 'Natural Sort',
					name: 'naturalSort',
					type: 'boolean',
					default: false,
					description: naturalSortDescription,
				},
				{
					displayName: 'Order By Choice',
					name: 'orderByChoice',
					type: 'boolean',
					default: false,
					description:
						'Whether to sort a Choice column in the order of its choices instead of alphabetically',
				},
			],
		},
	);
}

const NATURAL_SORT = 'Whether to sort numbers inside text naturally (item 2 before item 10)';
const sortField = sortFieldWith(NATURAL_SORT);

/** Return All / Limit, Filter (Grist's equality filter, or JSON) and Sort: Columnar → Get Many. */
export const readFields: INodeProperties[] = [
	...limitFields,
	filterTypeField,
	conditionsField('Rows must match every condition; a condition matches any of its values', [
		conditionColumn,
		equalityMatch,
		equalityValues,
	]),
	filterJsonField,
	sortField,
];

const MATCH_OPTIONS = [
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

/** Matches that take several values, and Between, whose first value is its lower bound. */
const SEVERAL_VALUES = ['anyOf', 'noneOf'];
const NO_VALUE = ['isEmpty', 'isNotEmpty'];

const CONVERTED =
	'Converted to the column type: numbers, dates as 2024-01-31 or an n8n date, true/false, references as row IDs or the value the row shows (e.g. a name), a choice of a Choice List.';

/** To: the upper bound of Between (record reads and webhook conditions). */
export const betweenToField: INodeProperties = {
	displayName: 'To',
	name: 'value2',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2024-12-31',
	description: 'The upper bound of Between (included)',
	displayOptions: { show: { match: ['between'] } },
};

/**
 * One condition of Record → Get Many: a column, a match of MATCH_OPTIONS, its value(s). The value
 * is one parameter, `values`, labelled by the match: "Values" (Is One Of, Is None Of), "From"
 * (Between), "Value" (the others).
 */
const recordConditionValues: INodeProperties[] = [
	conditionColumn,
	{ ...equalityMatch, options: MATCH_OPTIONS },
	{
		...equalityValues,
		description: `The values to compare with: several, separated by commas, or a JSON array. ${CONVERTED} Left empty, the condition matches only empty cells, not every row: remove the condition to match every row.`,
		displayOptions: { show: { match: SEVERAL_VALUES } },
	},
	{
		...equalityValues,
		displayName: 'From',
		placeholder: 'e.g. 2024-01-01',
		description: `The lower bound of Between (included). ${CONVERTED}`,
		displayOptions: { show: { match: ['between'] } },
	},
	{
		...equalityValues,
		displayName: 'Value',
		placeholder: 'e.g. 10',
		description: `The value to compare with. ${CONVERTED}`,
		displayOptions: { hide: { match: [...SEVERAL_VALUES, ...NO_VALUE, 'between'] } },
	},
	betweenToField,
	{
		displayName: 'Ignore Case',
		name: 'ignoreCase',
		type: 'boolean',
		default: false,
		description: 'Whether upper and lower case letters match each other (A–Z only)',
		displayOptions: {
			show: {
				match: [
					'equals',
					'notEquals',
					'anyOf',
					'noneOf',
					'contains',
					'notContains',
					'startsWith',
					'endsWith',
				],
			},
		},
	},
];

const combineField: INodeProperties = {
	displayName: 'Combine',
	name: 'combine',
	type: 'options',
	options: [
		{ name: 'All Conditions (AND)', value: 'and' },
		{ name: 'Any Condition (OR)', value: 'or' },
	],
	default: 'and',
	displayOptions: { show: { filterType: ['builder'] } },
};

/**
 * Return All / Limit, Filter and Sort of Record → Get Many: Grist's equality filter plus the
 * conditions run through /sql, combined with AND or OR.
 */
export const recordReadFields: INodeProperties[] = [
	...limitFields,
	filterTypeField,
	conditionsField(
		"Rows must match the conditions (all of them, or any, per Combine). Is One Of and Is Empty combined with AND use Grist's record filter; other conditions run as a read-only SQL query (needs an API key with read access to the whole document).",
		recordConditionValues,
	),
	combineField,
	filterJsonField,
	// conditions that run as SQL cannot sort naturally (SQLite has no such order): said here, where
	// it is switched on, rather than only when the run refuses it
	sortFieldWith(
		`${NATURAL_SORT}. Only with no conditions, or with Is One Of / Is Empty conditions combined with AND: other conditions run as SQL, which cannot sort naturally, and the run stops.`,
	),
];
