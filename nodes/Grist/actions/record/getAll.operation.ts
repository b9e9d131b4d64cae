import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { GristRecord } from '../../cells/cellValues';
import { columnTypes } from '../../cells/tableColumns';
import type { Condition } from '../../query/conditionSql';
import { buildConditionQuery, needsSql, sqlRecord } from '../../query/recordConditions';
import { InputError, attempt } from '../../errors/gristAnswers';
import { withHint } from '../../errors/hints';
import { toNodeError } from '../../errors/nodeErrors';
import type { GristClient } from '../../api/client';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { readLimit } from '../../parameters/limit';
import { readConditions, readQuery, readSortRules } from '../../parameters/readQuery';
import {
	readIncludeHidden,
	readSimplify,
	recordReadOptions,
	recordSimplifyField,
} from '../../parameters/recordReadOptions';
import { recordReadFields } from '../../parameters/readQueryFields';
import { ColumnCache } from '../../api/schemaCache';
import { fetchRows, type FetchedRows } from '../../api/records';
import { runSql } from '../../api/sql';
import { type Target } from '../../api/paths';
import { readReferenceDisplay } from '../../parameters/referenceDisplayOption';
import { fetchedJson, fetchedRecords, recordsAndColumns } from '../../read/recordRead';
import { ReferenceDisplay } from '../../read/referenceDisplay';
import { conditionsWithRowIds } from '../../read/referenceConditions';
import { ReferenceLookup } from '../../api/referenceLookup';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { failedItem } from '../items';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	...recordReadFields,
	recordSimplifyField,
	recordReadOptions,
];

export const description = operationDescription('record', 'getAll', properties);

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
	const sort = readSortRules.call(this, itemIndex);
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
 * GET …/data (…/records with OAuth2): one request per input item (plus one GET of the columns
 * per table, when needed);
 * conditions Grist's filter cannot express (OR, comparisons, text search…) go to POST /sql as one
 * parameterised SELECT, decoded the same way. Names given for references in the conditions are
 * turned into row IDs first (read/referenceConditions.ts).
 */
export const execute: OperationExecute = async function (client, items) {
	const columnsCache = new ColumnCache(client);
	const display = new ReferenceDisplay(client, columnsCache);
	const names = new ReferenceLookup(client, columnsCache);
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const start = out.length;
		try {
			const target = readTarget.call(this, itemIndex);
			const simplify = readSimplify.call(this, itemIndex);
			const includeHidden = readIncludeHidden.call(this, itemIndex);
			const read = readConditions.call(this, itemIndex);
			const combine = read.combine;
			const conditions =
				read.conditions.length === 0
					? read.conditions
					: await conditionsWithRowIds(
							names,
							target,
							await columnsCache.get(target, itemIndex),
							read.conditions,
							itemIndex,
						).catch((error: unknown) => {
							throw error instanceof InputError
								? toNodeError(this.getNode(), error, { itemIndex, where: 'field' })
								: error;
						});
			let rows: FetchedRows;
			let columns;
			if (needsSql(conditions, combine)) {
				columns = await columnsCache.get(target, itemIndex);
				rows = {
					records: await searchWithSql.call(this, client, target, itemIndex, {
						conditions,
						combine,
						columns,
						includeHidden,
					}),
				};
			} else {
				const query = await readQuery.call(
					this,
					itemIndex,
					target,
					columnsCache,
					false,
					conditions,
				);
				({ records: rows, columns } = await recordsAndColumns(
					client,
					target,
					async () => await fetchRows(client, target, query.qs, includeHidden, itemIndex),
					{ cache: columnsCache, columns: query.columns, withColumns: simplify, itemIndex },
				));
			}
			const pairedItem = { item: itemIndex };
			const types = simplify ? columnTypes(columns ?? []) : {};
			for (const json of fetchedJson(rows, simplify, types)) out.push({ json, pairedItem });
			if (readReferenceDisplay.call(this, itemIndex))
				await display.add(
					target,
					columns ?? (await columnsCache.get(target, itemIndex)),
					fetchedRecords(rows).map((r) => r.fields),
					out.slice(start).map((o) => o.json),
					simplify,
					itemIndex,
				);
		} catch (error) {
			out.length = start;
			out.push(failedItem.call(this, error, itemIndex));
		}
	}
	return out;
};
