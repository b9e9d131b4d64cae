import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

const operation = operationSelector(
	'record',
	[
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
	'getAll',
);

export const record = resourceModule(
	{ name: 'Record', value: 'record', description: 'The records (rows) of a table' },
	operation,
	{ getAll, get, create, update, upsert, delete: del },
);
