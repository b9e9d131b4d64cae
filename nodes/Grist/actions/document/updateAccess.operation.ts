import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { buildAccessDelta } from '../../documents/roles';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { updateAccess } from '../../transport/api';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { accessUpdateFields, accessUpdateInput } from '../../parameters/accessUsers';
import { toNodeError } from '../../errors/nodeErrors';

const properties: INodeProperties[] = [documentLocator, ...accessUpdateFields('document')];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['updateAccess'] } },
	properties,
);

/** PATCH /api/docs/{docId}/access with `{ delta: { users?, maxInheritedRole? } }`. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		let body;
		try {
			const input = accessUpdateInput.call(this, 'document', itemIndex);
			body = buildAccessDelta('document', input.rows, input.maxInheritedRole);
		} catch (error) {
			throw toNodeError(this.getNode(), error, { itemIndex });
		}
		await updateAccess(client, { kind: 'document', docId }, body, itemIndex);
		return { updated: true, ...body.delta };
	});
}
