import type { INodeProperties } from 'n8n-workflow';

import { documentIdValue, documentLocator } from '../../parameters/locators';
import { getAttachmentTransferStatus } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';
import { transferOutput } from './transferOutput';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('attachment', 'getTransferStatus', properties);

/** GET /api/docs/{doc}/attachments/transferStatus: the moves between stores, and where the files are. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	return transferOutput(docId, await getAttachmentTransferStatus(client, docId, itemIndex));
});
