import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { createWorkspace, getWorkspace } from '../../api/workspaces';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { readName } from '../../parameters/name';

const properties: INodeProperties[] = [
	optionalOrgLocator,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'The name of the new workspace',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['create'] } },
	properties,
);

/** POST /api/orgs/{org}/workspaces, then returns the new workspace (not just its id). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const name = readName.call(this, itemIndex, 'Enter the name of the new workspace.');
		const key = await orgKeyValue.call(this, client, itemIndex);
		const wid = await createWorkspace(client, key, { name }, itemIndex);
		return await getWorkspace(client, wid, itemIndex);
	});
}
