import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessItems } from '../../documents/roles';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { getAccess } from '../../transport/api';

const properties: INodeProperties[] = [workspaceLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['getAccess'] } },
	properties,
);

/** GET /api/workspaces/{wid}/access: one item per user, with the workspace's maxInheritedRole. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		const listing = await getAccess(client, { kind: 'workspace', wid }, itemIndex);
		return accessItems('workspace', listing);
	});
}
