/**
 * What a record or columnar write reads besides its target and row IDs (./rowIds.ts): the
 * fields (Data Mode, the column mapper, Fields (JSON)) and the Options (Batch Size, Allow
 * Dangling References, Skip Grist's Text Parsing); their fields and readers.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	ResourceMapperValue,
} from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from './commonFields';
import { DEFAULT_MAX_ITEMS } from '../write/chunking';
import { inputItems, itemParameter, itemParameterValue, SameForAllItems } from './read';

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
		{
			name: 'Raw JSON',
			value: 'json',
			description: 'Give the fields as a JSON object of column IDs and values',
		},
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
		// Until a table is picked there is nothing to map (n8n would show "No columns found" in red).
		displayOptions: { show: { dataMode: ['mapper'] }, hide: { document: [''], table: [''] } },
	};
}

export const fieldsJsonField: INodeProperties = {
	displayName: 'Fields (JSON)',
	name: 'fieldsJson',
	type: 'json',
	default: '{}',
	required: true,
	description:
		'An object of column IDs and values, e.g. {"Name": "Alice", "Tags": ["a", "b"]}. A Reference takes a row ID or the value the row shows (e.g. {"Client": "Acme Ltd"}).',
	displayOptions: { show: { dataMode: ['json'] } },
};

export const noparseOption: INodeProperties = {
	displayName: "Skip Grist's Text Parsing",
	name: 'noparse',
	type: 'boolean',
	default: false,
	description:
		"Whether to skip Grist's parsing of text by the column's format (currency signs, thousands separators, dates in the column's date format). Grist still stores plain numbers and ISO dates given as text as numbers and dates.",
};

/** Records per request of a batched write (readBatchSize; default: 500, as before the option). */
export const batchSizeOption: INodeProperties = {
	displayName: 'Batch Size',
	name: 'batchSize',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 500,
	description:
		"Most records per request (a request also stays under Grist's 1 MB body limit). Bigger batches load faster, but each request holds the document longer, so other users' edits wait for it; smaller ones cost more requests.",
};

/**
 * Record Create / Update / Upsert: write references to rows that do not exist. Off by default:
 * such items are refused before any request (write/referenceCheck.ts).
 */
export const allowDanglingOption: INodeProperties = {
	displayName: 'Allow Dangling References',
	name: 'allowDanglingReferences',
	type: 'boolean',
	default: false,
	description:
		'Whether to write Reference and Reference List cells that point at rows that do not exist (Grist stores them and shows them as errors). Off: the row IDs are checked first (one read per referenced table) and items pointing at missing rows are refused.',
};

/** The Options of a record create/update: dangling references, noparse and the batch size. */
export const recordWriteOptionsField: INodeProperties = optionsCollection([
	allowDanglingOption,
	batchSizeOption,
	noparseOption,
]);

/** The Options of a record or columnar create/update: noparse and the batch size. */
export const writeOptionsField: INodeProperties = optionsCollection([
	batchSizeOption,
	noparseOption,
]);

// ---------------------------------------------------------------------------------------------
// Reading

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

/**
 * The query options of a create or update (the noparse flag), per item: one object for all items
 * when the option holds no expression.
 */
export function noparseQuery(this: IExecuteFunctions): SameForAllItems<{ noparse: boolean }> {
	return new SameForAllItems(this, (itemIndex) => ({ noparse: readNoparse.call(this, itemIndex) }));
}
