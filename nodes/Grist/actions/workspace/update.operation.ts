import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getWorkspace, updateWorkspace } from '../../api/workspaces';
import { nameField } from '../../parameters/commonFields';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { readName } from '../../parameters/name';

const properties: INodeProperties[] = [
	workspaceLocator,
	nameField('The new name of the workspace (needs the Owner role)'),
];

export const description = operationDescription('workspace', 'update', properties);

/** PATCH /api/workspaces/{wid} with the new name, then returns the workspace as it is now. */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const name = readName.call(this, itemIndex, 'Enter the new name of the workspace.');
	await updateWorkspace(client, wid, { name }, itemIndex);
	return await getWorkspace(client, wid, itemIndex);
});
