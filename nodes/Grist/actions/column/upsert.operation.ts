import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputError, attempt } from '../../errors/gristAnswers';
import { checkIdentifier, columnFields, type ColumnInput } from '../../cells/columnSpecs';
import type { GristColumn } from '../../cells/tableColumns';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { TableCache } from '../../api/schemaCache';
import { fetchColumns, writeColumns } from '../../api/columns';
import { columnsCollection, readColumnInputs } from '../../parameters/columnDefinition';
import {
	checkReferencedTables,
	forEachSchemaItem,
	untieFromLabel,
	untieNewColumns,
} from '../schemaChanges';
import { itemParameterValue } from '../../parameters/read';
import { optionsCollection } from '../../parameters/commonFields';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnsCollection(
		'Columns to add, or to change when the table has a column with that ID; all in one request',
		'createOrUpdate',
	),
	optionsCollection([
		{
			displayName: 'Never Add',
			name: 'noadd',
			type: 'boolean',
			default: false,
			description: "Whether to only change listed columns the table has (Grist's noadd)",
		},
		{
			displayName: 'Never Update',
			name: 'noupdate',
			type: 'boolean',
			default: false,
			description: "Whether to only add listed columns the table lacks (Grist's noupdate)",
		},
		{
			displayName: 'Remove Columns Not Listed (Deletes Their Data)',
			name: 'replaceall',
			type: 'boolean',
			default: false,
			description:
				"Whether to DELETE every column of the table that is not listed here, with its data (Grist's replaceall)",
		},
	]),
];

export const description = operationDescription('column', 'upsert', properties);

/** Options → Never Add / Never Update / Remove Columns Not Listed. */
interface UpsertFlags {
	noadd?: boolean;
	noupdate?: boolean;
	replaceall?: boolean;
}

/** The Options and the listed columns of item `itemIndex`; none listed is refused. */
function readUpsert(
	this: IExecuteFunctions,
	itemIndex: number,
): { flags: UpsertFlags; inputs: ColumnInput[] } {
	const flags = itemParameterValue.call(this, 'options', itemIndex, {}) as UpsertFlags;
	const inputs = readColumnInputs.call(this, itemIndex);
	if (inputs.length === 0) {
		throw new NodeOperationError(this.getNode(), `No column is listed in item ${itemIndex}`, {
			itemIndex,
			description: flags.replaceall
				? 'Add at least one column: with Remove Columns Not Listed an empty list would delete every column.'
				: 'Add at least one column under Columns.',
		});
	}
	return { flags, inputs };
}

/**
 * One listed column's ID and Grist fields (an update's when the table has it, `current`);
 * `field` names it in errors.
 */
function columnSpec(
	input: ColumnInput,
	field: string,
	byId: Map<string, GristColumn>,
	seen: Set<string>,
): { id: string; fields: IDataObject; current: GristColumn | undefined } {
	const id = checkIdentifier(String(input.id ?? '').trim(), 'column', field);
	if (seen.has(id.toLowerCase())) {
		throw new InputError(`The column ID "${id}" is listed twice`, field, 'List each column once.');
	}
	seen.add(id.toLowerCase());
	const current = byId.get(id);
	const built = attempt(() =>
		columnFields(input, {
			update: current !== undefined,
			currentWidgetOptions: current?.widgetOptions,
		}),
	);
	if (built.error instanceof InputError) {
		throw new InputError(
			`Column "${id}": ${built.error.message}`,
			`${field}: ${built.error.field}`,
			built.error.hint,
		);
	}
	if (built.error) throw built.error;
	const fields: IDataObject = built.value;
	// an update that sets the label would rename the column after it (see untieFromLabel)
	if (current && fields.label !== undefined) untieFromLabel(fields);
	return { id, fields, current };
}

/** What the PUT is to do: its columns, each column's outcome, the references to check. */
interface UpsertPlan {
	specs: IDataObject[];
	outcome: IDataObject[];
	refs: Array<{ type: unknown; field: string }>;
	/** New columns given a Label, untied after the PUT. */
	labelledNew: string[];
	/** The listed IDs, lower case. */
	seen: Set<string>;
}

function planUpsert(
	inputs: ColumnInput[],
	existing: GristColumn[],
	flags: UpsertFlags,
): UpsertPlan {
	const byId = new Map(existing.map((c) => [c.id, c]));
	const plan: UpsertPlan = { specs: [], outcome: [], refs: [], labelledNew: [], seen: new Set() };
	inputs.forEach((input, index) => {
		const field = `Columns (column ${index + 1})`;
		const { id, fields, current } = columnSpec(input, field, byId, plan.seen);
		plan.specs.push({ id, fields });
		const action = current
			? flags.noupdate
				? 'unchanged'
				: 'updated'
			: flags.noadd
				? 'skipped'
				: 'added';
		plan.outcome.push({ id, action });
		if (action === 'added' || action === 'updated')
			plan.refs.push({ type: fields.type, field: `${field}: Referenced Table` });
		if (action === 'added' && fields.label !== undefined) plan.labelledNew.push(id);
	});
	return plan;
}

/** The columns Remove Columns Not Listed deleted (Grist's helper columns are never listed). */
function removedColumns(existing: GristColumn[], seen: Set<string>): IDataObject[] {
	return existing
		.filter(
			(c) =>
				!seen.has(c.id.toLowerCase()) && c.id !== 'manualSort' && !c.id.startsWith('gristHelper_'),
		)
		.map((c) => ({ id: c.id, action: 'removed' }));
}

/**
 * PUT …/columns with noadd / noupdate / replaceall: one request per item. A label never renames
 * a listed column (untied, see untieFromLabel; new columns given a Label are untied by one PATCH
 * after); a Reference to a table the document lacks is refused before the request.
 */
export const execute: OperationExecute = async function (client, items) {
	const tables = new TableCache(client);
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const { flags, inputs } = readUpsert.call(this, itemIndex);
		const existing = await fetchColumns(client, target, { hidden: true, itemIndex });
		const plan = planUpsert(inputs, existing, flags);
		await checkReferencedTables(tables, target.docId, plan.refs, itemIndex);
		await writeColumns(client, target, 'PUT', plan.specs, itemIndex, flags);
		await untieNewColumns(client, target, plan.labelledNew, itemIndex);
		if (flags.replaceall) plan.outcome.push(...removedColumns(existing, plan.seen));
		return plan.outcome;
	});
};
