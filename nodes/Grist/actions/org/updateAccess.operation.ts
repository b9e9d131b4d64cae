import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { buildAccessDelta } from '../../documents/roles';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { accessUpdateFields, accessUpdateInput } from '../../parameters/accessUsers';
import { toNodeError } from '../../errors/nodeErrors';
import { updateAccess } from '../../transport/api';

const properties: INodeProperties[] = [optionalOrgLocator, ...accessUpdateFields('org')];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['updateAccess'] } },
	properties,
);

/** PATCH /api/orgs/{org}/access with `{ delta: { users } }`. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		let body;
		try {
			const input = accessUpdateInput.call(this, 'org', itemIndex);
			body = buildAccessDelta('org', input.rows);
		} catch (error) {
			throw toNodeError(this.getNode(), error, { itemIndex });
		}
		const key = await orgKeyValue.call(this, client, itemIndex);
		await updateAccess(client, { kind: 'org', key }, body, itemIndex);
		return { updated: true, ...body.delta };
	});
}
