import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { createWorkspace, getWorkspace } from '../../api/workspaces';
import { nameField } from '../../parameters/commonFields';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';
import { readName } from '../../parameters/name';

const properties: INodeProperties[] = [
	optionalOrgLocator,
	nameField('The name of the new workspace'),
];

export const description = operationDescription('workspace', 'create', properties);

/** POST /api/orgs/{org}/workspaces, then returns the new workspace (not just its id). */
export const execute = perItem(async function (client, itemIndex) {
	const name = readName.call(this, itemIndex, 'Enter the name of the new workspace.');
	const key = await orgKeyValue.call(this, client, itemIndex);
	const wid = await createWorkspace(client, key, { name }, itemIndex);
	return await getWorkspace(client, wid, itemIndex);
});
