/**
 * Attachment → Upload's Attach to Record: the record and Attachments cell an item names, checked
 * before any upload, and the cell write that adds (or replaces) the new attachment ids.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GristClient } from '../../api/client';
import { attachmentIdsOfCell, mergeAttachmentIds } from './attachmentFields';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { locatorValue } from '../../parameters/locators';
import type { GristColumn } from '../../cells/tableColumns';
import { ColumnCache } from '../../api/schemaCache';
import { fetchRecords, updateRecords } from '../../api/records';

/** The record (and its Attachments cell) that Attach to Record writes the new ids into. */
export interface AttachTarget {
	table: string;
	rowId: number;
	column: string;
	mode: 'append' | 'replace';
}

/**
 * The ids in the Attachments cell of the record to attach to, read before uploading (its column
 * checked first), so a wrong row or column leaves no orphan files.
 */
export async function attachedIdsBefore(
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

/** PATCH the record's Attachments cell with the new ids; the output's `record`. */
export async function attachToRecord(
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

export function attachTarget(this: IExecuteFunctions, itemIndex: number): AttachTarget | undefined {
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

export function checkColumn(
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
export async function readCell(
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

/** Adds the ids of the files already uploaded to the error of the cell write. */
export function noteUploadedIds(error: unknown, ids: number[]): unknown {
	if (error instanceof NodeApiError) {
		error.description =
			`${error.description ?? ''} The files were uploaded (attachment IDs ${ids.join(', ')}) but not written into the cell; Grist removes attachments no cell refers to after a while.`.trim();
	}
	return error;
}
