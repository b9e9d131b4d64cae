/**
 * What the Table and Column operations share when they change a document's schema: keeping
 * column IDs untied from labels, checking referenced tables, a column as an output item, and
 * running items one by one with the items already done named when one fails.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../errors/nodeErrors';
import type { GristColumn } from '../cells/tableColumns';
import { InputError } from '../errors/gristAnswers';
import { checkReferencedTable, referencedTable } from '../cells/columnSpecs';
import type { GristClient } from '../api/client';
import { writeColumns } from '../api/columns';
import { type TableCache } from '../api/schemaCache';
import { type Target } from '../api/paths';
import { forEachItem, type ItemResult } from './items';

/**
 * Keeps a column's ID when a request changes its label or ID, now and later: adds
 * `untieColIdFromLabel: true` to the column's `fields`.
 *
 * In Grist a column's ID is tied to its label (`_grist_Tables_column.untieColIdFromLabel`,
 * false by default): an update that sets `label` without `colId` also renames the column to an ID
 * derived from the label (useractions.py `_adjust_one_column_update`: `Due date` → `Due_date`,
 * `Name2` when taken), and PATCH/PUT …/columns are such updates (DocApi.ts: a BulkUpdateRecord /
 * UpdateRecord of `_grist_Tables_column`). Grist keeps the ID when the update also carries
 * `colId` (the same ID) or `untieColIdFromLabel: true`. We send the latter: it keeps the ID in
 * this request and also when the label is changed later in Grist's UI (the column's "link to
 * label" is off), so the ID that workflows use stays put; `colId` would protect this request
 * only. A new ID the user gives (New Column ID) is sent as `colId` and still applies.
 */
export function untieFromLabel(fields: IDataObject): IDataObject {
	fields.untieColIdFromLabel = true;
	return fields;
}

/**
 * After a create: unties the ID of each new column given a Label from it (see untieFromLabel).
 * Grist's AddColumn / AddTable (POST …/columns, POST /tables, the adds of PUT …/columns) drop
 * `untieColIdFromLabel`, and keep the given ID with the label as is, but tied: a later relabel in
 * Grist's UI would rename the column. So one PATCH …/columns follows for those columns. If it
 * fails, the columns exist (tied); the error says so.
 */
export async function untieNewColumns(
	client: GristClient,
	target: Target,
	ids: string[],
	itemIndex: number,
): Promise<void> {
	if (ids.length === 0) return;
	const error = await writeColumns(
		client,
		target,
		'PATCH',
		ids.map((id) => ({ id, fields: { untieColIdFromLabel: true } })),
		itemIndex,
	).then(
		() => undefined,
		(e: unknown) => e,
	);
	if (error !== undefined) {
		if (error instanceof NodeApiError || error instanceof NodeOperationError) {
			const note = `The column${ids.length > 1 ? 's' : ''} ${ids.map((id) => `"${id}"`).join(', ')} of table "${target.tableId}" ${ids.length > 1 ? 'were' : 'was'} created, but their IDs could not be untied from their labels (a later relabel in Grist would rename them): in Grist, open the column and turn off the link between label and ID.`;
			error.description = error.description ? `${error.description} ${note}` : note;
			partlyApplied.add(error);
		}
		throw error;
	}
}

/**
 * Refuses (an InputError naming the field) a Reference / Reference List type whose table the
 * document lacks; `alsoExisting`: tables that count as existing (the table being created). The
 * document's tables are read only when a column refers to one, once per execution (`tables`).
 */
export async function checkReferencedTables(
	tables: TableCache,
	docId: string,
	columns: Array<{ type: unknown; field: string }>,
	itemIndex: number,
	alsoExisting: string[] = [],
): Promise<void> {
	const refs = columns.filter((c) => referencedTable(c.type) !== undefined);
	if (refs.length === 0) return;
	const known = [...(await tables.ids(docId, itemIndex)), ...alsoExisting];
	for (const c of refs) checkReferencedTable(c.type, known, c.field);
}

/** Errors thrown after the item's main request succeeded (forEachSchemaItem says so). */
const partlyApplied = new WeakSet<object>();

/** A column as an output item: ID, label, type, formula, choices. */
export function columnItem(c: GristColumn): IDataObject {
	const json: IDataObject = {
		id: c.id,
		label: c.label,
		type: c.type,
		isFormula: c.isFormula,
		formula: c.formula,
	};
	if (c.choices) json.choices = c.choices;
	if (c.description) json.description = c.description;
	return json;
}

/**
 * Runs `fn` per item like forEachItem; when an item fails (without Continue On Fail), the error
 * also says which items were done before it (each item's request is all-or-nothing).
 */
export async function forEachSchemaItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const done: number[] = [];
	let failure: unknown;
	try {
		return await forEachItem.call(this, items, async (itemIndex) => {
			try {
				const result = await fn(itemIndex);
				done.push(itemIndex);
				return result;
			} catch (error) {
				// Input errors name their field and the item; the others pass as they are.
				throw error instanceof InputError
					? toNodeError(this.getNode(), error, { itemIndex, where: 'field' })
					: error;
			}
		});
	} catch (error) {
		failure = error;
	}
	const error = failure;
	if (items.length > 1 && (error instanceof NodeApiError || error instanceof NodeOperationError)) {
		const failed = partlyApplied.has(error)
			? 'the failed item was applied as said above.'
			: 'nothing of the failed item was applied.';
		const note =
			done.length === 0
				? `No item was done before it${partlyApplied.has(error) ? '; the failed item was applied as said above.' : '.'}`
				: `Item${done.length > 1 ? 's' : ''} ${done.join(', ')} ${done.length > 1 ? 'were' : 'was'} done before it; ${failed}`;
		error.description = error.description ? `${error.description} ${note}` : note;
	}
	throw error;
}
