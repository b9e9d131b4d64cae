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
		default: '={{ $json.id }}',
		required: true,
		description:
			'The row IDs of the records to delete: one ID, several separated by commas, or an array',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['delete'] } },
	properties,
);

/**
 * POST …/records/delete (Grist 1.7.5+), or POST …/data/delete where the server does not have
 * that route. Row IDs of all items of one table share requests.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await deleteItemRows(this, client, items, 'records');
}
