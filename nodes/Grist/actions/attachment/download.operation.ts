import type {
	IBinaryData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { attachmentId, attachmentIdField } from './shared';
import { locatorValue } from '../../parameters';
import { documentLocator } from '../common.descriptions';
import { downloadAttachment } from '../../transport/api';

const properties: INodeProperties[] = [
	documentLocator,
	attachmentIdField,
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
];

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
		const docId = locatorValue.call(this, 'document', itemIndex);
		const id = attachmentId.call(this, itemIndex);
		const property = String(
			this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '',
		).trim();
		if (property === '') {
			throw new NodeOperationError(
				this.getNode(),
				`The field "Put Output File in Field" is empty (item ${itemIndex})`,
				{
					description: 'Enter the name of the binary field for the file, e.g. data.',
					itemIndex,
				},
			);
		}
		const file = await downloadAttachment(client, docId, id, itemIndex);
		const fileName = file.fileName ?? `attachment-${id}`;
		const mimeType = file.mimeType && file.mimeType !== '' ? file.mimeType : undefined;
		let binary: IBinaryData;
		try {
			binary = await this.helpers.prepareBinaryData(file.body, fileName, mimeType);
		} catch (error) {
			throw new NodeOperationError(
				this.getNode(),
				`The download of attachment ${id} broke off: ${(error as Error).message}`,
				{
					description:
						'The connection to Grist failed while the file was being received. Run the node again.',
					itemIndex,
				},
			);
		}
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
