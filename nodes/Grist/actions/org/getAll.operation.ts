import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { limitFields, applyLimit } from '../common.descriptions';

const properties: INodeProperties[] = [...limitFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['getAll'] } },
	properties,
);

/** GET /api/orgs: the organizations (sites) the API key can see. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const orgs = await client.request<IDataObject[]>({
			method: 'GET',
			path: client.path('orgs'),
			what: 'the list of organizations',
			itemIndex: i,
		});
		return applyLimit(this, orgs, i);
	});
}
