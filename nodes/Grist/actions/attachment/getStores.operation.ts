import type { INodeProperties } from 'n8n-workflow';

import { documentIdValue, documentLocator } from '../../parameters/locators';
import { listAttachmentStores } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('attachment', 'getStores', properties);

/**
 * GET /api/docs/{doc}/attachments/stores (owners): the external stores the Grist server is set up
 * with, by label; none when it keeps every file inside the documents. One output item, the labels
 * in `stores`, so that "none" is an answer too.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const answer = await listAttachmentStores(client, docId, itemIndex);
	const stores = (Array.isArray(answer?.stores) ? answer.stores : []).map((s) => s.label);
	return { documentId: docId, stores, externalAvailable: stores.length > 0 };
});
