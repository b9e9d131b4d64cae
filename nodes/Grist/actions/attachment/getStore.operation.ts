import type { INodeProperties } from 'n8n-workflow';

import { documentIdValue, documentLocator } from '../../parameters/locators';
import { getAttachmentStore } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('attachment', 'getStore', properties);

/**
 * GET /api/docs/{doc}/attachments/store: where the document keeps the files of new attachments,
 * `internal` (inside the document) or `external` (a store the server is set up with).
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const { type } = await getAttachmentStore(client, docId, itemIndex);
	return { documentId: docId, type };
});
