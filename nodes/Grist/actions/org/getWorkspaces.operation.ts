import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
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

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['getWorkspaces'] } },
	properties,
);

/** GET /api/orgs/{org}/workspaces: the workspaces the key can see, with their documents. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const key = await orgKeyValue.call(this, client, itemIndex);
		const output = itemParameter.call(this, 'output', itemIndex, 'workspace') as string;
		const workspaces = await listOrgWorkspaces(client, key, itemIndex);
		return output === 'document' ? documentsOfWorkspaces(workspaces) : workspaces;
	});
}
