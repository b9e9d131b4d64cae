import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { streamedBinary } from '../binaryOutput';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { binaryPropertyField, outputBinaryProperty } from '../../parameters/binaryFields';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { optionsCollection } from '../../parameters/commonFields';
import { downloadAttachmentArchive, type ArchiveFormat } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const MIME: Record<ArchiveFormat, string> = { zip: 'application/zip', tar: 'application/x-tar' };

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Format',
		name: 'archiveFormat',
		type: 'options',
		options: [
			{
				name: 'TAR',
				value: 'tar',
				description: 'The format Attachment → Restore From Archive reads back',
			},
			{ name: 'ZIP', value: 'zip', description: 'Opens anywhere; Grist cannot restore from it' },
		],
		default: 'tar',
	},
	binaryPropertyField,
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. crm-attachments',
			description:
				'Name of the file without extension (default: the document name with -Attachments)',
		},
	]),
];

export const description = operationDescription('attachment', 'downloadAll', properties);

/**
 * GET /api/docs/{doc}/attachments/archive?format=: every attachment's file in one archive, each
 * named `<hash>_<file name>`, streamed into n8n's binary data. With the .grist backup it is a
 * complete copy of a document whose attachments live in an external store.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const format = itemParameter.call(this, 'archiveFormat', itemIndex, 'tar') as ArchiveFormat;
	if (format !== 'tar' && format !== 'zip') {
		throw new NodeOperationError(
			this.getNode(),
			`The Format of item ${itemIndex} must be tar or zip, not ${JSON.stringify(format)}`,
			{ description: 'Pick TAR (to restore it later) or ZIP from the list.', itemIndex },
		);
	}
	const property = outputBinaryProperty.call(this, itemIndex);
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	let title = String(options.fileName ?? '').trim();
	if (title.toLowerCase().endsWith(`.${format}`)) title = title.slice(0, -format.length - 1);
	const file = await downloadAttachmentArchive(client, docId, format, itemIndex);
	const fileName =
		title !== '' ? `${title}.${format}` : (file.fileName ?? `${docId}-Attachments.${format}`);
	const binary = await streamedBinary.call(
		this,
		file.body,
		fileName,
		MIME[format],
		`the attachments of document "${docId}"`,
		itemIndex,
	);
	return {
		json: {
			documentId: docId,
			format,
			fileName: binary.fileName ?? fileName,
			mimeType: binary.mimeType,
			fileSize: binary.bytes,
		},
		binary: { [property]: binary },
	};
});
