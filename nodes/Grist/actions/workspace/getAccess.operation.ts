import type { INodeProperties } from 'n8n-workflow';

import { accessItems } from '../../documents/roles';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { getAccess } from '../../api/access';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [workspaceLocator];

export const description = operationDescription('workspace', 'getAccess', properties);

/** GET /api/workspaces/{wid}/access: one item per user, with the workspace's maxInheritedRole. */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const listing = await getAccess(client, { kind: 'workspace', wid }, itemIndex);
	return accessItems('workspace', listing);
});
