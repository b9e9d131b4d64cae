import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { getDocument } from '../../api/documents';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('document', 'get', properties);

/** GET /api/docs/{docId}: the document with its workspace and org. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	return await getDocument(client, docId, itemIndex);
});
