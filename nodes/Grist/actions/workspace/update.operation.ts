import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { getWorkspace, updateWorkspace } from '../../api/workspaces';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { readName } from '../../parameters/name';

const properties: INodeProperties[] = [
	workspaceLocator,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'The new name of the workspace (needs the Owner role)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['update'] } },
	properties,
);

/** PATCH /api/workspaces/{wid} with the new name, then returns the workspace as it is now. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		const name = readName.call(this, itemIndex, 'Enter the new name of the workspace.');
		await updateWorkspace(client, wid, { name }, itemIndex);
		return await getWorkspace(client, wid, itemIndex);
	});
}
