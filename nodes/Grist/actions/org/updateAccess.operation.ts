import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { buildAccessDelta } from '../../helpers/access';
import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import {
	accessUpdateFields,
	accessUpdateInput,
	asInputError,
	optionalOrgLocator,
	orgKeyValue,
	patchAccess,
} from '../common.descriptions';

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
	return await forEachItem.call(this, items, async (i) => {
		let body;
		try {
			const input = accessUpdateInput.call(this, 'org', i);
			body = buildAccessDelta('org', input.rows);
		} catch (error) {
			throw asInputError.call(this, error, i);
		}
		const key = await orgKeyValue.call(this, client, i);
		return await patchAccess(client, client.path('orgs', { value: key, label: 'organization' }, 'access'), body, `organization "${key}"`, i);
	});
}
