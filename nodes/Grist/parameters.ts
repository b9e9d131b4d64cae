/**
 * Reading the node's parameters, for operations, pickers (methods/) and the trigger: resource
 * locators (one reader, `locatorText`), the target document and table, ids, names, Return All /
 * Limit, row IDs, the fields of a write and its options, the read query (filter, sort, limit),
 * access rows. Every reader that fails throws a NodeOperationError naming the field and the item.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	IHookFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeParameters,
	IPollFunctions,
	IWebhookFunctions,
	ResourceMapperValue,
} from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { AccessInputError, type AccessRow, type AccessTarget } from './helpers/access';
import { DEFAULT_MAX_ITEMS } from './helpers/batch';
import { columnTypes, type GristColumn } from './helpers/columns';
import {
	FilterError,
	buildFilter,
	buildSort,
	parseJsonFilter,
	type FilterCondition,
	type SortRule,
} from './helpers/filters';
import type { GristClient } from './transport';
import { siteOrg, type ColumnCache, type Target } from './transport/api';

// ---------------------------------------------------------------------------------------------
// Resource locators, ids and names

/** A resource locator's value (as `getNodeParameter(…, { extractValue: true })` gives it) as trimmed text. */
function locatorText(value: unknown): string {
	return typeof value === 'number'
		? String(value)
		: String((value as string | IDataObject) ?? '').trim();
}

/** Reads a resource locator's value of item `itemIndex` as a trimmed string. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	return locatorText(this.getNodeParameter(name, itemIndex, '', { extractValue: true }));
}

/**
 * A resource locator's value while the editor loads options or searches a list: `''` when the
 * node has no such parameter (yet).
 */
export function pickedLocator(ctx: ILoadOptionsFunctions, name: string, current = false): string {
	try {
		return locatorText(
			current
				? ctx.getCurrentNodeParameter(name, { extractValue: true })
				: ctx.getNodeParameter(name, '', { extractValue: true }),
		);
	} catch {
		return '';
	}
}

/** A resource locator's value in a poll. */
export function pollLocator(fn: IPollFunctions, name: string): string {
	return locatorText(fn.getNodeParameter(name, '', { extractValue: true }));
}

/** A resource locator's value in a webhook trigger's lifecycle methods and `webhook()`. */
export function hookLocator(fn: IHookFunctions | IWebhookFunctions, name: string): string {
	return locatorText(fn.getNodeParameter(name, '', { extractValue: true }));
}

/** Reads a workspace id (resource locator `name`) as an integer; anything else is an input error. */
export function workspaceIdValue(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label = 'Workspace',
): number {
	const text = locatorValue.call(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), `The ${label} is empty`, {
			itemIndex,
			description: 'Pick a workspace from the list, or enter its numeric ID.',
		});
	}
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		throw new NodeOperationError(
			this.getNode(),
			`The ${label} ID "${text}" is not a whole number`,
			{
				itemIndex,
				description:
					'A workspace ID is a number, e.g. 17 (it appears in workspace URLs as /ws/17/).',
			},
		);
	}
	return Number(text);
}

/** Reads the document id of the Document field; an empty value is an input error. */
export function documentIdValue(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'document',
): string {
	const text = locatorValue.call(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), 'The Document is empty', {
			itemIndex,
			description: 'Pick a document from the list, paste its URL, or enter its ID.',
		});
	}
	return text;
}

/** A Name value, trimmed; an empty one is an input error whose description says what to enter. */
export function requiredName(
	this: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
	whatToEnter: string,
): string {
	const name = String(raw ?? '').trim();
	if (name === '') {
		throw new NodeOperationError(this.getNode(), 'The Name is empty', {
			itemIndex,
			description: whatToEnter,
		});
	}
	return name;
}

/** The binary field a downloaded file goes into ("Put Output File in Field"); empty is an input error. */
export function outputBinaryProperty(this: IExecuteFunctions, itemIndex: number): string {
	const name = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '').trim();
	if (name === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The field "Put Output File in Field" is empty (item ${itemIndex})`,
			{ description: 'Enter the name of the binary field for the file, e.g. data.', itemIndex },
		);
	}
	return name;
}

/** Reads the table id of the Table field; an empty value is an input error. */
export function tableIdValue(this: IExecuteFunctions, itemIndex: number, name = 'table'): string {
	const text = locatorValue.call(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), 'The Table is empty', {
			itemIndex,
			description: 'Pick a table from the list, or enter its ID (as shown in Raw Data).',
		});
	}
	return text;
}

/**
 * The org key of the Organization field (an id or a domain); when it is empty (optional field),
 * the site of the Server URL via `client.siteOrg()`.
 */
export async function orgKeyValue(
	this: IExecuteFunctions,
	client: GristClient,
	itemIndex: number,
	name = 'org',
): Promise<string | number> {
	const text = locatorValue.call(this, name, itemIndex);
	if (text !== '') return /^\d+$/.test(text) ? Number(text) : text;
	return await siteOrg(client);
}

/** Turns an AccessInputError into a NodeOperationError naming the field; other errors pass. */
export function asInputError(this: IExecuteFunctions, error: unknown, itemIndex: number): unknown {
	if (error instanceof AccessInputError) {
		return new NodeOperationError(this.getNode(), error.message, {
			itemIndex,
			description: error.hint,
		});
	}
	return error;
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
	/**
	 * By parameter: the value read for all items; `{ field }` for the expression
	 * `={{ $json.<field> }}`; `null` for any other expression.
	 */
	values: Map<string, { value: unknown } | { field: string } | null>;
	/** The same for `itemParameterValue` (objects kept). */
	objectValues: Map<string, { value: unknown } | { field: string } | null>;
	/** The same for resource locators read with `extractValue`. */
	extractedValues: Map<string, { value: unknown } | { field: string } | null>;
	/** The last target `readTarget` returned (callers must not modify it). */
	target?: Target;
	/** `getInputData()`: the same list for the whole execution. */
	input?: INodeExecutionData[];
}

/** `={{ $json.id }}`, `={{ $json["id"] }}`: an item's own field, the default of Row ID(s). */
const JSON_FIELD = /^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\\]+)\2\s*\])\s*\}\}$/;

const sameForAll = new WeakMap<object, SameForAll>();
function sameForAllCache(ctx: IExecuteFunctions): SameForAll {
	let cache = sameForAll.get(ctx);
	if (!cache) {
		cache = {
			parameters: ctx.getNode().parameters,
			values: new Map(),
			objectValues: new Map(),
			extractedValues: new Map(),
		};
		sameForAll.set(ctx, cache);
	}
	return cache;
}

/** The input items of the execution (`getInputData()`), read once. */
export function inputItems(this: IExecuteFunctions): INodeExecutionData[] {
	const cache = sameForAllCache(this);
	return (cache.input ??= this.getInputData());
}

function readOnce<T>(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
	options: IGetNodeParameterOptions | undefined,
	objects: boolean,
): T {
	const cache = sameForAllCache(ctx);
	const values = objects
		? cache.objectValues
		: options?.extractValue
			? cache.extractedValues
			: cache.values;
	const key = name;
	let entry = values.get(key);
	if (entry !== undefined && entry !== null && 'value' in entry) return entry.value as T;
	if (entry === undefined) {
		let raw: unknown = cache.parameters;
		for (const part of name.split('.')) raw = (raw as IDataObject | undefined)?.[part];
		if (hasExpression(raw)) {
			const m = typeof raw === 'string' && !options ? JSON_FIELD.exec(raw) : null;
			entry = m ? { field: m[1] ?? m[3] } : null;
			values.set(key, entry);
		}
	}
	if (entry && 'value' in entry) return entry.value as T;
	if (entry) {
		// What n8n's expression gives for a plain value of the item (a number, text or boolean);
		// anything else (missing, null, objects) goes through n8n as before.
		const v = (cache.input ??= ctx.getInputData())[itemIndex]?.json?.[entry.field];
		if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v as T;
	}
	const value = ctx.getNodeParameter(name, itemIndex, fallback as never, options) as T;
	if (entry === undefined && (objects || value === null || typeof value !== 'object'))
		values.set(key, { value });
	return value;
}

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
	itemIndex: number,
	fallback: T,
	options?: IGetNodeParameterOptions,
): T {
	return readOnce(this, name, itemIndex, fallback, options, false);
}

/**
 * `itemParameter` for any value (objects and arrays too, e.g. a collection of options, the
 * mapper's values or its matching columns): read once per execution when it holds no expression.
 * The value is shared by every item: callers must not modify it.
 */
export function itemParameterValue<T>(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
): T {
	return readOnce(this, name, itemIndex, fallback, undefined, true);
}

/** A resource locator's value as text (as `locatorValue`), read once when it has no expression. */
export function itemLocatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	return locatorText(itemParameter.call(this, name, itemIndex, '', { extractValue: true }));
}

/** The document and table of item `itemIndex`; empty values fail with an error naming the field. */
export function readTarget(this: IExecuteFunctions, itemIndex: number): Target {
	const docId = itemLocatorValue.call(this, 'document', itemIndex);
	if (docId === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The Document field is empty (item ${itemIndex})`,
			{
				itemIndex,
				description: 'Pick a document from the list, or enter its ID or URL.',
			},
		);
	}
	const tableId = itemLocatorValue.call(this, 'table', itemIndex);
	if (tableId === '') {
		throw new NodeOperationError(this.getNode(), `The Table field is empty (item ${itemIndex})`, {
			itemIndex,
			description: 'Pick a table from the list, or enter its ID (as shown in Raw Data).',
		});
	}
	// The same object for every item of one table, so that keys derived from it are computed once.
	const cache = sameForAllCache(this);
	if (cache.target?.docId !== docId || cache.target.tableId !== tableId)
		cache.target = { docId, tableId };
	return cache.target;
}

// ---------------------------------------------------------------------------------------------
// Limits

/** Applies Return All / Limit to a list the API returned whole. */
export function applyLimit<T>(ctx: IExecuteFunctions, list: T[], itemIndex: number): T[] {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return list;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	return list.slice(0, Math.max(0, limit));
}

// ---------------------------------------------------------------------------------------------
// Writes: fields, row IDs, options

export interface ReadFieldsResult {
	fields: IDataObject;
	/** Column IDs of the mapper's "Columns to match on" (upsert). */
	matchingColumns: string[];
}

/** The raw (unencoded) fields of item `itemIndex` from the mapper, the input item, or the JSON field. */
export function readRawFields(
	this: IExecuteFunctions,
	itemIndex: number,
	wantMatching = false,
): ReadFieldsResult {
	const dataMode = itemParameter.call(this, 'dataMode', itemIndex, 'mapper') as string;
	if (dataMode === 'json') {
		const raw = itemParameterValue.call(this, 'fieldsJson', itemIndex, '{}' as unknown);
		let value: unknown = raw;
		if (typeof raw === 'string') {
			value = jsonParse(raw.trim() === '' ? '{}' : raw, {
				errorMessage: `The Fields (JSON) of item ${itemIndex} is not valid JSON`,
			});
		}
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			throw new NodeOperationError(
				this.getNode(),
				`The Fields (JSON) of item ${itemIndex} must be a JSON object of column IDs and values`,
				{
					itemIndex,
					description: 'e.g. {"Name": "Alice", "Age": 30}',
				},
			);
		}
		return { fields: value as IDataObject, matchingColumns: [] };
	}
	const mappingMode = itemParameter.call(
		this,
		'columns.mappingMode',
		itemIndex,
		'defineBelow',
	) as string;
	let matchingColumns: string[] = [];
	if (wantMatching) {
		const none: ResourceMapperValue['matchingColumns'] = [];
		const m = itemParameterValue.call(this, 'columns.matchingColumns', itemIndex, none);
		matchingColumns = Array.isArray(m) ? m : [];
	}
	if (mappingMode === 'autoMapInputData') {
		const json = inputItems.call(this)[itemIndex]?.json ?? {};
		// Most items have neither key: their json is used as it is (never modified: encodeFields
		// builds a new object when it changes anything), not copied per item.
		if (
			!Object.prototype.hasOwnProperty.call(json, 'id') &&
			!Object.prototype.hasOwnProperty.call(json, 'errors')
		) {
			return { fields: json, matchingColumns };
		}
		const fields: IDataObject = {};
		const keys = Object.keys(json);
		for (let k = 0; k < keys.length; k++) {
			const key = keys[k];
			if (key === 'id' || key === 'errors') continue; // Grist's row id and formula errors of a read
			fields[key] = json[key];
		}
		return { fields, matchingColumns };
	}
	const empty: IDataObject | null = {};
	const value = itemParameterValue.call(this, 'columns.value', itemIndex, empty) ?? {};
	return { fields: { ...value }, matchingColumns };
}

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

/** Options → Batch Size of item `itemIndex`: records per request of a batched write (default 500). */
export function readBatchSize(this: IExecuteFunctions, itemIndex: number): number {
	const raw = itemParameter.call(
		this,
		'options.batchSize',
		itemIndex,
		DEFAULT_MAX_ITEMS,
	) as unknown;
	const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The Batch Size of item ${itemIndex} must be a whole number of at least 1, not ${JSON.stringify(raw)}`,
			{ itemIndex, description: 'Set Options → Batch Size to 1 or more (default 500).' },
		);
	}
	return n;
}

/** Options → Allow Dangling References of the record writes (default off: references are checked). */
export function readAllowDangling(this: IExecuteFunctions, itemIndex: number): boolean {
	return !!itemParameter.call(this, 'options.allowDanglingReferences', itemIndex, false);
}

/** Options → the noparse flag of item `itemIndex` (values stored as sent, not parsed by Grist). */
export function readNoparse(this: IExecuteFunctions, itemIndex: number): boolean {
	return !!itemParameter.call(this, 'options.noparse', itemIndex, false);
}

export function noparseQs(
	this: IExecuteFunctions,
	itemIndex: number,
	qs: IDataObject = {},
): IDataObject {
	if (readNoparse.call(this, itemIndex)) qs.noparse = 1;
	return qs;
}

// ---------------------------------------------------------------------------------------------
// Reads: filter, sort, limit

/** Limit of item `itemIndex`: `0` for Return All, else a whole number ≥ 1. */
export function readLimit(this: IExecuteFunctions, itemIndex: number): number {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return 0;
	const limit = this.getNodeParameter('limit', itemIndex, 50) as unknown;
	const n = typeof limit === 'string' ? Number(limit) : (limit as number);
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The Limit of item ${itemIndex} must be a whole number of at least 1, not ${JSON.stringify(limit)}`,
			{
				itemIndex,
				description: 'Set Limit to 1 or more, or turn on Return All.',
			},
		);
	}
	return n;
}

function toOperationError(
	this: IExecuteFunctions,
	error: Error,
	itemIndex: number,
): NodeOperationError {
	const fe = error instanceof FilterError ? error : undefined;
	return new NodeOperationError(this.getNode(), `${error.message} (item ${itemIndex})`, {
		itemIndex,
		description: fe?.hint ?? `Fix the ${fe?.field ?? 'Filter'} field.`,
	});
}

function attempt<T>(fn: () => T): { value: T } | { error: Error } {
	try {
		return { value: fn() };
	} catch (error) {
		return { error: error as Error };
	}
}

/**
 * Builds `filter`, `sort` and `limit` for item `itemIndex`. `columns` is needed for the filter builder
 * (value types) and to catch sorts on unknown columns before the request (Grist answers 500).
 */
function buildReadQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	columns: GristColumn[] | undefined,
): IDataObject {
	const qs: IDataObject = {};
	const limit = readLimit.call(this, itemIndex);
	if (limit > 0) qs.limit = limit;

	const filterType = this.getNodeParameter('filterType', itemIndex, 'none') as string;
	const filter = attempt(() => {
		if (filterType === 'builder') {
			const conditions =
				(this.getNodeParameter('filters.conditions', itemIndex, []) as FilterCondition[]) ?? [];
			return buildFilter(conditions, columns ? columnTypes(columns) : {});
		}
		if (filterType === 'json')
			return parseJsonFilter(this.getNodeParameter('filterJson', itemIndex, '{}'), 'Filter (JSON)');
		return {};
	});
	if ('error' in filter) throw toOperationError.call(this, filter.error, itemIndex);
	if (Object.keys(filter.value).length > 0) qs.filter = JSON.stringify(filter.value);

	const rules = (this.getNodeParameter('sort.rules', itemIndex, []) as SortRule[]) ?? [];
	if (rules.length > 0) {
		const sort = attempt(() => buildSort(rules));
		if ('error' in sort) throw toOperationError.call(this, sort.error, itemIndex);
		if (columns) {
			const known = new Set(columns.map((c) => c.id));
			known.add('id');
			known.add('manualSort');
			for (const rule of rules) {
				const column = String(rule.column).trim();
				if (!known.has(column)) {
					throw new NodeOperationError(
						this.getNode(),
						`Cannot sort by column "${column}": the table has no such column (item ${itemIndex})`,
						{
							itemIndex,
							description: `Pick a column of the table in Sort. Its columns are: ${[...known].filter((c) => c !== 'manualSort').join(', ')}.`,
						},
					);
				}
			}
		}
		qs.sort = sort.value;
	}
	return qs;
}

/**
 * The read query (filter, sort, limit) of item `itemIndex`, and the table's columns where they
 * are needed: for the output (`withColumns`, e.g. Simplify), the filter builder or a sort.
 */
export async function readQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	target: Target,
	cache: ColumnCache,
	withColumns: boolean,
): Promise<{ qs: IDataObject; columns: GristColumn[] | undefined }> {
	let columns: GristColumn[] | undefined;
	if (withColumns || queryNeedsColumns.call(this, itemIndex))
		columns = await cache.get(target, itemIndex);
	return { qs: buildReadQuery.call(this, itemIndex, columns), columns };
}

/** Whether item `itemIndex`'s query needs the table's columns. */
function queryNeedsColumns(this: IExecuteFunctions, itemIndex: number): boolean {
	const filterType = this.getNodeParameter('filterType', itemIndex, 'none') as string;
	const rules = (this.getNodeParameter('sort.rules', itemIndex, []) as SortRule[]) ?? [];
	return filterType === 'builder' || rules.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Access

/** Reads the rows and the Max Inherited Role of accessUpdateFields. */
export function accessUpdateInput(
	this: IExecuteFunctions,
	target: AccessTarget,
	itemIndex: number,
): { rows: AccessRow[]; maxInheritedRole?: unknown } {
	const rows = this.getNodeParameter('users.user', itemIndex, []) as AccessRow[];
	if (target === 'org') return { rows };
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return { rows, maxInheritedRole: options.maxInheritedRole };
}
