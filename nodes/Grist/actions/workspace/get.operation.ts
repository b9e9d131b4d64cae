import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { workspaceIdValue, workspaceLocator } from '../common.descriptions';

const properties: INodeProperties[] = [workspaceLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['get'] } },
	properties,
);

/** GET /api/workspaces/{wid}: the workspace with its documents and org. */
export async function fetchWorkspace(client: GristClient, wid: number, itemIndex: number): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: client.path('workspaces', { value: wid, label: 'workspace ID' }),
		what: `workspace ${wid}`,
		itemIndex,
	});
}

export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const wid = workspaceIdValue.call(this, 'workspace', i);
		return await fetchWorkspace(client, wid, i);
	});
}
