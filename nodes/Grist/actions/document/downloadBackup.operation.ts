import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { streamedBinary } from '../binaryOutput';
import { downloadDocumentFile } from '../../api/documents';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { binaryPropertyField, outputBinaryProperty } from '../../parameters/binaryFields';
import { backupFileName } from '../../documents/lifecycle';
import { itemParameterValue } from '../../parameters/read';
import { operationDescription, perItem } from '../operationFrame';
import { optionsCollection } from '../../parameters/commonFields';

const GRIST_MIME = 'application/x-sqlite3';

const properties: INodeProperties[] = [
	documentLocator,
	binaryPropertyField,
	optionsCollection([
		{
			displayName: 'As Template',
			name: 'template',
			type: 'boolean',
			default: false,
			description:
				'Whether to leave out the records (and the history): only tables, columns and formulas',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. crm-backup',
			description: 'Name of the file (default: the document name with .grist)',
		},
		{
			displayName: 'Without History',
			name: 'nohistory',
			type: 'boolean',
			default: false,
			description: "Whether to leave out the document's undo history (a smaller file)",
		},
	]),
];

export const description = operationDescription('document', 'downloadBackup', properties);

/**
 * GET /api/docs/{docId}/download: the whole document as a .grist file (SQLite), streamed into
 * n8n's binary data; it opens in Grist (Import) and in any SQLite tool.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const property = outputBinaryProperty.call(this, itemIndex);
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (options.template === true) qs.template = 1;
	if (options.nohistory === true) qs.nohistory = 1;
	const file = await downloadDocumentFile(client, docId, qs, itemIndex);
	const fileName = backupFileName(String(options.fileName ?? ''), file.fileName, docId);
	const binary = await streamedBinary.call(
		this,
		file.body,
		fileName,
		GRIST_MIME,
		`document "${docId}"`,
		itemIndex,
	);
	return {
		json: {
			documentId: docId,
			fileName: binary.fileName ?? fileName,
			mimeType: binary.mimeType,
			fileSize: binary.bytes,
			template: options.template === true,
			withoutHistory: options.nohistory === true || options.template === true,
		},
		binary: { [property]: binary },
	};
});
