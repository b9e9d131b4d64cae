import type { INodeProperties } from 'n8n-workflow';

import { documentIdValue, documentLocator } from '../../parameters/locators';
import { transferAllAttachments } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';
import { transferOutput } from './transferOutput';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('attachment', 'transferAll', properties);

/**
 * POST /api/docs/{doc}/attachments/transferAll (owners): Grist starts moving every file to the
 * document's store (Set Store) in the background and answers the status at once; Get Transfer
 * Status follows it.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	return transferOutput(docId, await transferAllAttachments(client, docId, itemIndex));
});
