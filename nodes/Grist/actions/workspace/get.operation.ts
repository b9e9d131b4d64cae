import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { getWorkspace } from '../../api/workspaces';

const properties: INodeProperties[] = [workspaceLocator];

export const description = operationDescription('workspace', 'get', properties);

/** GET /api/workspaces/{wid}: the workspace with its documents and org. */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	return await getWorkspace(client, wid, itemIndex);
});
