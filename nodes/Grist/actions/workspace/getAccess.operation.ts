import type { INodeProperties } from 'n8n-workflow';
import { operationDescription, perItem } from '../operationFrame';
import { accessItems } from '../../helpers/access';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { getAccess } from '../../api/access';

const properties: INodeProperties[] = [workspaceLocator];

export const description = operationDescription('workspace', 'getAccess', properties);

/** GET /api/workspaces/{wid}/access: one item per user, with the workspace's maxInheritedRole. */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const listing = await getAccess(client, { kind: 'workspace', wid }, itemIndex);
	return accessItems('workspace', listing);
});
