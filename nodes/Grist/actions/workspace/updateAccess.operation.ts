import type { INodeProperties } from 'n8n-workflow';

import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { accessUpdateFields, readAccessDelta } from '../../parameters/accessUsers';
import { updateAccess } from '../../api/access';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [workspaceLocator, ...accessUpdateFields('workspace')];

export const description = operationDescription('workspace', 'updateAccess', properties);

/** PATCH /api/workspaces/{wid}/access with `{ delta: { users?, maxInheritedRole? } }`. */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const body = readAccessDelta.call(this, 'workspace', itemIndex);
	await updateAccess(client, { kind: 'workspace', wid }, body, itemIndex);
	return { updated: true, ...body.delta };
});
