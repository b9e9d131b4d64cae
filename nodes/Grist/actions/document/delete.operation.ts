import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { deleteDocument } from '../../api/documents';
import { noticeField } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'deleteNotice',
		'Deleting a document is permanent, including its forks and attachments',
	),
	documentLocator,
];

export const description = operationDescription('document', 'delete', properties);

/** DELETE /api/docs/{docId} (needs the Owner role). */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	await deleteDocument(client, docId, itemIndex);
	return { deleted: true };
});
