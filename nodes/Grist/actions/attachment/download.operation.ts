import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { streamedBinary } from '../binaryOutput';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { attachmentId, attachmentIdField } from './attachmentFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { binaryPropertyField, outputBinaryProperty } from '../../parameters/binaryFields';
import { downloadAttachment } from '../../transport/api';

const properties: INodeProperties[] = [documentLocator, attachmentIdField, binaryPropertyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['download'] } },
	properties,
);

/**
 * GET /api/docs/{doc}/attachments/{id}/download: the bytes, streamed as they are into n8n's binary
 * data store, with the file name from Content-Disposition and the MIME type Grist sends.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
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
}
