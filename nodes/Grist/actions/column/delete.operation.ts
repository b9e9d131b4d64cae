import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { documentLocator, locatorValue, readTarget, tableLocator } from '../../parameters/locators';
import type { GristClient } from '../../transport';
import { deleteColumn } from '../../transport/api';
import { columnLocator } from '../../parameters/columnDefinition';
import { forEachSchemaItem } from '../schemaChanges';

const properties: INodeProperties[] = [
	{
		displayName: 'This deletes the column and every value in it.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	documentLocator,
	tableLocator,
	columnLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['column'], operation: ['delete'] } },
	properties,
);

/** DELETE …/columns/{colId}. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const colId = locatorValue(this, 'column', itemIndex);
		if (colId === '') {
			throw new NodeOperationError(this.getNode(), `The Column of item ${itemIndex} is empty`, {
				itemIndex,
				description: 'Pick a column from the list, or enter its ID.',
			});
		}
		await deleteColumn(client, target, colId, itemIndex);
		return { id: colId, deleted: true };
	});
}
