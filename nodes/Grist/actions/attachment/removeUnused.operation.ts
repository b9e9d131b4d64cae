import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { documentIdValue, documentLocator } from '../../parameters/locators';
import { itemParameterValue } from '../../parameters/read';
import { noticeField, optionsCollection } from '../../parameters/commonFields';
import { listAttachments, removeUnusedAttachments } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [
	noticeField(
		'removeUnusedNotice',
		'Deletes, permanently, the attachments that no cell of the document refers to (Grist does it by itself for those unused for 7 days).',
	),
	documentLocator,
	optionsCollection([
		{
			displayName: 'Only Unused for 7 Days',
			name: 'expiredOnly',
			type: 'boolean',
			default: false,
			description:
				'Whether to delete only the attachments that have been unused for 7 days, as Grist does by itself',
		},
		{
			displayName: 'Verify Files',
			name: 'verifyFiles',
			type: 'boolean',
			default: false,
			description:
				"Whether Grist checks afterwards that the document's stored files match its attachments exactly (an error if not)",
		},
	]),
];

export const description = operationDescription('attachment', 'removeUnused', properties);

/** Attachment id → what the output says of it. */
async function attachmentsById(
	client: Parameters<typeof listAttachments>[0],
	docId: string,
	itemIndex: number,
): Promise<Map<number, IDataObject>> {
	const list = await listAttachments(client, docId, {}, itemIndex);
	return new Map(list.map((a) => [a.id, { id: a.id, ...(a.fields ?? {}) }]));
}

/**
 * POST /api/docs/{doc}/attachments/removeUnused (owners): Grist deletes the attachments no cell
 * refers to, and the files left without an attachment. The attachments are listed before and
 * after, so that the output names the ones removed.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (options.expiredOnly === true) qs.expiredonly = 1;
	if (options.verifyFiles === true) qs.verifyfiles = 1;
	const before = await attachmentsById(client, docId, itemIndex);
	await removeUnusedAttachments(client, docId, qs, itemIndex);
	const after = await attachmentsById(client, docId, itemIndex);
	const removed = [...before.values()].filter((a) => !after.has(a.id as number));
	return {
		documentId: docId,
		removedCount: removed.length,
		removed,
		remainingCount: after.size,
	};
});
