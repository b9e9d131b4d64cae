import type { INodeProperties } from 'n8n-workflow';

import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
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

export const description = operationDescription('record', 'delete', properties);

/**
 * POST …/records/delete (Grist 1.7.5+), or POST …/data/delete where the server does not have
 * that route. Row IDs of all items of one table share requests.
 */
export const execute: OperationExecute = async function (client, items) {
	return await deleteItemRows(this, client, items, 'records');
};
