import type { INodeProperties } from 'n8n-workflow';

import { toNodeError } from '../../errors/nodeErrors';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { inputBinaryField, inputFile } from '../../parameters/binaryFields';
import { restoreAttachmentArchive } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [
	documentLocator,
	{
		...inputBinaryField,
		hint: 'The binary field with the .tar archive that Attachment → Download All (Format: TAR) made',
	},
];

export const description = operationDescription('attachment', 'restoreFromArchive', properties);

/**
 * POST /api/docs/{doc}/attachments/archive: Grist reads a .tar of attachment files (as Download
 * All makes it) and adds the files its attachments lack, matched by content hash; it answers how
 * many it added, how many failed, and how many it did not need. Grist only reads a part whose
 * name ends in .tar and whose type is application/x-tar: such a file (any case) is sent so;
 * any other name is sent as it is, and Grist's answer says no .tar was found.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const { property, meta, buffer } = await inputFile.call(
		this,
		itemIndex,
		'that holds the .tar archive, e.g. the output of Attachment → Download All or Read/Write Files from Disk',
	);
	const fileName =
		meta.fileName && meta.fileName.trim() !== ''
			? meta.fileName
			: `${property}${meta.fileExtension ? `.${meta.fileExtension}` : ''}`;
	const isTar = fileName.toLowerCase().endsWith('.tar');
	const sentName = isTar ? `${fileName.slice(0, -4)}.tar` : fileName;
	const form = new FormData();
	form.append(
		'upload',
		new Blob([new Uint8Array(buffer)], {
			type: isTar ? 'application/x-tar' : meta.mimeType || 'application/octet-stream',
		}),
		sentName,
	);
	try {
		const result = await restoreAttachmentArchive(client, docId, form, itemIndex);
		return { documentId: docId, fileName, ...result };
	} catch (error) {
		throw toNodeError(this.getNode(), error, {
			itemIndex,
			scope: 'attachment.restore',
			values: { fileName, binaryProperty: property },
		});
	}
});
