/**
 * The fields of a write, checked and encoded for the table: unknown columns refused before any
 * request, values encoded by column type, formula columns dropped.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CellValueError } from '../cells/cellValues';
import { encodeCellValue } from '../cells/cellEncoding';
import { encodeReferenceInput } from '../cells/referenceInput';
import { isReadOnlyColumn, type GristColumn } from '../cells/tableColumns';
import type { Target } from '../api/paths';
import type { TableInfo } from '../api/schemaCache';

/**
 * Refuses item `itemIndex` before any request when it names columns the table does not have: Grist
 * refuses a whole request for one unknown column (400 Invalid column "X"), which would fail every
 * other item sent with it. Known are the columns Grist lists with `hidden=1` (so `manualSort`
 * and `gristHelper_*` too; formula columns are known, `encodeFields` drops them); `id` only where
 * Grist takes it (`allowId`: the `require` of an upsert). Keys whose value is `undefined` are
 * never sent, so never refused.
 */
export function refuseUnknownColumns(
	this: IExecuteFunctions,
	fields: IDataObject,
	table: TableInfo,
	target: Target,
	itemIndex: number,
	opts: { allowId?: boolean } = {},
): void {
	const unknown: string[] = [];
	for (const key of Object.keys(fields)) {
		if (table.byId.has(key) || fields[key] === undefined || (opts.allowId && key === 'id'))
			continue;
		unknown.push(key);
	}
	if (unknown.length === 0) return;
	const names = unknown.map((k) => `"${k}"`).join(', ');
	const byLabel = unknown
		.map((k) => [k, table.columns.find((c) => !c.hidden && c.label === k && c.id !== k)?.id])
		.filter(([, id]) => id !== undefined)
		.map(([k, id]) => `"${k}" is the label of the column ${id}`);
	const visible = table.columns.filter((c) => !c.hidden).map((c) => c.id);
	const list = visible.length > 30 ? `${visible.slice(0, 30).join(', ')}, …` : visible.join(', ');
	const idNote = unknown.includes('id')
		? " A row's ID is not a field: Update takes it in Row ID, Create lets Grist choose it."
		: '';
	throw new NodeOperationError(
		this.getNode(),
		`Table "${target.tableId}" has no column${unknown.length === 1 ? '' : 's'} ${names} (item ${itemIndex})`,
		{
			itemIndex,
			description:
				`Grist would refuse every item sent in one request with this one, so it is not sent. Use column IDs, not labels` +
				(byLabel.length ? ` (${byLabel.join('; ')})` : '') +
				`; the Column resource's Get Many lists them. Columns of "${target.tableId}": ${list || 'none'}.${idNote}`,
		},
	);
}

export interface EncodeOptions {
	/** Keep formula columns (upsert `require` may name them). */
	keepFormulas?: boolean;
	/**
	 * Reference (List) cells may hold names, the referenced rows' shown values: kept as a
	 * NamedReference (cells/referenceInput.ts) for the write pipeline to look up (referenceNames.ts).
	 */
	names?: boolean;
}

/**
 * Encodes fields by column type. Formula columns are dropped (never sent); unknown columns are
 * passed as they are (the writes refuse them before, with `refuseUnknownColumns`).
 *
 * `fields` is never modified. When every value encodes to itself and no key is dropped (the
 * common case: text in Text columns, numbers in Int/Numeric…), `fields` itself is returned;
 * otherwise a new object with the same key order (copy on the first change, not per item).
 */
export function encodeFields(
	this: IExecuteFunctions,
	fields: IDataObject,
	columns: Map<string, GristColumn>,
	itemIndex: number,
	opts: EncodeOptions = {},
): IDataObject {
	let out: IDataObject | undefined;
	const keys = Object.keys(fields);
	for (let k = 0; k < keys.length; k++) {
		const key = keys[k];
		const value = fields[key];
		let next: unknown = value;
		let keep = true;
		const column = columns.get(key);
		if (column) {
			if ((isReadOnlyColumn(column) && !opts.keepFormulas) || value === undefined) {
				keep = false;
			} else if (encodesToItself(value, column.type)) {
				next = value;
			} else {
				const encoded = tryEncode(value, column.type, opts.names === true);
				if ('error' in encoded) {
					throw new NodeOperationError(
						this.getNode(),
						`Field "${key}" of item ${itemIndex}: ${encoded.error}`,
						{
							itemIndex,
							description: `Change the value of "${key}" so that it fits the column's type (${column.type}).`,
						},
					);
				}
				next = encoded.value;
			}
		}
		if (out === undefined) {
			if (keep && next === value) continue;
			out = {};
			for (let j = 0; j < k; j++) out[keys[j]] = fields[keys[j]];
		}
		if (keep) out[key] = next as IDataObject[string];
	}
	return out ?? fields;
}

/**
 * Whether `encodeCellValue(value, type)` is `value` itself, answered without calling it for the
 * common cases (text in Text, numbers in Int / Numeric, row IDs in Ref, booleans in Bool); `false`
 * means "ask encodeCellValue".
 */
function encodesToItself(value: unknown, type: string): boolean {
	switch (typeof value) {
		case 'string':
			return type === 'Text' || type === 'Choice' || type === 'Any';
		case 'number':
			if (!Number.isFinite(value)) return false;
			return (
				type === 'Numeric' ||
				type === 'Any' ||
				(Number.isInteger(value) && (type === 'Int' || (value >= 0 && type.startsWith('Ref:'))))
			);
		case 'boolean':
			return type === 'Bool' || type === 'Any';
		default:
			return false;
	}
}

function tryEncode(
	value: unknown,
	type: string,
	names: boolean,
): { value: unknown } | { error: string } {
	try {
		if (names && (type.startsWith('Ref:') || type.startsWith('RefList:')))
			return { value: encodeReferenceInput(value, type) };
		return { value: encodeCellValue(value, type) };
	} catch (error) {
		return {
			error: error instanceof CellValueError ? error.message : String((error as Error).message),
		};
	}
}
