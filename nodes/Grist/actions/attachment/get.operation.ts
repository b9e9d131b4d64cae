import type { INodeProperties } from 'n8n-workflow';

import { attachmentId, attachmentIdField } from './attachmentFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { getAttachment } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator, attachmentIdField];

export const description = operationDescription('attachment', 'get', properties);

/** GET /api/docs/{doc}/attachments/{id}: file name, size and upload time. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const id = attachmentId.call(this, itemIndex);
	const meta = await getAttachment(client, docId, id, itemIndex);
	return { id, ...meta };
});
