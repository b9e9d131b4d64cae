import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { documentLocator, locatorValue } from '../common.descriptions';
import { attachmentId, attachmentIdField } from './shared';

const properties: INodeProperties[] = [documentLocator, attachmentIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['get'] } },
	properties,
);

/** GET /api/docs/{doc}/attachments/{id}: file name, size and upload time. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const docId = locatorValue.call(this, 'document', i);
		const id = attachmentId.call(this, i);
		const meta = await client.request<IDataObject>({
			method: 'GET',
			path: client.path('docs', { value: docId, label: 'document ID' }, 'attachments', id),
			what: `attachment ${id} of document "${docId}"`,
			itemIndex: i,
		});
		return { id, ...meta };
	});
}
