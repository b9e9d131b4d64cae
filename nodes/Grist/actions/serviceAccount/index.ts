import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as createKey from './createKey.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as revokeKey from './revokeKey.operation';
import * as update from './update.operation';

const operation = operationSelector(
	'serviceAccount',
	[
		{
			name: 'Create',
			value: 'create',
			description:
				'Create a service account with its API key: a user of its own for a workflow, which sees only what you share with it',
			action: 'Create a service account',
		},
		{
			name: 'Create New Key',
			value: 'createKey',
			description: 'Replace the API key of a service account (the old key stops working)',
			action: 'Create a new key for a service account',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a service account permanently',
			action: 'Delete a service account',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get a service account (without its key)',
			action: 'Get a service account',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the service accounts of the user of the API key',
			action: 'Get many service accounts',
		},
		{
			name: 'Revoke Key',
			value: 'revokeKey',
			description: 'Take the API key away from a service account (it keeps its access)',
			action: 'Revoke the key of a service account',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change the label, description or expiry date of a service account',
			action: 'Update a service account',
		},
	],
	'getAll',
);

export const serviceAccount = resourceModule(
	{
		name: 'Service Account',
		value: 'serviceAccount',
		description: 'A user of its own for a workflow, with its own API key',
	},
	operation,
	{ create, createKey, delete: del, get, getAll, revokeKey, update },
);
