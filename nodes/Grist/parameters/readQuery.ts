/**
 * The read query of Record → Get Many and Columnar → Get Many: Return All / Limit, Filter (none,
 * built from conditions, or JSON), Sort, Include Hidden Columns; their fields and readers. The
 * record read's conditions add comparisons, text matches, Combine (AND / OR) and Ignore Case,
 * which run through /sql (query/recordConditions.ts); the columnar read keeps Grist's equality filter.
 * What Record → Get shares with Record → Get Many: Simplify and the Options (Include Hidden
 * Columns, Add Reference Display Values).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../errors/nodeErrors';
import { InputError, attempt } from '../errors/gristAnswers';
import { columnTypes, type GristColumn } from '../cells/tableColumns';
import type { Condition } from '../query/conditionSql';
import {
	buildFilter,
	buildSort,
	parseJsonFilter,
	type FilterCondition,
	type SortRule,
} from '../query/filters';
import type { ColumnCache, Target } from '../transport/api';
import { limitFields, readLimit } from './limit';
import { itemParameter, itemParameterValue } from './read';
import { referenceDisplayOption } from './referenceDisplay';

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
	return {
		displayName: 'Conditions',
		name: 'filters',
		type: 'fixedCollection',
		placeholder: 'Add Condition',
		typeOptions: { multipleValues: true },
		default: {},
		description,
		displayOptions: { show: { filterType: ['builder'] } },
		options: [{ displayName: 'Condition', name: 'conditions', values }],
	};
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
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		placeholder: 'Add Sort Rule',
		typeOptions: { multipleValues: true },
		default: {},
		options: [
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
		],
	};
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
	'Converted to the column type: numbers, dates as 2024-01-31 or an n8n date, true/false, references as row IDs, a choice of a Choice List.';

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
	{
		displayName: 'To',
		name: 'value2',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2024-12-31',
		description: 'The upper bound of Between (included)',
		displayOptions: { show: { match: ['between'] } },
	},
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

/** Options with "Include Hidden Columns" (Grist's `hidden=1`), for the reads of records and columns. */
export const hiddenColumnsOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Include Hidden Columns',
			name: 'includeHidden',
			type: 'boolean',
			default: false,
			description: "Whether to also return Grist's helper columns (manualSort, gristHelper_*)",
		},
	],
};

/** Simplify of Record → Get Many and Record → Get: one row reads the same from both. */
export const recordSimplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		"Whether to return flat records (the row ID next to the fields) with dates as ISO text and lists as arrays, instead of Grist's raw form with the fields nested",
};

/** The Options of Record → Get Many and Record → Get: Include Hidden Columns, Add Reference Display Values. */
export const recordReadOptions: INodeProperties = {
	...hiddenColumnsOptions,
	options: [...hiddenColumnsOptions.options!, referenceDisplayOption],
};

// ---------------------------------------------------------------------------------------------
// Reading

/** Simplify of item `itemIndex` (Record → Get Many and Get). */
export function readSimplify(this: IExecuteFunctions, itemIndex: number): boolean {
	return itemParameter.call(this, 'simplify', itemIndex, true) as boolean;
}

/** Options → Include Hidden Columns of item `itemIndex`. */
export function readIncludeHidden(this: IExecuteFunctions, itemIndex: number): boolean {
	return itemParameter.call(this, 'options.includeHidden', itemIndex, false) as boolean;
}

/** The Sort rules of item `itemIndex` (shared by every item: not to be modified). */
export function readSortRules(this: IExecuteFunctions, itemIndex: number): SortRule[] {
	const none: SortRule[] = [];
	return (itemParameterValue.call(this, 'sort.rules', itemIndex, none) as SortRule[]) ?? [];
}

function readFilterType(this: IExecuteFunctions, itemIndex: number): string {
	return itemParameter.call(this, 'filterType', itemIndex, 'none') as string;
}

/** The Conditions of item `itemIndex` (none unless Filter is Build), as given. */
function readConditionList(this: IExecuteFunctions, itemIndex: number): unknown[] {
	if (readFilterType.call(this, itemIndex) !== 'builder') return [];
	const none: unknown[] = [];
	return (itemParameterValue.call(this, 'filters.conditions', itemIndex, none) as unknown[]) ?? [];
}

/** Record → Get Many: the Conditions of item `itemIndex` (none unless Filter is Build) and Combine. */
export function readConditions(
	this: IExecuteFunctions,
	itemIndex: number,
): { conditions: Condition[]; combine: string } {
	const conditions = readConditionList.call(this, itemIndex) as Condition[];
	return { conditions, combine: itemParameter.call(this, 'combine', itemIndex, 'and') as string };
}

/** A filter or sort error as n8n's error naming the item (and the field, in the hint). */
function filterError(this: IExecuteFunctions, error: Error, itemIndex: number): Error {
	const input = error instanceof InputError ? error : new InputError(error.message);
	return toNodeError(this.getNode(), input, {
		itemIndex,
		where: 'item',
		hint: `Fix the ${input.field ?? 'Filter'} field.`,
	});
}

/**
 * Builds `filter`, `sort` and `limit` for item `itemIndex`. `columns` is needed for the filter builder
 * (value types) and to catch sorts on unknown columns before the request (Grist answers 500).
 */
function buildReadQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	columns: GristColumn[] | undefined,
): IDataObject {
	const qs: IDataObject = {};
	const limit = readLimit.call(this, itemIndex);
	if (limit > 0) qs.limit = limit;

	const filterType = readFilterType.call(this, itemIndex);
	const filter = attempt(() => {
		if (filterType === 'builder') {
			const conditions = readConditionList.call(this, itemIndex) as FilterCondition[];
			return buildFilter(conditions, columns ? columnTypes(columns) : {});
		}
		if (filterType === 'json')
			return parseJsonFilter(
				itemParameterValue.call(this, 'filterJson', itemIndex, '{}' as unknown),
				'Filter (JSON)',
			);
		return {};
	});
	if (filter.error) throw filterError.call(this, filter.error, itemIndex);
	if (Object.keys(filter.value).length > 0) qs.filter = JSON.stringify(filter.value);

	const rules = readSortRules.call(this, itemIndex);
	if (rules.length > 0) {
		const sort = attempt(() => buildSort(rules));
		if (sort.error) throw filterError.call(this, sort.error, itemIndex);
		if (columns) {
			const known = new Set(columns.map((c) => c.id));
			known.add('id');
			known.add('manualSort');
			for (const rule of rules) {
				const column = String(rule.column).trim();
				if (!known.has(column)) {
					throw new NodeOperationError(
						this.getNode(),
						`Cannot sort by column "${column}": the table has no such column (item ${itemIndex})`,
						{
							itemIndex,
							description: `Pick a column of the table in Sort. Its columns are: ${[...known].filter((c) => c !== 'manualSort').join(', ')}.`,
						},
					);
				}
			}
		}
		qs.sort = sort.value;
	}
	return qs;
}

/**
 * The read query (filter, sort, limit) of item `itemIndex`, and the table's columns where they
 * are needed: for the output (`withColumns`, e.g. Simplify), the filter builder or a sort.
 */
export async function readQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	target: Target,
	cache: ColumnCache,
	withColumns: boolean,
): Promise<{ qs: IDataObject; columns: GristColumn[] | undefined }> {
	let columns: GristColumn[] | undefined;
	if (withColumns || queryNeedsColumns.call(this, itemIndex))
		columns = await cache.get(target, itemIndex);
	return { qs: buildReadQuery.call(this, itemIndex, columns), columns };
}

/** Whether item `itemIndex`'s query needs the table's columns. */
function queryNeedsColumns(this: IExecuteFunctions, itemIndex: number): boolean {
	const builder = readFilterType.call(this, itemIndex) === 'builder';
	const rules = readSortRules.call(this, itemIndex);
	return builder || rules.length > 0;
}
