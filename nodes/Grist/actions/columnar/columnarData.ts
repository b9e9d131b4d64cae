/**
 * The deprecated column-oriented `/data` form: `{"id": [1, 2], "A": ["x", "y"]}`.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { itemParameterValue } from '../../parameters/read';
import { documentLocator, tableLocator } from '../../parameters/locators';
import { writeOptionsField } from '../../parameters/writeOptions';

export const columnarDataField: INodeProperties = {
	displayName: 'Columns (JSON)',
	name: 'data',
	type: 'json',
	default: '{}',
	required: true,
	description:
		'An object of column IDs and arrays of values, one value per row, e.g. {"Name": ["Alice", "Bob"], "Age": [30, 41]}',
};

/** The parameters of columnar create and update. */
export const columnarWriteProperties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnarDataField,
	writeOptionsField,
];

/** Reads item `itemIndex`'s columnar object and checks its shape. */
export function readColumnar(
	this: IExecuteFunctions,
	itemIndex: number,
	requireId: boolean,
): Record<string, unknown[]> {
	const raw = itemParameterValue.call(this, 'data', itemIndex, '{}' as unknown);
	const value =
		typeof raw === 'string'
			? jsonParse<unknown>(raw.trim() === '' ? '{}' : raw, {
					errorMessage: `The Columns (JSON) of item ${itemIndex} is not valid JSON`,
				})
			: raw;
	const fail = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), `The Columns (JSON) of item ${itemIndex} ${message}`, {
			itemIndex,
			description,
		});
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw fail('must be a JSON object', 'e.g. {"Name": ["Alice", "Bob"], "Age": [30, 41]}');
	}
	const data = value as Record<string, unknown>;
	let length: number | undefined;
	for (const [key, column] of Object.entries(data)) {
		if (!Array.isArray(column)) {
			throw fail(
				`has a value for "${key}" that is not an array`,
				'Every column needs an array with one value per row.',
			);
		}
		if (length !== undefined && column.length !== length) {
			throw fail(
				`has columns of different lengths ("${key}" has ${column.length} values, others ${length})`,
				'Every column needs one value per row.',
			);
		}
		length = column.length;
	}
	if (requireId && !Array.isArray(data.id)) {
		throw fail('has no "id" array', 'Give the IDs of the rows to update as "id": [1, 2, …].');
	}
	if (length === undefined || length === 0) {
		throw fail('has no rows', 'Give at least one value per column.');
	}
	return data as Record<string, unknown[]>;
}

/** Columnar → rows (`[{A: 'x', B: 1}, …]`). */
export function columnarToRows(data: Record<string, unknown[]>): IDataObject[] {
	const keys = Object.keys(data);
	const n = keys.length ? data[keys[0]].length : 0;
	const rows: IDataObject[] = [];
	for (let r = 0; r < n; r++) {
		const row: IDataObject = {};
		for (const k of keys) row[k] = data[k][r] as IDataObject[string];
		rows.push(row);
	}
	return rows;
}

/** Rows with the same keys → columnar. */
export function rowsToColumnar(rows: IDataObject[]): Record<string, unknown[]> {
	const out: Record<string, unknown[]> = {};
	const keys = rows.length ? Object.keys(rows[0]) : [];
	for (const k of keys) out[k] = rows.map((r) => r[k]);
	return out;
}
