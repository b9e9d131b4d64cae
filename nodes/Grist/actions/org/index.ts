import { operationSelector, resourceModule } from '../operationFrame';
import * as get from './get.operation';
import * as getAccess from './getAccess.operation';
import * as getAll from './getAll.operation';
import * as getUsage from './getUsage.operation';
import * as getWorkspaces from './getWorkspaces.operation';
import * as update from './update.operation';
import * as updateAccess from './updateAccess.operation';

const operation = operationSelector(
	'org',
	[
		{
			name: 'Get',
			value: 'get',
			description: 'Get an organization',
			action: 'Get an organization',
		},
		{
			name: 'Get Access',
			value: 'getAccess',
			description: 'List the users with access to an organization, one item per user',
			action: 'Get access of an organization',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the organizations (team sites and personal sites) the API key can see',
			action: 'Get many organizations',
		},
		{
			name: 'Get Usage',
			value: 'getUsage',
			description:
				"An organization's documents near or over their plan's limits, and the attachments' total size (owners only)",
			action: 'Get usage of an organization',
		},
		{
			name: 'Get Workspaces',
			value: 'getWorkspaces',
			description: 'List the workspaces of an organization with their documents',
			action: 'Get workspaces of an organization',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Rename an organization',
			action: 'Update an organization',
		},
		{
			name: 'Update Access',
			value: 'updateAccess',
			description: 'Add, change or remove the roles of users in an organization',
			action: 'Update access of an organization',
		},
	],
	'getAll',
);

export const org = resourceModule(
	{ name: 'Organization', value: 'org', description: 'A Grist site: personal or team' },
	operation,
	{ get, getAccess, getAll, getUsage, getWorkspaces, update, updateAccess },
);
