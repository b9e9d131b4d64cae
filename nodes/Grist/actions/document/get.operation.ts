import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { documentIdValue, documentLocator } from '../common.descriptions';

const properties: INodeProperties[] = [documentLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['get'] } },
	properties,
);

/** GET /api/docs/{docId}: the document with its workspace and org. */
export async function fetchDocument(client: GristClient, docId: string, itemIndex: number): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: docPath(client, docId),
		what: `document "${docId}"`,
		itemIndex,
	});
}

export function docPath(client: GristClient, docId: string, ...rest: string[]): string {
	return client.path('docs', { value: docId, label: 'document ID' }, ...rest);
}

export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const docId = documentIdValue.call(this, i);
		return await fetchDocument(client, docId, i);
	});
}
