import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { simplifyRecord, type GristRecord } from '../../helpers/cells';
import { columnTypes } from '../../helpers/columns';
import { buildConditionQuery, needsSql, sqlRecord, type Condition } from '../../helpers/conditions';
import { InputError, attempt } from '../../helpers/errors';
import type { SortRule } from '../../helpers/filters';
import { withHint } from '../../helpers/hints';
import { toNodeError } from '../../errors';
import { errorItem, withItemIndex } from '../items';
import type { GristClient } from '../../transport';
import { readLimit, readQuery, readTarget } from '../../parameters';
import { ColumnCache, fetchRecords, runSql, type Target } from '../../transport/api';
import {
	documentLocator,
	hiddenColumnsOptions,
	readFields,
	tableLocator,
} from '../common.descriptions';

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
	{ name: 'Between', value: 'between', description: 'From Values to To, both included' },
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

/** The filter builder of Record → Get Many: Grist's equality filter plus the conditions run through /sql. */
const recordFilterFields: INodeProperties[] = readFields.flatMap((field): INodeProperties[] => {
	if (field.name !== 'filters') return [field];
	const collection = field.options?.[0] as {
		displayName: string;
		name: string;
		values: INodeProperties[];
	};
	const values = collection.values.flatMap((v): INodeProperties[] => {
		if (v.name === 'match') return [{ ...v, options: MATCH_OPTIONS }];
		if (v.name === 'values') {
			return [
				{
					...v,
					description:
						'The value to compare with (for Is One Of / Is None Of: several, separated by commas, or a JSON array). Converted to the column type: numbers, dates as 2024-01-31 or an n8n date, true/false, references as row IDs, a choice of a Choice List. Left empty, the condition matches only empty cells, not every row: remove the condition to match every row.',
					displayOptions: { hide: { match: ['isEmpty', 'isNotEmpty'] } },
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
		}
		return [v];
	});
	return [
		{
			...field,
			description:
				"Rows must match the conditions (all of them, or any, per Combine). Is One Of and Is Empty combined with AND use Grist's record filter; other conditions run as a read-only SQL query (needs an API key with read access to the whole document).",
			options: [{ ...collection, values }],
		},
		{
			displayName: 'Combine',
			name: 'combine',
			type: 'options',
			options: [
				{ name: 'All Conditions (AND)', value: 'and' },
				{ name: 'Any Condition (OR)', value: 'or' },
			],
			default: 'and',
			displayOptions: { show: { filterType: ['builder'] } },
		},
	];
});

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	...recordFilterFields,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			"Whether to return flat records (the row ID next to the fields) with dates as ISO text and lists as arrays, instead of Grist's raw form with the fields nested",
	},
	hiddenColumnsOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['getAll'] } },
	properties,
);

/** The conditions as one parameterised SELECT on /sql, rows in /records' encoding. */
async function searchWithSql(
	this: IExecuteFunctions,
	client: GristClient,
	target: Target,
	itemIndex: number,
	input: {
		conditions: Condition[];
		combine: string;
		columns: Array<{ id: string; type: string; choices?: string[] }>;
		includeHidden: boolean;
	},
): Promise<GristRecord[]> {
	if (client.isOAuth) {
		throw new NodeOperationError(
			this.getNode(),
			`These conditions need Grist's SQL endpoint, which Grist refuses to OAuth2 connections (item ${itemIndex})`,
			{
				itemIndex,
				description:
					"Set Authentication to API Key, or use only Is One Of and Is Empty conditions combined with AND (Grist's record filter works with OAuth2).",
			},
		);
	}
	const types = columnTypes(input.columns as never);
	const choices: Record<string, string[]> = {};
	for (const c of input.columns) if (c.choices) choices[c.id] = c.choices;
	const sort = (this.getNodeParameter('sort.rules', itemIndex, []) as SortRule[]) ?? [];
	const limit = readLimit.call(this, itemIndex);
	const built = attempt(() =>
		buildConditionQuery({
			tableId: target.tableId,
			conditions: input.conditions,
			combine: input.combine,
			types,
			choices,
			sort,
			limit,
		}),
	);
	if (built.error) {
		const error = built.error;
		if (!(error instanceof InputError)) throw error;
		throw toNodeError(this.getNode(), error, {
			itemIndex,
			where: 'field',
			hint: `Fix the ${error.field} field.`,
		});
	}
	const query = built.value;
	let rows;
	try {
		rows = await runSql(client, target.docId, query.sql, query.args, undefined, itemIndex);
	} catch (error) {
		throw withHint(error, 'record.conditions');
	}
	return rows.map((row) => sqlRecord(row, types, input.includeHidden));
}

/**
 * GET …/records: one request per input item (plus one GET of the columns per table, when needed);
 * conditions Grist's filter cannot express (OR, comparisons, text search…) go to POST /sql as one
 * parameterised SELECT, decoded the same way.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const columnsCache = new ColumnCache(client);
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = readTarget.call(this, itemIndex);
			const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
			const includeHidden = this.getNodeParameter(
				'options.includeHidden',
				itemIndex,
				false,
			) as boolean;
			const filterType = this.getNodeParameter('filterType', itemIndex, 'none') as string;
			const conditions =
				filterType === 'builder'
					? ((this.getNodeParameter('filters.conditions', itemIndex, []) as Condition[]) ?? [])
					: [];
			const combine = this.getNodeParameter('combine', itemIndex, 'and') as string;
			let records: GristRecord[];
			let columns;
			if (needsSql(conditions, combine)) {
				columns = await columnsCache.get(target, itemIndex);
				records = await searchWithSql.call(this, client, target, itemIndex, {
					conditions,
					combine,
					columns,
					includeHidden,
				});
			} else {
				const read = await readQuery.call(this, itemIndex, target, columnsCache, simplify);
				columns = read.columns;
				if (includeHidden) read.qs.hidden = 1;
				records = (await fetchRecords(client, target, read.qs, itemIndex)) as GristRecord[];
			}
			const pairedItem = { item: itemIndex };
			if (simplify) {
				const types = columnTypes(columns ?? []);
				for (const record of records) out.push({ json: simplifyRecord(record, types), pairedItem });
			} else {
				for (const record of records)
					out.push({ json: record as unknown as IDataObject, pairedItem });
			}
		} catch (error) {
			if (this.continueOnFail()) {
				out.push(errorItem(error as Error, itemIndex));
				continue;
			}
			throw withItemIndex.call(this, error, itemIndex);
		}
	}
	return out;
}
