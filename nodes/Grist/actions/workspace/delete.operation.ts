import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { deleteWorkspace } from '../../api/workspaces';

const properties: INodeProperties[] = [
	{
		displayName:
			'Deleting a workspace permanently deletes every document in it. This cannot be undone.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	workspaceLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['delete'] } },
	properties,
);

/** DELETE /api/workspaces/{wid}: permanent, with all its documents (needs the Owner role). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		await deleteWorkspace(client, wid, itemIndex);
		return { deleted: true };
	});
}
