/**
 * Pieces shared by the attachment operations: the Attachment ID field and its validation, the
 * list of binary property names, and the shape of an attachment in the node's output.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemParameterValue } from '../../parameters/read';

export const attachmentIdField: INodeProperties = {
	displayName: 'Attachment ID',
	name: 'attachmentId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 12',
	description:
		'The ID of the attachment, a whole number. Records read with Simplify list an Attachments column as IDs, e.g. [5, 7] (raw form: ["L", 5, 7]).',
	hint: 'After Record → Get Many and Split Out on the Attachments column (e.g. Files), use the expression $json.Files',
};

/** Why a value is not an attachment id, or the id. */
export type AttachmentIdResult = { ok: true; id: number } | { ok: false; reason: string };

/**
 * An attachment id is a positive whole number, given as a number or as digits
 * (surrounding spaces are fine). Everything else is refused with the reason.
 */
export function parseAttachmentId(value: unknown): AttachmentIdResult {
	let text: string;
	if (typeof value === 'number') {
		text = String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else if (value === null || value === undefined) {
		return { ok: false, reason: 'is empty' };
	} else {
		return { ok: false, reason: `is ${describe(value)}, not a whole number` };
	}
	if (text === '') return { ok: false, reason: 'is empty' };
	if (!/^\d+$/.test(text)) return { ok: false, reason: `"${text}" is not a whole number` };
	const id = Number(text);
	if (!Number.isSafeInteger(id)) return { ok: false, reason: `"${text}" is too large` };
	if (id < 1) return { ok: false, reason: `"${text}" is not a valid ID (IDs start at 1)` };
	return { ok: true, id };
}

/** The Attachment ID parameter of item `itemIndex`, checked before any request. */
export function attachmentId(this: IExecuteFunctions, itemIndex: number): number {
	const raw = itemParameterValue.call(this, 'attachmentId', itemIndex, '' as unknown);
	const parsed = parseAttachmentId(raw);
	if (parsed.ok) return parsed.id;
	throw new NodeOperationError(
		this.getNode(),
		`The Attachment ID ${parsed.reason} (item ${itemIndex})`,
		{
			description:
				'Enter the attachment\'s ID, a whole number such as 12 (Get Many attachments lists them; an Attachments cell holds ["L", id, …]).',
			itemIndex,
		},
	);
}

function describe(value: unknown): string {
	if (Array.isArray(value)) return `a list (${JSON.stringify(value).slice(0, 60)})`;
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** `"data, photo ,"` → `["data", "photo"]` (duplicates removed, order kept). */
export function parseBinaryPropertyNames(value: unknown): string[] {
	const text = typeof value === 'string' ? value : '';
	const names = text
		.split(',')
		.map((s) => s.trim())
		.filter((s) => s !== '');
	return [...new Set(names)];
}

/** The ids of an Attachments cell (`["L", 1, 2]`; `null`/`""` = empty), or undefined if it is not one. */
export function attachmentIdsOfCell(cell: unknown): number[] | undefined {
	if (cell === null || cell === undefined || cell === '') return [];
	if (!Array.isArray(cell) || cell[0] !== 'L') return undefined;
	const ids = cell.slice(1);
	return ids.every((v) => typeof v === 'number' && Number.isInteger(v))
		? (ids as number[])
		: undefined;
}

/** Ids to write into an Attachments cell: append keeps the cell's ids first (without repeats). */
export function mergeAttachmentIds(
	existing: number[],
	added: number[],
	mode: 'append' | 'replace',
): number[] {
	if (mode === 'replace') return [...added];
	const out = [...existing];
	for (const id of added) if (!out.includes(id)) out.push(id);
	return out;
}

/** A row of `GET /attachments` (`{ id, fields: {…} }`) as one flat output object. */
export function flattenAttachmentRecord(record: { id: number; fields?: IDataObject }): IDataObject {
	return { id: record.id, ...(record.fields ?? {}) };
}
