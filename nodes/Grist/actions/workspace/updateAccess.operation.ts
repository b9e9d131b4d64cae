import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { buildAccessDelta } from '../../documents/roles';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { accessUpdateFields, accessUpdateInput } from '../../parameters/accessUsers';
import { toNodeError } from '../../errors/nodeErrors';
import { updateAccess } from '../../transport/api';

const properties: INodeProperties[] = [workspaceLocator, ...accessUpdateFields('workspace')];

export const description = updateDisplayOptions(
	{ show: { resource: ['workspace'], operation: ['updateAccess'] } },
	properties,
);

/** PATCH /api/workspaces/{wid}/access with `{ delta: { users?, maxInheritedRole? } }`. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
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
}
