/**
 * Read parameters (filter builder / JSON filter, sort builder, limit, hidden columns) shared by
 * `record.getAll` and `columnar.getAll`, and the query string they produce.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { GristColumn } from '../../helpers/columns';
import { FilterError, buildFilter, buildSort, parseJsonFilter, type FilterCondition, type SortRule } from '../../helpers/filters';
import { columnTypes } from '../../helpers/columns';
import { limitFields } from '../common.descriptions';

export const readFields: INodeProperties[] = [
	...limitFields,
	{
		displayName: 'Filter',
		name: 'filterType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'None', value: 'none' },
			{ name: 'Build', value: 'builder', description: 'Pick columns and the values to match, typed by the column' },
			{ name: 'JSON', value: 'json', description: "Grist's filter object, e.g. {\"Status\": [\"Open\"]}" },
		],
		default: 'none',
	},
	{
		displayName: 'Conditions',
		name: 'filters',
		type: 'fixedCollection',
		placeholder: 'Add Condition',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Rows must match every condition; a condition matches any of its values',
		displayOptions: { show: { filterType: ['builder'] } },
		options: [
			{
				displayName: 'Condition',
				name: 'conditions',
				values: [
					{
						displayName: 'Column Name or ID',
						name: 'column',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getColumns', loadOptionsDependsOn: ['document.value', 'table.value'] },
						default: '',
						description:
							'The column to filter on. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Match',
						name: 'match',
						type: 'options',
						options: [
							{
								name: 'Is Empty',
								value: 'isEmpty',
								description: 'Cells with no value: empty text, no number (0 is a number), no date, no reference, no list',
							},
							{
								name: 'Is One Of',
								value: 'anyOf',
								description: 'Cells equal to one of the values',
							},
						],
						default: 'anyOf',
					},
					{
						displayName: 'Values',
						name: 'values',
						type: 'string',
						default: '',
						placeholder: 'e.g. Open, Done',
						description:
							'One or more values, separated by commas (or a JSON array for values that contain commas). Values are converted to the column type: dates as 2024-01-31, references as row IDs. Left empty, the condition matches only empty cells, not every row: remove the condition to match every row.',
						displayOptions: { show: { match: ['anyOf'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Filter (JSON)',
		name: 'filterJson',
		type: 'json',
		default: '{}',
		description: 'Column IDs and arrays of stored values to match, e.g. {"Status": ["Open", "Done"], "Owner": [3]}',
		displayOptions: { show: { filterType: ['json'] } },
	},
	{
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
						displayName: 'Column Name or ID',
						name: 'column',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getColumns', loadOptionsDependsOn: ['document.value', 'table.value'] },
						default: '',
						description: 'The column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
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
						description: 'Whether to sort numbers inside text naturally (item 2 before item 10)',
					},
					{
						displayName: 'Order By Choice',
						name: 'orderByChoice',
						type: 'boolean',
						default: false,
						description: 'Whether to sort a Choice column in the order of its choices instead of alphabetically',
					},
			],
			},
		],
	},
];

/** Limit of item `i`: `0` for Return All, else a whole number ≥ 1. */
export function readLimit(this: IExecuteFunctions, i: number): number {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	if (returnAll) return 0;
	const limit = this.getNodeParameter('limit', i, 50) as unknown;
	const n = typeof limit === 'string' ? Number(limit) : (limit as number);
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
		throw new NodeOperationError(this.getNode(), `The Limit of item ${i} must be a whole number of at least 1, not ${JSON.stringify(limit)}`, {
			itemIndex: i,
			description: 'Set Limit to 1 or more, or turn on Return All.',
		});
	}
	return n;
}

function toOperationError(this: IExecuteFunctions, error: Error, i: number): NodeOperationError {
	const fe = error instanceof FilterError ? error : undefined;
	return new NodeOperationError(this.getNode(), `${error.message} (item ${i})`, {
		itemIndex: i,
		description: fe?.hint ?? `Fix the ${fe?.field ?? 'Filter'} field.`,
	});
}

function attempt<T>(fn: () => T): { value: T } | { error: Error } {
	try {
		return { value: fn() };
	} catch (error) {
		return { error: error as Error };
	}
}

/**
 * Builds `filter`, `sort` and `limit` for item `i`. `columns` is needed for the filter builder
 * (value types) and to catch sorts on unknown columns before the request (Grist answers 500).
 */
export function buildReadQuery(this: IExecuteFunctions, i: number, columns: GristColumn[] | undefined): IDataObject {
	const qs: IDataObject = {};
	const limit = readLimit.call(this, i);
	if (limit > 0) qs.limit = limit;

	const filterType = this.getNodeParameter('filterType', i, 'none') as string;
	const filter = attempt(() => {
		if (filterType === 'builder') {
			const conditions = (this.getNodeParameter('filters.conditions', i, []) as FilterCondition[]) ?? [];
			return buildFilter(conditions, columns ? columnTypes(columns) : {});
		}
		if (filterType === 'json') return parseJsonFilter(this.getNodeParameter('filterJson', i, '{}'), 'Filter (JSON)');
		return {};
	});
	if ('error' in filter) throw toOperationError.call(this, filter.error, i);
	if (Object.keys(filter.value).length > 0) qs.filter = JSON.stringify(filter.value);

	const rules = (this.getNodeParameter('sort.rules', i, []) as SortRule[]) ?? [];
	if (rules.length > 0) {
		const sort = attempt(() => buildSort(rules));
		if ('error' in sort) throw toOperationError.call(this, sort.error, i);
		if (columns) {
			const known = new Set(columns.map((c) => c.id));
			known.add('id');
			known.add('manualSort');
			for (const rule of rules) {
				const column = String(rule.column).trim();
				if (!known.has(column)) {
					throw new NodeOperationError(this.getNode(), `Cannot sort by column "${column}": the table has no such column (item ${i})`, {
						itemIndex: i,
						description: `Pick a column of the table in Sort. Its columns are: ${[...known].filter((c) => c !== 'manualSort').join(', ')}.`,
					});
				}
			}
		}
		qs.sort = sort.value;
	}
	return qs;
}

/** Whether item `i`'s query needs the table's columns. */
export function queryNeedsColumns(this: IExecuteFunctions, i: number): boolean {
	const filterType = this.getNodeParameter('filterType', i, 'none') as string;
	const rules = (this.getNodeParameter('sort.rules', i, []) as SortRule[]) ?? [];
	return filterType === 'builder' || rules.length > 0;
}

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
