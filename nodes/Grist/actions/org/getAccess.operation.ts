import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessItems } from '../../documents/roles';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { getAccess } from '../../transport/api';

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
	return await forEachItem.call(this, items, async (itemIndex) => {
		const key = await orgKeyValue.call(this, client, itemIndex);
		const listing = await getAccess(client, { kind: 'org', key }, itemIndex);
		return accessItems('org', listing);
	});
}
