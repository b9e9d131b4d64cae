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
		default: '',
		required: true,
		description: 'The IDs of the rows to delete: one ID, several separated by commas, or an array',
	},
];

export const description = operationDescription('columnar', 'delete', properties);

/** POST …/data/delete. */
export const execute: OperationExecute = async function (client, items) {
	return await deleteItemRows(this, client, items, 'data');
};
