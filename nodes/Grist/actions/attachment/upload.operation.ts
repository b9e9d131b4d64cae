import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { toNodeError } from '../../errors/nodeErrors';
import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import {
	attachmentIdsOfCell,
	mergeAttachmentIds,
	parseBinaryPropertyNames,
} from './attachmentFields';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import {
	documentIdValue,
	documentLocator,
	locatorValue,
	tableLocator,
} from '../../parameters/locators';
import type { GristColumn } from '../../cells/tableColumns';
import { ColumnCache } from '../../api/schemaCache';
import { fetchRecords, updateRecords } from '../../api/records';
import { uploadAttachments } from '../../api/attachments';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';

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

/** The record (and its Attachments cell) that Attach to Record writes the new ids into. */
interface AttachTarget {
	table: string;
	rowId: number;
	column: string;
	mode: 'append' | 'replace';
}

/**
 * The ids in the Attachments cell of the record to attach to, read before uploading (its column
 * checked first), so a wrong row or column leaves no orphan files.
 */
async function attachedIdsBefore(
	this: IExecuteFunctions,
	client: GristClient,
	columnsCache: ColumnCache,
	docId: string,
	target: AttachTarget,
	itemIndex: number,
): Promise<number[]> {
	const columns = await columnsCache.get({ docId, tableId: target.table }, itemIndex);
	checkColumn.call(this, columns, target, itemIndex);
	return await readCell.call(this, client, docId, target, itemIndex);
}

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

/** PATCH the record's Attachments cell with the new ids; the output's `record`. */
async function attachToRecord(
	client: GristClient,
	docId: string,
	target: AttachTarget,
	existing: number[],
	ids: number[],
	itemIndex: number,
): Promise<IDataObject> {
	const value = ['L', ...mergeAttachmentIds(existing, ids, target.mode)];
	try {
		await updateRecords(
			client,
			{ docId, tableId: target.table },
			[{ id: target.rowId, fields: { [target.column]: value } }],
			undefined,
			itemIndex,
		);
	} catch (error) {
		throw noteUploadedIds(error, ids);
	}
	return { table: target.table, id: target.rowId, column: target.column, value };
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

function attachTarget(this: IExecuteFunctions, itemIndex: number): AttachTarget | undefined {
	if (!(itemParameter.call(this, 'attachToRecord', itemIndex, false) as boolean)) return undefined;
	const table = locatorValue(this, 'table', itemIndex);
	if (table === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The Table of "Attach to Record" is empty (item ${itemIndex})`,
			{
				description: 'Pick the table of the record to attach the files to.',
				itemIndex,
			},
		);
	}
	const rawRow = itemParameterValue.call(this, 'rowId', itemIndex, 0 as unknown);
	const rowId = typeof rawRow === 'string' && /^\s*\d+\s*$/.test(rawRow) ? Number(rawRow) : rawRow;
	if (typeof rowId !== 'number' || !Number.isSafeInteger(rowId) || rowId < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The Row ID ${JSON.stringify(rawRow)} is not a record ID (item ${itemIndex})`,
			{
				description:
					'Enter the ID of the record (a whole number from 1), e.g. {{ $json.id }} after reading records.',
				itemIndex,
			},
		);
	}
	const column = String(
		itemParameterValue.call(this, 'attachmentsColumn', itemIndex, '' as unknown) ?? '',
	).trim();
	if (column === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The field "Attachments Column" is empty (item ${itemIndex})`,
			{
				description: 'Enter the column ID of a column of type Attachments, e.g. Files.',
				itemIndex,
			},
		);
	}
	const mode =
		itemParameter.call(this, 'attachMode', itemIndex, 'append') === 'replace'
			? 'replace'
			: 'append';
	return { table, rowId, column, mode };
}

function checkColumn(
	this: IExecuteFunctions,
	columns: GristColumn[],
	target: AttachTarget,
	itemIndex: number,
): void {
	const attachmentColumns = columns.filter((c) => c.fields.type === 'Attachments').map((c) => c.id);
	const listed =
		attachmentColumns.length > 0
			? `Attachments columns of table "${target.table}": ${attachmentColumns.join(', ')}.`
			: `Table "${target.table}" has no column of type Attachments: add one in Grist first.`;
	const column = columns.find((c) => c.id === target.column);
	if (!column) {
		throw new NodeOperationError(
			this.getNode(),
			`Table "${target.table}" has no column "${target.column}"`,
			{
				description: `Use the column ID (not its label). ${listed}`,
				itemIndex,
			},
		);
	}
	const type = (column.fields.type as string | undefined) ?? 'unknown';
	if (type !== 'Attachments') {
		throw new NodeOperationError(
			this.getNode(),
			`Column "${target.column}" of table "${target.table}" is of type ${type}, not Attachments`,
			{ description: listed, itemIndex },
		);
	}
}

/** The attachment ids in the record's cell (and proof that the record exists). */
async function readCell(
	this: IExecuteFunctions,
	client: GristClient,
	docId: string,
	target: AttachTarget,
	itemIndex: number,
): Promise<number[]> {
	const records = await fetchRecords(
		client,
		{ docId, tableId: target.table },
		{ filter: JSON.stringify({ id: [target.rowId] }) },
		itemIndex,
	);
	const record = records.find((r) => r.id === target.rowId);
	if (!record) {
		throw new NodeOperationError(
			this.getNode(),
			`Table "${target.table}" has no record with ID ${target.rowId}`,
			{
				description:
					'Check the Row ID (the record may have been deleted, or access rules hide it). Nothing was uploaded.',
				itemIndex,
			},
		);
	}
	const cell = record.fields?.[target.column];
	const ids = attachmentIdsOfCell(cell);
	if (ids === undefined) {
		if (target.mode === 'replace') return [];
		throw new NodeOperationError(
			this.getNode(),
			`The cell ${target.column} of record ${target.rowId} holds ${JSON.stringify(cell)?.slice(0, 100)}, not a list of attachments`,
			{
				description:
					'Choose "Replace" under Existing Attachments to overwrite it. Nothing was uploaded.',
				itemIndex,
			},
		);
	}
	return ids;
}

function fileNameOf(meta: IBinaryData, property: string): string {
	if (meta.fileName && meta.fileName.trim() !== '') return meta.fileName;
	return meta.fileExtension ? `${property}.${meta.fileExtension}` : property;
}

/** Adds the ids of the files already uploaded to the error of the cell write. */
function noteUploadedIds(error: unknown, ids: number[]): unknown {
	if (error instanceof NodeApiError) {
		error.description =
			`${error.description ?? ''} The files were uploaded (attachment IDs ${ids.join(', ')}) but not written into the cell; Grist removes attachments no cell refers to after a while.`.trim();
	}
	return error;
}

function formatBytes(n: number): string {
	if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
	if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
	return `${n} bytes`;
}
