import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { optionalOrgLocator, orgKeyValue } from '../common.descriptions';

const properties: INodeProperties[] = [optionalOrgLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['get'] } },
	properties,
);

/** GET /api/orgs/{org} for one organization. */
export async function fetchOrg(client: GristClient, key: string | number, itemIndex: number): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: client.path('orgs', { value: key, label: 'organization' }),
		what: `organization "${key}"`,
		itemIndex,
	});
}

export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const key = await orgKeyValue.call(this, client, i);
		return await fetchOrg(client, key, i);
	});
}
