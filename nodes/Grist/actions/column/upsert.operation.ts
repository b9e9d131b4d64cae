import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { InputError, attempt } from '../../errors/gristAnswers';
import { checkIdentifier, columnFields } from '../../cells/columnSpecs';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import type { GristClient } from '../../transport';
import { TableCache, fetchColumns, writeColumns } from '../../transport/api';
import { columnsCollection, readColumnInputs } from '../../parameters/columnDefinition';
import {
	checkReferencedTables,
	forEachSchemaItem,
	untieFromLabel,
	untieNewColumns,
} from '../schemaChanges';
import { itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnsCollection(
		'Columns to add, or to change when the table has a column with that ID; all in one request',
		'createOrUpdate',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['column'], operation: ['upsert'] } },
	properties,
);

/**
 * PUT …/columns with noadd / noupdate / replaceall: one request per item. A label never renames
 * a listed column (untied, see untieFromLabel; new columns given a Label are untied by one PATCH
 * after); a Reference to a table the document lacks is refused before the request.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const tables = new TableCache(client);
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const flags = itemParameterValue.call(this, 'options', itemIndex, {}) as {
			noadd?: boolean;
			noupdate?: boolean;
			replaceall?: boolean;
		};
		const inputs = readColumnInputs.call(this, itemIndex);
		if (inputs.length === 0) {
			throw new NodeOperationError(this.getNode(), `No column is listed in item ${itemIndex}`, {
				itemIndex,
				description: flags.replaceall
					? 'Add at least one column: with Remove Columns Not Listed an empty list would delete every column.'
					: 'Add at least one column under Columns.',
			});
		}
		const existing = await fetchColumns(client, target, { hidden: true, itemIndex });
		const byId = new Map(existing.map((c) => [c.id, c]));
		const seen = new Set<string>();
		const specs: IDataObject[] = [];
		const outcome: IDataObject[] = [];
		const refs: Array<{ type: unknown; field: string }> = [];
		const labelledNew: string[] = [];
		inputs.forEach((input, index) => {
			const field = `Columns (column ${index + 1})`;
			const id = checkIdentifier(String(input.id ?? '').trim(), 'column', field);
			if (seen.has(id.toLowerCase())) {
				throw new InputError(
					`The column ID "${id}" is listed twice`,
					field,
					'List each column once.',
				);
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
			specs.push({ id, fields });
			const action = current
				? flags.noupdate
					? 'unchanged'
					: 'updated'
				: flags.noadd
					? 'skipped'
					: 'added';
			outcome.push({ id, action });
			if (action === 'added' || action === 'updated')
				refs.push({ type: fields.type, field: `${field}: Referenced Table` });
			if (action === 'added' && fields.label !== undefined) labelledNew.push(id);
		});
		await checkReferencedTables(tables, target.docId, refs, itemIndex);
		await writeColumns(client, target, 'PUT', specs, itemIndex, flags);
		await untieNewColumns(client, target, labelledNew, itemIndex);
		if (flags.replaceall) {
			for (const c of existing)
				if (
					!seen.has(c.id.toLowerCase()) &&
					c.id !== 'manualSort' &&
					!c.id.startsWith('gristHelper_')
				)
					outcome.push({ id: c.id, action: 'removed' });
		}
		return outcome;
	});
}
