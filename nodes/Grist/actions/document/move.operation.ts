import type { INodeProperties } from 'n8n-workflow';

import { getDocument, moveDocument } from '../../api/documents';
import { withHint } from '../../errors/hints';
import {
	documentIdValue,
	documentLocator,
	destinationWorkspaceId,
	destinationWorkspaceLocator,
} from '../../parameters/locators';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [
	documentLocator,
	destinationWorkspaceLocator(
		'The workspace to move the document to (it may be in another site you own)',
	),
];

export const description = operationDescription('document', 'move', properties);

/** PATCH /api/docs/{docId}/move `{ workspace }`, then returns the document in its new place. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const wid = destinationWorkspaceId.call(this, itemIndex);
	try {
		await moveDocument(client, docId, wid, itemIndex);
	} catch (error) {
		throw withHint(error, 'document.move', { workspace: wid });
	}
	return await getDocument(client, docId, itemIndex);
});
