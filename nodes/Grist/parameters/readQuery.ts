/**
 * The readers of the read query of Record → Get Many and Columnar → Get Many (its fields:
 * readQueryFields.ts): Filter, Sort and Return All / Limit of an item as Grist's `filter`,
 * `sort` and `limit`, and the record read's conditions and Combine.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
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
import type { ColumnCache } from '../api/schemaCache';
import type { Target } from '../api/paths';
import { readLimit } from './limit';
import { itemParameter, itemParameterValue } from './read';

/** The Sort rules of item `itemIndex` (shared by every item: not to be modified). */
export function readSortRules(this: IExecuteFunctions, itemIndex: number): SortRule[] {
	const none: SortRule[] = [];
	return (itemParameterValue.call(this, 'sort.rules', itemIndex, none) as SortRule[]) ?? [];
}

function readFilterType(this: IExecuteFunctions, itemIndex: number): string {
	return itemParameter.call(this, 'filterType', itemIndex, 'none') as string;
}

/** The Conditions of item `itemIndex` (none unless Filter is Conditions), as given. */
function readConditionList(this: IExecuteFunctions, itemIndex: number): unknown[] {
	if (readFilterType.call(this, itemIndex) !== 'conditions') return [];
	const none: unknown[] = [];
	return (
		(itemParameterValue.call(this, 'conditions.conditions', itemIndex, none) as unknown[]) ?? []
	);
}

/**
 * Record → Get Many: the Conditions of item `itemIndex` (none unless Filter is Conditions) and
 * Combine.
 */
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
	given?: FilterCondition[],
): IDataObject {
	const qs: IDataObject = {};
	const limit = readLimit.call(this, itemIndex);
	if (limit > 0) qs.limit = limit;

	const filterType = readFilterType.call(this, itemIndex);
	const filter = attempt(() => {
		if (filterType === 'conditions') {
			const conditions = given ?? (readConditionList.call(this, itemIndex) as FilterCondition[]);
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
 * `conditions`: the item's conditions as the caller made them final (references given by name
 * turned into row IDs), instead of the parameter's.
 */
export async function readQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	target: Target,
	cache: ColumnCache,
	withColumns: boolean,
	conditions?: FilterCondition[],
): Promise<{ qs: IDataObject; columns: GristColumn[] | undefined }> {
	let columns: GristColumn[] | undefined;
	if (withColumns || queryNeedsColumns.call(this, itemIndex))
		columns = await cache.get(target, itemIndex);
	return { qs: buildReadQuery.call(this, itemIndex, columns, conditions), columns };
}

/** Whether item `itemIndex`'s query needs the table's columns. */
function queryNeedsColumns(this: IExecuteFunctions, itemIndex: number): boolean {
	const builder = readFilterType.call(this, itemIndex) === 'conditions';
	const rules = readSortRules.call(this, itemIndex);
	return builder || rules.length > 0;
}
