import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getOrg, updateOrg } from '../../api/orgs';
import { nameField } from '../../parameters/commonFields';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { readName } from '../../parameters/name';

const properties: INodeProperties[] = [
	optionalOrgLocator,
	nameField('The new name of the organization (needs the Owner role)'),
];

export const description = operationDescription('org', 'update', properties);

/** PATCH /api/orgs/{org} with the new name, then returns the organization as it is now. */
export const execute = perItem(async function (client, itemIndex) {
	const name = readName.call(this, itemIndex, 'Enter the new name of the organization.');
	const key = await orgKeyValue.call(this, client, itemIndex);
	await updateOrg(client, key, { name }, itemIndex);
	return await getOrg(client, key, itemIndex);
});
