import type { INodeProperties } from 'n8n-workflow';

import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { accessUpdateFields, readAccessDelta } from '../../parameters/accessUsers';
import { updateAccess } from '../../api/access';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [optionalOrgLocator, ...accessUpdateFields('org')];

export const description = operationDescription('org', 'updateAccess', properties);

/** PATCH /api/orgs/{org}/access with `{ delta: { users } }`. */
export const execute = perItem(async function (client, itemIndex) {
	const body = readAccessDelta.call(this, 'org', itemIndex);
	const key = await orgKeyValue.call(this, client, itemIndex);
	await updateAccess(client, { kind: 'org', key }, body, itemIndex);
	return { updated: true, ...body.delta };
});
