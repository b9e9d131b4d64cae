import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { applyLimit, limitFields } from '../../parameters/limit';
import { listOrgs } from '../../api/orgs';

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
	return await forEachItem.call(this, items, async (itemIndex) => {
		const orgs = await listOrgs(client, itemIndex);
		return applyLimit(this, orgs, itemIndex);
	});
}
