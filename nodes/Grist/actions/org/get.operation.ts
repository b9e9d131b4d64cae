import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { getOrg } from '../../api/orgs';

const properties: INodeProperties[] = [optionalOrgLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['get'] } },
	properties,
);

/** GET /api/orgs/{org} for one organization. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const key = await orgKeyValue.call(this, client, itemIndex);
		return await getOrg(client, key, itemIndex);
	});
}
