import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../../errors/nodeErrors';
import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { parseBinaryPropertyNames } from './attachmentFields';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { documentIdValue, documentLocator, tableLocator } from '../../parameters/locators';
import { ColumnCache } from '../../api/schemaCache';
import { uploadAttachments } from '../../api/attachments';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { attachedIdsBefore, attachToRecord, attachTarget } from './recordAttachment';

const showAttach = { show: { attachToRecord: [true] } };

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Upload All Binary Fields',
		name: 'uploadAllBinaries',
		type: 'boolean',
		default: false,
		description:
			"Whether to upload every binary field of the item instead of the ones named in 'Input Binary Field(s)'",
	},
	{
		displayName: 'Input Binary Field(s)',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data, invoice',
		hint: 'The name of the binary field with the file; several names separated by commas upload several files',
		displayOptions: { show: { uploadAllBinaries: [false] } },
	},
	{
		displayName: 'Attach to Record',
		name: 'attachToRecord',
		type: 'boolean',
		default: false,
		description:
			'Whether to write the new attachment IDs into an Attachments cell of a record (uploading alone does not show the files anywhere)',
	},
	{ ...tableLocator, displayOptions: showAttach },
	{
		displayName: 'Row ID',
		name: 'rowId',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description: 'The ID of the record (row) to attach the files to',
		displayOptions: showAttach,
	},
	{
		displayName: 'Attachments Column Name or ID',
		name: 'attachmentsColumn',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getColumns',
			loadOptionsDependsOn: ['document.value', 'table.value'],
		},
		default: '',
		required: true,
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'A column of type Attachments',
		displayOptions: showAttach,
	},
	{
		displayName: 'Existing Attachments',
		name: 'attachMode',
		type: 'options',
		default: 'append',
		options: [
			{
				name: 'Keep (Append New Files)',
				value: 'append',
				description: 'Add the new files after those already in the cell',
			},
			{
				name: 'Replace',
				value: 'replace',
				description: 'The cell holds only the new files afterwards',
			},
		],
		displayOptions: showAttach,
	},
];

export const description = operationDescription('attachment', 'upload', properties);

/** The item's files as one multipart form (an `upload` part each), and what the output says of them. */
async function uploadForm(
	this: IExecuteFunctions,
	names: string[],
	itemIndex: number,
): Promise<{ form: FormData; files: IDataObject[]; totalBytes: number }> {
	const form = new FormData();
	const files: IDataObject[] = [];
	let totalBytes = 0;
	for (const name of names) {
		const meta: IBinaryData = this.helpers.assertBinaryData(itemIndex, name);
		const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, name);
		const fileName = fileNameOf(meta, name);
		form.append(
			'upload',
			new Blob([buffer], { type: meta.mimeType || 'application/octet-stream' }),
			fileName,
		);
		files.push({ fileName, size: buffer.length, mimeType: meta.mimeType, binaryProperty: name });
		totalBytes += buffer.length;
	}
	return { form, files, totalBytes };
}

/** POST …/attachments: the new ids, one per file (any other answer is an error). */
async function uploadFiles(
	this: IExecuteFunctions,
	client: GristClient,
	docId: string,
	upload: { form: FormData; files: IDataObject[]; totalBytes: number },
	itemIndex: number,
): Promise<number[]> {
	let ids: unknown;
	try {
		ids = await uploadAttachments(client, docId, upload.form, itemIndex);
	} catch (error) {
		// The statuses an upload can meet get what to do (the size of the files for a 413).
		throw toNodeError(this.getNode(), error, {
			itemIndex,
			scope: 'attachment.upload',
			values: { size: formatBytes(upload.totalBytes) },
		});
	}
	if (
		!Array.isArray(ids) ||
		ids.length !== upload.files.length ||
		!ids.every((id) => Number.isInteger(id))
	) {
		throw new NodeOperationError(
			this.getNode(),
			'Grist answered the upload with something other than one ID per file',
			{
				description: `Expected ${upload.files.length} attachment ID(s), got ${JSON.stringify(ids)?.slice(0, 200)}.`,
				itemIndex,
			},
		);
	}
	return ids as number[];
}

/**
 * POST /api/docs/{doc}/attachments (multipart, one `upload` part per file), one request per
 * item. Output: one item per input item, `{ attachments: [{ id, fileName, size, … }] }`, plus
 * `record` when the files were attached to a record (GET the cell, then PATCH `["L", …ids]`).
 */
export const execute: OperationExecute = async function (client, items) {
	const columnsCache = new ColumnCache(client, { hidden: false });

	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const names = binaryNames.call(this, items[itemIndex], itemIndex);
		const target = attachTarget.call(this, itemIndex);
		const existing = target
			? await attachedIdsBefore.call(this, client, columnsCache, docId, target, itemIndex)
			: [];
		const upload = await uploadForm.call(this, names, itemIndex);
		const ids = await uploadFiles.call(this, client, docId, upload, itemIndex);
		const json: IDataObject = {
			attachments: upload.files.map((f, n) => ({ id: ids[n], ...f })),
		};
		if (target) json.record = await attachToRecord(client, docId, target, existing, ids, itemIndex);
		return json;
	});
};

/** The binary properties to upload for an item; a missing one is named with those the item has. */
function binaryNames(
	this: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
): string[] {
	const available = Object.keys(item.binary ?? {});
	const has =
		available.length > 0
			? `The item has these binary fields: ${available.join(', ')}.`
			: 'The item has no binary data at all: add a node that produces a file before this one (e.g. Read/Write Files from Disk, HTTP Request, Convert to File).';
	if (itemParameter.call(this, 'uploadAllBinaries', itemIndex, false) as boolean) {
		if (available.length === 0) {
			throw new NodeOperationError(
				this.getNode(),
				`Item ${itemIndex} has no binary fields to upload`,
				{ description: has, itemIndex },
			);
		}
		return available;
	}
	const names = parseBinaryPropertyNames(
		itemParameterValue.call(this, 'binaryPropertyName', itemIndex, 'data' as unknown),
	);
	if (names.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "Input Binary Field(s)" is empty (item ${itemIndex})`,
			{
				description: `Enter the name of the binary field to upload, e.g. data. ${has}`,
				itemIndex,
			},
		);
	}
	const missing = names.filter((n) => !item.binary?.[n]);
	if (missing.length > 0) {
		const list = missing.map((n) => `"${n}"`).join(', ');
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex} has no binary field ${list} (named in "Input Binary Field(s)")`,
			{
				description: `${has} Put one of them in "Input Binary Field(s)", or turn on "Upload All Binary Fields".`,
				itemIndex,
			},
		);
	}
	return names;
}

function fileNameOf(meta: IBinaryData, property: string): string {
	if (meta.fileName && meta.fileName.trim() !== '') return meta.fileName;
	return meta.fileExtension ? `${property}.${meta.fileExtension}` : property;
}

function formatBytes(n: number): string {
	if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
	if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
	return `${n} bytes`;
}
