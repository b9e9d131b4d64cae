import type { INodeProperties } from 'n8n-workflow';

import { streamedBinary } from '../binaryOutput';
import { attachmentId, attachmentIdField } from './attachmentFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { binaryPropertyField, outputBinaryProperty } from '../../parameters/binaryFields';
import { downloadAttachment } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator, attachmentIdField, binaryPropertyField];

export const description = operationDescription('attachment', 'download', properties);

/**
 * GET /api/docs/{doc}/attachments/{id}/download: the bytes, streamed as they are into n8n's binary
 * data store, with the file name from Content-Disposition and the MIME type Grist sends.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const id = attachmentId.call(this, itemIndex);
	const property = outputBinaryProperty.call(this, itemIndex);
	const file = await downloadAttachment(client, docId, id, itemIndex);
	const fileName = file.fileName ?? `attachment-${id}`;
	const mimeType = file.mimeType && file.mimeType !== '' ? file.mimeType : undefined;
	const binary = await streamedBinary.call(
		this,
		file.body,
		fileName,
		mimeType,
		`attachment ${id}`,
		itemIndex,
	);
	return {
		json: {
			id,
			fileName: binary.fileName ?? fileName,
			mimeType: binary.mimeType,
			fileSize: binary.bytes,
		},
		binary: { [property]: binary },
	};
});
