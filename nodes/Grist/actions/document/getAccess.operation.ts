import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessItems } from '../../documents/roles';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { getAccess } from '../../transport/api';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [documentLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['getAccess'] } },
	properties,
);

/** GET /api/docs/{docId}/access: one item per user, with the document's maxInheritedRole. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const listing = await getAccess(client, { kind: 'document', docId }, itemIndex);
		return accessItems('document', listing);
	});
}
