import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { buildAccessDelta } from '../../helpers/access';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { accessUpdateFields, accessUpdateInput } from '../../parameters/access';
import { toNodeError } from '../../errors';
import { updateAccess } from '../../transport/api';

const properties: INodeProperties[] = [optionalOrgLocator, ...accessUpdateFields('org')];

export const description = operationDescription('org', 'updateAccess', properties);

/** PATCH /api/orgs/{org}/access with `{ delta: { users } }`. */
export const execute = perItem(async function (client, itemIndex) {
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
