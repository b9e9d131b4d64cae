import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attempt } from '../../errors/gristAnswers';
import { checkIdentifier } from '../../cells/columnSpecs';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { updateTables } from '../../api/tables';
import { forEachSchemaItem } from '../schemaChanges';
import { itemParameterValue } from '../../parameters/read';
import { operationDescription, perItemThrough } from '../operationFrame';
import { updateFieldsCollection } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	updateFieldsCollection([
		{
			displayName: 'New Table ID',
			name: 'tableId',
			type: 'string',
			default: '',
			placeholder: 'e.g. Clients',
			description:
				'Renames the table (formulas that use it are updated by Grist; workflows that name it are not)',
		},
		{
			displayName: 'Other Fields (JSON)',
			name: 'fieldsJson',
			type: 'json',
			default: '{}',
			description:
				'Other fields of Grist\'s table record to set, as a JSON object (e.g. {"onDemand": false}); Grist refuses fields it does not know',
		},
	]),
];

export const description = operationDescription('table', 'update', properties);

/** PATCH /api/docs/{doc}/tables `{ tables: [{ id, fields }] }`. */
export const execute = perItemThrough(forEachSchemaItem, async function (client, itemIndex) {
	const target = readTarget.call(this, itemIndex);
	const input = itemParameterValue.call(this, 'updateFields', itemIndex, {}) as {
		tableId?: string;
		fieldsJson?: unknown;
	};
	const fields: IDataObject = {};
	const raw = input.fieldsJson;
	const other =
		typeof raw === 'string'
			? attempt(() => (raw.trim() === '' ? {} : (JSON.parse(raw) as unknown)))
			: { value: raw ?? {} };
	if (
		other.error ||
		typeof other.value !== 'object' ||
		other.value === null ||
		Array.isArray(other.value)
	) {
		throw new NodeOperationError(
			this.getNode(),
			`The Other Fields (JSON) of item ${itemIndex} must be a JSON object`,
			{ itemIndex, description: 'E.g. {"onDemand": false}.' },
		);
	}
	Object.assign(fields, other.value);
	const newId = String(input.tableId ?? '').trim();
	if (newId !== '') fields.tableId = checkIdentifier(newId, 'table', 'New Table ID');
	if (Object.keys(fields).length === 0) {
		throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex}`, {
			itemIndex,
			description: 'Add a field to change under Update Fields (e.g. New Table ID).',
		});
	}
	await updateTables(client, target.docId, [{ id: target.tableId, fields }], itemIndex);
	return {
		id: (fields.tableId as string | undefined) ?? target.tableId,
		previousId: target.tableId,
	};
});
