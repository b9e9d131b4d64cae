import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { getDocument } from '../../api/documents';

const properties: INodeProperties[] = [documentLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['get'] } },
	properties,
);

/** GET /api/docs/{docId}: the document with its workspace and org. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		return await getDocument(client, docId, itemIndex);
	});
}
