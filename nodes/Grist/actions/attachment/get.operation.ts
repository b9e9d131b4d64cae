import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { attachmentId, attachmentIdField } from './attachmentFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { getAttachment } from '../../transport/api';

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
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const id = attachmentId.call(this, itemIndex);
		const meta = await getAttachment(client, docId, id, itemIndex);
		return { id, ...meta };
	});
}
