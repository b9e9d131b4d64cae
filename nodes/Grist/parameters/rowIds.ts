/**
 * Row IDs (Grist's `id` of a record) as the Row ID and Row IDs fields give them, checked before
 * any request: whole numbers greater than 0.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { itemParameterValue } from './read';

/** Row IDs from a number, an array, or text like `1, 2, 3`; anything else fails naming the field. */
export function parseRowIds(
	this: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
	field = 'Row IDs',
): number[] {
	// The common case (a row ID from ={{ $json.id }}): no lists built.
	if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return [raw];
	let list: unknown[];
	if (Array.isArray(raw)) list = raw;
	else if (typeof raw === 'number') list = [raw];
	else if (typeof raw === 'string') {
		const text = raw.trim();
		list = text.startsWith('[')
			? (jsonParse(text, { fallbackValue: [text] }) as unknown[])
			: text.split(',');
		if (!Array.isArray(list)) list = [text];
	} else list = [raw];
	const ids = list.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
	if (ids.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The ${field} field of item ${itemIndex} is empty`,
			{
				itemIndex,
				description: 'Enter one or more row IDs (whole numbers), e.g. 3 or 3, 4, 5.',
			},
		);
	}
	return ids.map((v) => {
		const n = typeof v === 'number' ? v : Number(v);
		if (!Number.isInteger(n) || n <= 0) {
			throw new NodeOperationError(
				this.getNode(),
				`The ${field} field of item ${itemIndex} has ${JSON.stringify(v)}, which is not a row ID`,
				{
					itemIndex,
					description: 'A row ID is a whole number greater than 0 (the "id" of a record).',
				},
			);
		}
		return n;
	});
}

/**
 * The one row ID of the Row ID field (`rowId`) of item `itemIndex`; several IDs fail naming the
 * field and the item, `oneRow` saying what to do instead.
 */
export function readRowId(this: IExecuteFunctions, itemIndex: number, oneRow: string): number {
	const ids = parseRowIds.call(
		this,
		itemParameterValue.call(this, 'rowId', itemIndex, '' as unknown),
		itemIndex,
		'Row ID',
	);
	if (ids.length !== 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The Row ID field of item ${itemIndex} must hold one row ID, not ${ids.length}`,
			{ itemIndex, description: oneRow },
		);
	}
	return ids[0];
}
