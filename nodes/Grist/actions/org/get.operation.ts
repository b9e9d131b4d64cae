import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { getOrg } from '../../api/orgs';

const properties: INodeProperties[] = [optionalOrgLocator];

export const description = operationDescription('org', 'get', properties);

/** GET /api/orgs/{org} for one organization. */
export const execute = perItem(async function (client, itemIndex) {
	const key = await orgKeyValue.call(this, client, itemIndex);
	return await getOrg(client, key, itemIndex);
});
