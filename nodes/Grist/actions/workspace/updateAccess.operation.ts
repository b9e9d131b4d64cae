import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { buildAccessDelta } from '../../helpers/access';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { accessUpdateFields, accessUpdateInput } from '../../parameters/access';
import { toNodeError } from '../../errors';
import { updateAccess } from '../../transport/api';

const properties: INodeProperties[] = [workspaceLocator, ...accessUpdateFields('workspace')];

export const description = operationDescription('workspace', 'updateAccess', properties);

/** PATCH /api/workspaces/{wid}/access with `{ delta: { users?, maxInheritedRole? } }`. */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	let body;
	try {
		const input = accessUpdateInput.call(this, 'workspace', itemIndex);
		body = buildAccessDelta('workspace', input.rows, input.maxInheritedRole);
	} catch (error) {
		throw toNodeError(this.getNode(), error, { itemIndex });
	}
	await updateAccess(client, { kind: 'workspace', wid }, body, itemIndex);
	return { updated: true, ...body.delta };
});
