import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toColumn } from '../../cells/tableColumns';
import { columnFields, type ColumnInput } from '../../cells/columnSpecs';
import {
	documentLocator,
	readTarget,
	tableLocator,
	columnIdValue,
} from '../../parameters/locators';
import { TableCache } from '../../api/schemaCache';
import { fetchColumns, writeColumns } from '../../api/columns';
import { columnDefinitionFields, columnLocator } from '../../parameters/columnDefinition';
import {
	checkReferencedTables,
	columnItem,
	forEachSchemaItem,
	untieFromLabel,
} from '../schemaChanges';
import { itemParameterValue } from '../../parameters/read';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { updateFieldsCollection } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnLocator,
	updateFieldsCollection(
		columnDefinitionFields('update')
			.filter((f) => f.name !== 'id')
			.map((f) => ({ ...f, required: false })),
	),
];

export const description = operationDescription('column', 'update', properties);

/**
 * PATCH …/columns for one column: rename, label, type, formula, choices (merged into its
 * options). A new Label keeps the column ID (Grist would rename it after the label otherwise,
 * see untieFromLabel); a Reference to a table the document lacks is refused before the write.
 */
export const execute: OperationExecute = async function (client, items) {
	const tables = new TableCache(client);
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const colId = columnIdValue.call(this, itemIndex);
		const input = {
			...(itemParameterValue.call(this, 'updateFields', itemIndex, {}) as ColumnInput),
		};
		const columns = await fetchColumns(client, target, { hidden: true, itemIndex });
		const current = columns.find((c) => c.id === colId);
		if (!current) {
			throw new NodeOperationError(
				this.getNode(),
				`Column not found "${colId}" in table "${target.tableId}" (Column, item ${itemIndex})`,
				{
					itemIndex,
					description: `The table's columns are: ${columns.map((c) => c.id).join(', ')}. Use the column ID, not its label.`,
				},
			);
		}
		const choicesGiven = input.choices !== undefined && input.choices !== '';
		if (choicesGiven && (input.type === undefined || input.type === '')) input.type = current.type;
		const fields = columnFields(input, {
			update: true,
			currentWidgetOptions: current.widgetOptions,
		});
		if (Object.keys(fields).length === 0) {
			throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex}`, {
				itemIndex,
				description: 'Add a field to change under Update Fields.',
			});
		}
		if (typeof fields.colId === 'string' && fields.colId !== colId) {
			const clash = columns.find(
				(c) => c !== current && c.id.toLowerCase() === String(fields.colId).toLowerCase(),
			);
			if (clash) {
				throw new NodeOperationError(
					this.getNode(),
					`The table already has a column "${clash.id}" (New Column ID, item ${itemIndex})`,
					{ itemIndex, description: 'Pick another New Column ID.' },
				);
			}
		}
		if (fields.label !== undefined || fields.colId !== undefined) untieFromLabel(fields);
		await checkReferencedTables(
			tables,
			target.docId,
			[{ type: fields.type, field: 'Update Fields: Referenced Table' }],
			itemIndex,
		);
		await writeColumns(client, target, 'PATCH', [{ id: colId, fields }], itemIndex);
		const merged: IDataObject = {
			type: current.type,
			label: current.label,
			formula: current.formula,
			isFormula: current.isFormula,
			widgetOptions: JSON.stringify(current.widgetOptions ?? {}),
			...fields,
		};
		return columnItem(toColumn({ id: String(fields.colId ?? colId), fields: merged }));
	});
};
