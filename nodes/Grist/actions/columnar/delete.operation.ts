import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { GristClient } from '../../api/client';
import { documentLocator, tableLocator } from '../../parameters/locators';
import { deleteItemRows } from '../../write/rowDeletes';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'Row IDs',
		name: 'rowIds',
		type: 'string',
		default: '',
		required: true,
		description: 'The IDs of the rows to delete: one ID, several separated by commas, or an array',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['columnar'], operation: ['delete'] } },
	properties,
);

/** POST …/data/delete. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await deleteItemRows(this, client, items, 'data');
}
