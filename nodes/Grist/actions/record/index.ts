import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['record'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			description: 'Add records to a table (all items in as few requests as possible)',
			action: 'Create records',
		},
		{
			name: 'Create or Update',
			value: 'upsert',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
			action: 'Create or update records',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete records by their row IDs',
			action: 'Delete records',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get a record by its row ID',
			action: 'Get a record',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Read the records of a table, filtered and sorted',
			action: 'Get many records',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change records by their row IDs',
			action: 'Update records',
		},
	],
	default: 'getAll',
};

export const record: ResourceModule = {
	option: { name: 'Record', value: 'record', description: 'The records (rows) of a table' },
	description: [
		operation,
		...getAll.description,
		...get.description,
		...create.description,
		...update.description,
		...upsert.description,
		...del.description,
	],
	operations: {
		getAll: getAll.execute,
		get: get.execute,
		create: create.execute,
		update: update.execute,
		upsert: upsert.execute,
		delete: del.execute,
	},
};
