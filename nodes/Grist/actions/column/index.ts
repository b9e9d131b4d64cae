import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

const operation = operationSelector(
	'column',
	[
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
	'getAll',
);

export const column = resourceModule(
	{ name: 'Column', value: 'column', description: 'Columns of a table' },
	operation,
	{ create, delete: del, getAll, update, upsert },
);
