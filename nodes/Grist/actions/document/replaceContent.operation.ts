import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { replaceDocumentContent } from '../../api/forks';
import { withHint } from '../../errors/hints';
import { noticeField } from '../../parameters/commonFields';
import {
	documentIdValue,
	documentLocator,
	otherDocumentIdValue,
	otherDocumentLocator,
	snapshotIdValue,
	snapshotLocator,
} from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	noticeField(
		'replaceNotice',
		"Overwrites the document's tables, data and history with another document's (e.g. promote a fork) or with a snapshot (restore). Its ID, name and sharing stay. Needs the Owner role.",
	),
	{ ...documentLocator, description: 'The document whose content is replaced' },
	{
		displayName: 'Replace With',
		name: 'replaceWith',
		type: 'options',
		options: [
			{
				name: 'Another Document',
				value: 'document',
				description: 'A fork of this document (to promote its changes) or another document',
			},
			{
				name: 'A Snapshot',
				value: 'snapshot',
				description:
					'A saved version of this document, to restore it (needs a Grist server with snapshot storage)',
			},
		],
		default: 'document',
	},
	{
		...otherDocumentLocator(
			'Source Document',
			'sourceDocument',
			'The document whose content is copied in (you need to be allowed to download it)',
		),
		displayOptions: { show: { replaceWith: ['document'] } },
	},
	{ ...snapshotLocator, displayOptions: { show: { replaceWith: ['snapshot'] } } },
];

export const description = operationDescription('document', 'replaceContent', properties);

/** POST /api/docs/{docId}/replace `{sourceDocId}` or `{snapshotId}`. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	if (itemParameter.call(this, 'replaceWith', itemIndex, 'document') === 'snapshot') {
		const snapshotId = snapshotIdValue.call(this, itemIndex);
		try {
			await replaceDocumentContent(client, docId, { snapshotId }, itemIndex);
		} catch (error) {
			throw withHint(error, 'document.replaceContent', { docId, snapshotId });
		}
		return { docId, replaced: true, snapshotId };
	}
	const sourceDocId = otherDocumentIdValue.call(
		this,
		'sourceDocument',
		'Source Document',
		itemIndex,
	);
	try {
		await replaceDocumentContent(client, docId, { sourceDocId }, itemIndex);
	} catch (error) {
		throw withHint(error, 'document.replaceContent', { docId, otherDocId: sourceDocId });
	}
	return { docId, replaced: true, sourceDocId };
});
