import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { checkIdentifier } from '../../helpers/schema';
import { readTarget } from '../../parameters';
import type { GristClient } from '../../transport';
import { updateTables } from '../../transport/api';
import { documentLocator, tableLocator } from '../common.descriptions';
import { forEachSchemaItem } from '../schema';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'New Table ID',
				name: 'tableId',
				type: 'string',
				default: '',
				placeholder: 'e.g. Clients',
				description:
					'Renames the table (formulas that use it are updated by Grist; workflows that name it are not)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['table'], operation: ['update'] } },
	properties,
);

/** PATCH /api/docs/{doc}/tables `{ tables: [{ id, fields }] }`. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const input = this.getNodeParameter('updateFields', itemIndex, {}) as { tableId?: string };
		const fields: Record<string, string> = {};
		const newId = String(input.tableId ?? '').trim();
		if (newId !== '') fields.tableId = checkIdentifier(newId, 'table', 'New Table ID');
		if (Object.keys(fields).length === 0) {
			throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex}`, {
				itemIndex,
				description: 'Add a field to change under Update Fields (e.g. New Table ID).',
			});
		}
		await updateTables(client, target.docId, [{ id: target.tableId, fields }], itemIndex);
		return { id: fields.tableId ?? target.tableId, previousId: target.tableId };
	});
}
