import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { getWorkspace } from '../../api/workspaces';

const properties: INodeProperties[] = [workspaceLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['get'] } },
	properties,
);

/** GET /api/workspaces/{wid}: the workspace with its documents and org. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		return await getWorkspace(client, wid, itemIndex);
	});
}
