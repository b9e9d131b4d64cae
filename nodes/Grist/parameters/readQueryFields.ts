/**
 * The fields of the read query of Record → Get Many and Columnar → Get Many: Return All / Limit,
 * Filter (None, Conditions or JSON: ./filterFields.ts) and Sort. The record read's conditions have
 * every match, Combine (AND / OR) and Ignore Case, and those Grist's filter cannot express run
 * through /sql (query/recordConditions.ts); the columnar read keeps Grist's equality filter.
 * readQuery.ts reads them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { limitFields } from './limit';
import { entryList } from './commonFields';
import { ALL_MATCHES, EQUALITY_MATCHES, filterProperties } from './filterFields';

/** How the conditions of Record → Get Many run. */
const RECORD_CONDITIONS =
	"Rows must match the conditions (all of them, or any, per Combine). Is One Of and Is Empty combined with AND use Grist's record filter; other conditions run as a read-only SQL query (needs an API key with read access to the whole document).";

/** The column picker of a Sort rule. */
const sortColumn: INodeProperties = {
	displayName: 'Column Name or ID',
	name: 'column',
	type: 'options',
	typeOptions: {
		loadOptionsMethod: 'getColumns',
		loadOptionsDependsOn: ['document.value', 'table.value'],
	},
	default: '',
	description:
		'The column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Sort, its Natural Sort saying what it says (Record → Get Many: when it works). */
function sortFieldWith(naturalSortDescription: string): INodeProperties {
	return entryList(
		{ displayName: 'Sort', name: 'sort', placeholder: 'Add Sort Rule' },
		{
			displayName: 'Rule',
			name: 'rules',
			values: [
				sortColumn,
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
	...filterProperties({
		matches: EQUALITY_MATCHES,
		json: true,
		columnsMethod: 'getColumns',
		conditionsDescription: 'Rows must match every condition; a condition matches any of its values',
	}),
	sortField,
];

/**
 * Return All / Limit, Filter and Sort of Record → Get Many: Grist's equality filter plus the
 * conditions run through /sql, combined with AND or OR.
 */
export const recordReadFields: INodeProperties[] = [
	...limitFields,
	...filterProperties({
		matches: ALL_MATCHES,
		combine: true,
		ignoreCase: true,
		json: true,
		referencesByName: true,
		columnsMethod: 'getColumns',
		conditionsDescription: RECORD_CONDITIONS,
	}),
	// conditions that run as SQL cannot sort naturally (SQLite has no such order): said here, where
	// it is switched on, rather than only when the run refuses it
	sortFieldWith(
		`${NATURAL_SORT}. Only with no conditions, or with Is One Of / Is Empty conditions combined with AND: other conditions run as SQL, which cannot sort naturally, and the run stops.`,
	),
];
