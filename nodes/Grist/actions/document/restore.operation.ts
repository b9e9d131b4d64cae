import type { INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getDocument } from '../../api/documents';
import { getTrashedDocument, restoreFromTrash } from '../../api/trash';
import { noticeField } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'restoreNotice',
		"Brings a document back from Grist's trash. Documents in the trash are not in the list: enter the ID (Move to Trash outputs it).",
	),
	documentLocator,
];

export const description = operationDescription('document', 'restore', properties);

/**
 * GET /api/docs/{docId}?showRemoved=1 (is it in the trash? Grist's unremove would silently
 * succeed otherwise), POST /api/docs/{docId}/unremove, then returns the document.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const inTrash = await getTrashedDocument(client, docId, itemIndex).then(
		() => true,
		(error: unknown) => {
			if (error instanceof NodeApiError && error.httpCode === '404') return false;
			throw error;
		},
	);
	if (!inTrash) {
		const active = await getDocument(client, docId, itemIndex).then(
			() => true,
			() => false,
		);
		throw new NodeOperationError(
			this.getNode(),
			active
				? `The document "${docId}" is not in the trash (item ${itemIndex})`
				: `The document "${docId}" is not in the trash and was not found (item ${itemIndex})`,
			{
				description: active
					? 'It is an active document already: nothing to restore.'
					: 'Check the Document ID; a document deleted permanently (Delete, or emptied from the trash) cannot be restored.',
				itemIndex,
			},
		);
	}
	await restoreFromTrash(client, { kind: 'document', docId }, itemIndex);
	return await getDocument(client, docId, itemIndex);
});
