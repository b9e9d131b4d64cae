import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAccess from './getAccess.operation';
import * as moveToTrash from './moveToTrash.operation';
import * as restore from './restore.operation';
import * as update from './update.operation';
import * as updateAccess from './updateAccess.operation';

const operation = operationSelector(
	'workspace',
	[
		{
			name: 'Create',
			value: 'create',
			description: 'Create a workspace in an organization',
			action: 'Create a workspace',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a workspace permanently, with all its documents (no trash, no undo)',
			action: 'Delete a workspace',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get a workspace with its documents',
			action: 'Get a workspace',
		},
		{
			name: 'Get Access',
			value: 'getAccess',
			description: 'List the users with access to a workspace, one item per user',
			action: 'Get access of a workspace',
		},
		{
			name: 'Move to Trash',
			value: 'moveToTrash',
			description: "Move a workspace and its documents to Grist's trash (Restore brings them back)",
			action: 'Move a workspace to the trash',
		},
		{
			name: 'Restore',
			value: 'restore',
			description: "Bring a workspace back from Grist's trash",
			action: 'Restore a workspace from the trash',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Rename a workspace',
			action: 'Update a workspace',
		},
		{
			name: 'Update Access',
			value: 'updateAccess',
			description:
				"Add, change or remove users' roles and the inherited-role ceiling of a workspace",
			action: 'Update access of a workspace',
		},
	],
	'get',
);

export const workspace = resourceModule(
	{ name: 'Workspace', value: 'workspace', description: 'A folder of documents in a site' },
	operation,
	{ create, delete: del, get, getAccess, moveToTrash, restore, update, updateAccess },
);
