import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { documentIdValue, documentLocator } from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';
import {
	listAttachmentStores,
	setAttachmentStore,
	type AttachmentStoreType,
} from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Store',
		name: 'storeType',
		type: 'options',
		options: [
			{
				name: 'External',
				value: 'external',
				description:
					'The external store the Grist server is set up with (e.g. S3); Get Stores shows whether it has one',
			},
			{ name: 'Internal', value: 'internal', description: 'Inside the document file' },
		],
		default: 'internal',
		description:
			'Where the files of new attachments go; Transfer All moves the existing ones there afterwards',
	},
];

export const description = operationDescription('attachment', 'setStore', properties);

/** The error for External on a server without an external store (Grist would accept it). */
function noExternalStore(this: IExecuteFunctions, docId: string, itemIndex: number) {
	return new NodeOperationError(
		this.getNode(),
		`This Grist server has no external attachment store (item ${itemIndex})`,
		{
			description: `Grist would accept the setting, and every later upload to document "${docId}" would then fail with "Store … is not a valid and available store". A Grist server gets an external store from its admin (GRIST_EXTERNAL_ATTACHMENTS_MODE=snapshots with S3 or MinIO document storage set up); until then keep Store: Internal.`,
			itemIndex,
		},
	);
}

/**
 * POST /api/docs/{doc}/attachments/store `{type}` (owners). Grist accepts External even when the
 * server has no external store, and uploads fail afterwards: the server's stores are read first
 * (GET …/stores) and External is refused when there is none.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const type = itemParameter.call(this, 'storeType', itemIndex, 'internal') as AttachmentStoreType;
	if (type !== 'internal' && type !== 'external') {
		throw new NodeOperationError(
			this.getNode(),
			`The Store of item ${itemIndex} must be internal or external, not ${JSON.stringify(type)}`,
			{ description: 'Pick Internal or External from the list.', itemIndex },
		);
	}
	if (type === 'external') {
		const { stores } = await listAttachmentStores(client, docId, itemIndex);
		if (!Array.isArray(stores) || stores.length === 0)
			throw noExternalStore.call(this, docId, itemIndex);
	}
	const answer = await setAttachmentStore(client, docId, type, itemIndex);
	return { documentId: docId, type, storeId: answer?.store ?? null };
});
