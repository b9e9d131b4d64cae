import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['table'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create a table with its columns (ID, label, type, choices, formula)',
			action: 'Create a table',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a table and all its data',
			action: 'Delete a table',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				"List the document's tables, optionally with their columns and types (start here to find what to query)",
			action: 'Get many tables',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Rename a table or change its other fields',
			action: 'Update a table',
		},
	],
	default: 'getAll',
};

export const table: ResourceModule = {
	option: { name: 'Table', value: 'table', description: 'Tables of a document' },
	description: [
		operation,
		...create.description,
		...del.description,
		...getAll.description,
		...update.description,
	],
	operations: {
		create: create.execute,
		delete: del.execute,
		getAll: getAll.execute,
		update: update.execute,
	},
};
