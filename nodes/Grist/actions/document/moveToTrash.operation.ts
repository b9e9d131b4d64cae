import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { moveToTrash } from '../../api/trash';
import { noticeField } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'trashNotice',
		"Moves the document to Grist's trash, from where Restore brings it back (Grist empties the trash after a while). Delete removes a document permanently instead.",
	),
	documentLocator,
];

export const description = operationDescription('document', 'moveToTrash', properties);

/** POST /api/docs/{docId}/remove (Grist's soft delete; needs the Owner role). */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	await moveToTrash(client, { kind: 'document', docId }, itemIndex);
	return { id: docId, inTrash: true };
});
