import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessItems, type AccessListing } from '../../helpers/access';
import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { optionalOrgLocator, orgKeyValue } from '../common.descriptions';

const properties: INodeProperties[] = [optionalOrgLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['getAccess'] } },
	properties,
);

/** GET /api/orgs/{org}/access: one item per user. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const key = await orgKeyValue.call(this, client, i);
		const listing = await client.request<AccessListing>({
			method: 'GET',
			path: client.path('orgs', { value: key, label: 'organization' }, 'access'),
			what: `organization "${key}"`,
			itemIndex: i,
		});
		return accessItems('org', listing);
	});
}
