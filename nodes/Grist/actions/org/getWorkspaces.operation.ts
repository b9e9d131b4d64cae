import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { documentsOfWorkspaces, listOrgWorkspaces } from '../../api/orgs';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	optionalOrgLocator,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Workspace',
				value: 'workspace',
				description: 'Each workspace with its documents in a "docs" list',
			},
			{
				name: 'One Item per Document',
				value: 'document',
				description: 'Each document with its workspace (ID and name) in "workspace"',
			},
		],
		default: 'workspace',
	},
];

export const description = operationDescription('org', 'getWorkspaces', properties);

/** GET /api/orgs/{org}/workspaces: the workspaces the key can see, with their documents. */
export const execute = perItem(async function (client, itemIndex) {
	const key = await orgKeyValue.call(this, client, itemIndex);
	const output = itemParameter.call(this, 'output', itemIndex, 'workspace') as string;
	const workspaces = await listOrgWorkspaces(client, key, itemIndex);
	return output === 'document' ? documentsOfWorkspaces(workspaces) : workspaces;
});
