import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessItems, type AccessListing } from '../../helpers/access';
import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { documentIdValue, documentLocator } from '../common.descriptions';
import { docPath } from './get.operation';

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
	return await forEachItem.call(this, items, async (i) => {
		const docId = documentIdValue.call(this, i);
		const listing = await client.request<AccessListing>({
			method: 'GET',
			path: docPath(client, docId, 'access'),
			what: `document "${docId}"`,
			itemIndex: i,
		});
		return accessItems('document', listing);
	});
}
