import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['column'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			description: 'Add columns to a table (ID, label, type, choices, formula)',
			action: 'Create columns',
		},
		{
			name: 'Create or Update',
			value: 'upsert',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
			action: 'Create or update columns',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a column and its values',
			action: 'Delete a column',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: "List a table's columns with their label, type and formula",
			action: 'Get many columns',
		},
		{
			name: 'Update',
			value: 'update',
			description: "Change a column's ID, label, type, formula or choices",
			action: 'Update columns',
		},
	],
	default: 'getAll',
};

export const column: ResourceModule = {
	option: { name: 'Column', value: 'column', description: 'Columns of a table' },
	description: [
		operation,
		...create.description,
		...del.description,
		...getAll.description,
		...update.description,
		...upsert.description,
	],
	operations: {
		create: create.execute,
		delete: del.execute,
		getAll: getAll.execute,
		update: update.execute,
		upsert: upsert.execute,
	},
};
