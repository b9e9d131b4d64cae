import type { INodeProperties } from 'n8n-workflow';

import { accessItems } from '../../documents/roles';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { getAccess } from '../../api/access';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [optionalOrgLocator];

export const description = operationDescription('org', 'getAccess', properties);

/** GET /api/orgs/{org}/access: one item per user. */
export const execute = perItem(async function (client, itemIndex) {
	const key = await orgKeyValue.call(this, client, itemIndex);
	const listing = await getAccess(client, { kind: 'org', key }, itemIndex);
	return accessItems('org', listing);
});
