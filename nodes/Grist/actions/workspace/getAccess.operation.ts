import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessItems, type AccessListing } from '../../helpers/access';
import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { workspaceIdValue, workspaceLocator } from '../common.descriptions';

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
	return await forEachItem.call(this, items, async (i) => {
		const wid = workspaceIdValue.call(this, 'workspace', i);
		const listing = await client.request<AccessListing>({
			method: 'GET',
			path: client.path('workspaces', { value: wid, label: 'workspace ID' }, 'access'),
			what: `workspace ${wid}`,
			itemIndex: i,
		});
		return accessItems('workspace', listing);
	});
}
