import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { flattenAttachmentRecord } from './attachmentFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { limitFields, readLimit } from '../../parameters/limit';
import { listAttachments } from '../../transport/api';

const properties: INodeProperties[] = [documentLocator, ...limitFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['getAll'] } },
	properties,
);

/** GET /api/docs/{doc}/attachments (with `limit` unless Return All): one item per attachment. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const limit = readLimit.call(this, itemIndex); // 0 for Return All; a bad Limit fails naming it
		const qs: IDataObject = {};
		if (limit > 0) qs.limit = limit;
		const records = await listAttachments(client, docId, qs, itemIndex);
		// Grist applies the limit; cut again in case a server ignores it.
		return (limit > 0 ? records.slice(0, limit) : records).map(flattenAttachmentRecord);
	});
}
