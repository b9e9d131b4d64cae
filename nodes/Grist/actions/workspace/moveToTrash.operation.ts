import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { moveToTrash } from '../../api/trash';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	{
		displayName:
			"Moves the workspace and its documents to Grist's trash, from where Restore brings them back. Delete removes a workspace permanently instead.",
		name: 'trashNotice',
		type: 'notice',
		default: '',
	},
	workspaceLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['moveToTrash'] } },
	properties,
);

/** POST /api/workspaces/{wid}/remove (Grist's soft delete; needs the Owner role). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		await moveToTrash(client, { kind: 'workspace', wid }, itemIndex);
		return { id: wid, inTrash: true };
	});
}
