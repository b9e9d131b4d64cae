import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operation = operationSelector(
	'table',
	[
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
	'getAll',
);

export const table = resourceModule(
	{ name: 'Table', value: 'table', description: 'Tables of a document' },
	operation,
	{ create, delete: del, getAll, update },
);
