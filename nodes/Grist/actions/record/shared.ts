/**
 * What the record (and columnar) operations share: the target document/table of an item, the
 * table's columns fetched once per execution, field values read from the mapper / input / JSON
 * and encoded for Grist, and the write options (noparse).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INodeParameters,
	INodeProperties,
	ResourceMapperValue,
} from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { CellValueError, encodeCellValue } from '../../helpers/cells';
import { columnTypes, fetchColumns, isReadOnlyColumn, type GristColumn } from '../../helpers/columns';
import type { GristClient } from '../../transport';


export interface Target {
	docId: string;
	tableId: string;
}

/** What every request of a batched write to one table needs: target, query flags, column types. */
export interface WriteGroup {
	target: Target;
	qs: IDataObject;
	types: Record<string, string>;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

interface SameForAll {
	/** The node's raw parameters (`getNode()` deep-copies the node, so it is called once). */
	parameters: INodeParameters;
	/** By parameter: the value read for all items, or `null` when it holds an expression. */
	values: Map<string, { value: unknown } | null>;
}

const sameForAll = new WeakMap<object, SameForAll>();

/**
 * `getNodeParameter(name, i, fallback, options)` for a parameter whose value is a string, number
 * or boolean: when the node's raw parameter holds no expression, its value is the same for every
 * item, so it is read once per execution (n8n's per-call copying, defaults, validation and
 * resource-locator extraction took about half of a 10,000-item create). With an expression it is
 * read per item, as before; errors are never cached.
 */
export function itemParameter<T extends string | number | boolean | undefined>(
	this: IExecuteFunctions,
	name: string,
	i: number,
	fallback: T,
	options?: IGetNodeParameterOptions,
): T {
	let cache = sameForAll.get(this);
	if (!cache) {
		cache = { parameters: this.getNode().parameters, values: new Map() };
		sameForAll.set(this, cache);
	}
	const key = options?.extractValue ? `${name}|extract` : name;
	let entry = cache.values.get(key);
	if (entry === undefined) {
		let raw: unknown = cache.parameters;
		for (const part of name.split('.')) raw = (raw as IDataObject | undefined)?.[part];
		if (hasExpression(raw)) {
			entry = null;
			cache.values.set(key, entry);
		}
	}
	if (entry) return entry.value as T;
	const value = this.getNodeParameter(name, i, fallback, options) as T;
	if (entry === undefined && (value === null || typeof value !== 'object')) cache.values.set(key, { value });
	return value;
}

/** A resource locator's value as text (as `locatorValue`), read once when it has no expression. */
function targetValue(this: IExecuteFunctions, name: string, i: number): string {
	const value = itemParameter.call(this, name, i, '', { extractValue: true }) as unknown;
	return typeof value === 'number' ? String(value) : String((value as string | IDataObject) ?? '').trim();
}

/** The document and table of item `i`; empty values fail with an error naming the field. */
export function readTarget(this: IExecuteFunctions, i: number): Target {
	const docId = targetValue.call(this, 'document', i);
	if (docId === '') {
		throw new NodeOperationError(this.getNode(), `The Document field is empty (item ${i})`, {
			itemIndex: i,
			description: 'Pick a document from the list, or enter its ID or URL.',
		});
	}
	const tableId = targetValue.call(this, 'table', i);
	if (tableId === '') {
		throw new NodeOperationError(this.getNode(), `The Table field is empty (item ${i})`, {
			itemIndex: i,
			description: 'Pick a table from the list, or enter its ID (as shown in Raw Data).',
		});
	}
	return { docId, tableId };
}

export function tablePath(client: GristClient, t: Target, ...rest: string[]): string {
	return client.path(
		'docs',
		{ value: t.docId, label: 'document ID' },
		'tables',
		{ value: t.tableId, label: 'table ID' },
		...rest,
	);
}

export function targetKey(t: Target): string {
	return JSON.stringify([t.docId, t.tableId]);
}

export interface TableInfo {
	columns: GristColumn[];
	byId: Map<string, GristColumn>;
	types: Record<string, string>;
}

/** Columns of each table, fetched once per execution (one GET per table). */
export class ColumnCache {
	private readonly cache = new Map<string, Promise<GristColumn[]>>();
	private readonly infos = new Map<string, TableInfo>();

	/** Columns plus lookups built once per table (not per item). */
	async info(t: Target, itemIndex?: number): Promise<TableInfo> {
		const key = targetKey(t);
		const known = this.infos.get(key);
		if (known) return known;
		const columns = await this.get(t, itemIndex);
		const info = { columns, byId: columnMap(columns), types: columnTypes(columns) };
		this.infos.set(key, info);
		return info;
	}

	constructor(private readonly client: GristClient) {}

	async get(t: Target, itemIndex?: number): Promise<GristColumn[]> {
		const key = targetKey(t);
		let p = this.cache.get(key);
		if (!p) {
			p = fetchColumns(this.client, t.docId, t.tableId, { hidden: true, itemIndex });
			this.cache.set(key, p);
			p.catch(() => this.cache.delete(key));
		}
		return await p;
	}
}

// ---------------------------------------------------------------------------------------------
// Parameters shared by the writes

export const dataModeField: INodeProperties = {
	displayName: 'Data Mode',
	name: 'dataMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Map Columns',
			value: 'mapper',
			description: 'Map each column below, or map the input fields automatically by column ID',
		},
		{ name: 'Raw JSON', value: 'json', description: 'Give the fields as a JSON object of column IDs and values' },
	],
	default: 'mapper',
};

export function columnsMapper(mode: 'add' | 'update' | 'upsert'): INodeProperties {
	return {
		displayName: 'Columns',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['document.value', 'table.value'],
			resourceMapper: {
				resourceMapperMethod: 'getMappingColumns',
				mode,
				fieldWords: { singular: 'column', plural: 'columns' },
				addAllFields: true,
				multiKeyMatch: true,
				supportAutoMap: true,
			},
		},
		displayOptions: { show: { dataMode: ['mapper'] } },
	};
}

export const fieldsJsonField: INodeProperties = {
	displayName: 'Fields (JSON)',
	name: 'fieldsJson',
	type: 'json',
	default: '{}',
	required: true,
	description: 'An object of column IDs and values, e.g. {"Name": "Alice", "Tags": ["a", "b"]}',
	displayOptions: { show: { dataMode: ['json'] } },
};

export const noparseOption: INodeProperties = {
	displayName: "Skip Grist's Text Parsing",
	name: 'noparse',
	type: 'boolean',
	default: false,
	description:
		"Whether to skip Grist's parsing of text by the column's format (currency signs, thousands separators, dates in the column's date format, a reference's display value). Grist still stores plain numbers and ISO dates given as text as numbers and dates.",
};

/** The Options of a write whose only option is noparse (record create/update, columnar create/update). */
export const writeOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [noparseOption],
};

// ---------------------------------------------------------------------------------------------
// Reading and encoding fields

export interface ReadFieldsResult {
	fields: IDataObject;
	/** Column IDs of the mapper's "Columns to match on" (upsert). */
	matchingColumns: string[];
}

/** The raw (unencoded) fields of item `i` from the mapper, the input item, or the JSON field. */
export function readRawFields(this: IExecuteFunctions, i: number, wantMatching = false): ReadFieldsResult {
	const dataMode = itemParameter.call(this, 'dataMode', i, 'mapper') as string;
	if (dataMode === 'json') {
		const raw = this.getNodeParameter('fieldsJson', i, '{}') as unknown;
		let value: unknown = raw;
		if (typeof raw === 'string') {
			value = jsonParse(raw.trim() === '' ? '{}' : raw, {
				errorMessage: `The Fields (JSON) of item ${i} is not valid JSON`,
			});
		}
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			throw new NodeOperationError(this.getNode(), `The Fields (JSON) of item ${i} must be a JSON object of column IDs and values`, {
				itemIndex: i,
				description: 'e.g. {"Name": "Alice", "Age": 30}',
			});
		}
		return { fields: value as IDataObject, matchingColumns: [] };
	}
	const mappingMode = itemParameter.call(this, 'columns.mappingMode', i, 'defineBelow') as string;
	let matchingColumns: string[] = [];
	if (wantMatching) {
		const m = this.getNodeParameter('columns.matchingColumns', i, []) as ResourceMapperValue['matchingColumns'];
		matchingColumns = Array.isArray(m) ? m : [];
	}
	if (mappingMode === 'autoMapInputData') {
		const json = this.getInputData()[i]?.json ?? {};
		// Most items have neither key: their json is used as it is (never modified: encodeFields
		// builds a new object when it changes anything), not copied per item.
		if (!Object.prototype.hasOwnProperty.call(json, 'id') && !Object.prototype.hasOwnProperty.call(json, 'errors')) {
			return { fields: json, matchingColumns };
		}
		const fields: IDataObject = {};
		for (const [k, v] of Object.entries(json)) {
			if (k === 'id' || k === 'errors') continue; // Grist's row id and formula errors of a read
			fields[k] = v;
		}
		return { fields, matchingColumns };
	}
	const value = (this.getNodeParameter('columns.value', i, {}) as IDataObject | null) ?? {};
	return { fields: { ...value }, matchingColumns };
}

/**
 * Refuses item `i` before any request when it names columns the table does not have: Grist
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
	i: number,
	opts: { allowId?: boolean } = {},
): void {
	const unknown: string[] = [];
	for (const key of Object.keys(fields)) {
		if (table.byId.has(key) || fields[key] === undefined || (opts.allowId && key === 'id')) continue;
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
	const idNote = unknown.includes('id') ? ' A row\'s ID is not a field: Update takes it in Row ID, Create lets Grist choose it.' : '';
	throw new NodeOperationError(
		this.getNode(),
		`Table "${target.tableId}" has no column${unknown.length === 1 ? '' : 's'} ${names} (item ${i})`,
		{
			itemIndex: i,
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
	i: number,
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
			} else {
				const encoded = tryEncode(value, column.type);
				if ('error' in encoded) {
					throw new NodeOperationError(this.getNode(), `Field "${key}" of item ${i}: ${encoded.error}`, {
						itemIndex: i,
						description: `Change the value of "${key}" so that it fits the column's type (${column.type}).`,
					});
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

function tryEncode(value: unknown, type: string): { value: unknown } | { error: string } {
	try {
		return { value: encodeCellValue(value, type) };
	} catch (error) {
		return { error: error instanceof CellValueError ? error.message : String((error as Error).message) };
	}
}

export function columnMap(columns: GristColumn[]): Map<string, GristColumn> {
	return new Map(columns.map((c) => [c.id, c]));
}

export function noparseQs(this: IExecuteFunctions, i: number, qs: IDataObject = {}): IDataObject {
	const noparse = itemParameter.call(this, 'options.noparse', i, false) as boolean;
	if (noparse) qs.noparse = 1;
	return qs;
}

/** Row IDs from a number, an array, or text like `1, 2, 3`; anything else fails naming the field. */
export function parseRowIds(this: IExecuteFunctions, raw: unknown, i: number, field = 'Row IDs'): number[] {
	let list: unknown[];
	if (Array.isArray(raw)) list = raw;
	else if (typeof raw === 'number') list = [raw];
	else if (typeof raw === 'string') {
		const text = raw.trim();
		list = text.startsWith('[') ? (jsonParse(text, { fallbackValue: [text] }) as unknown[]) : text.split(',');
		if (!Array.isArray(list)) list = [text];
	} else list = [raw];
	const ids = list.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
	if (ids.length === 0) {
		throw new NodeOperationError(this.getNode(), `The ${field} field of item ${i} is empty`, {
			itemIndex: i,
			description: 'Enter one or more row IDs (whole numbers), e.g. 3 or 3, 4, 5.',
		});
	}
	return ids.map((v) => {
		const n = typeof v === 'number' ? v : Number(v);
		if (!Number.isInteger(n) || n <= 0) {
			throw new NodeOperationError(this.getNode(), `The ${field} field of item ${i} has ${JSON.stringify(v)}, which is not a row ID`, {
				itemIndex: i,
				description: 'A row ID is a whole number greater than 0 (the "id" of a record).',
			});
		}
		return n;
	});
}
