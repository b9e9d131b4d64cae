import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { getOrg, updateOrg } from '../../api/orgs';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { readName } from '../../parameters/name';

const properties: INodeProperties[] = [
	optionalOrgLocator,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'The new name of the organization (needs the Owner role)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['update'] } },
	properties,
);

/** PATCH /api/orgs/{org} with the new name, then returns the organization as it is now. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const name = readName.call(this, itemIndex, 'Enter the new name of the organization.');
		const key = await orgKeyValue.call(this, client, itemIndex);
		await updateOrg(client, key, { name }, itemIndex);
		return await getOrg(client, key, itemIndex);
	});
}
