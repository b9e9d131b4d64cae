import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { decodeCellValue } from '../../cells/cellValues';
import { itemParameter, itemParameterValue, SameForAllItems } from '../../parameters/read';
import {
	readNoparse,
	readRawFields,
	allowDanglingOption,
	batchSizeOption,
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	noparseOption,
} from '../../parameters/writeOptions';
import { upsertRecords } from '../../api/records';
import { documentLocator, tableLocator } from '../../parameters/locators';
import { encodeFields, refuseUnknownColumns } from '../../write/fields';
import { optionsCollection } from '../../parameters/commonFields';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { addItem, itemTable, itemTarget, startWrite, type WriteSpec } from '../../write/collect';
import { refuseItem } from '../../write/report';
import { finishWrite } from '../../write/send';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	dataModeField,
	columnsMapper('upsert'),
	fieldsJsonField,
	{
		displayName: 'Columns to Match On',
		name: 'matchColumns',
		type: 'string',
		default: '',
		placeholder: 'e.g. Email',
		description:
			'Column IDs (separated by commas) whose values identify the record; their values are taken from the fields',
		displayOptions: { show: { dataMode: ['json'] } },
	},
	optionsCollection([
		allowDanglingOption,
		{
			displayName: 'Allow Empty Match',
			name: 'allowEmptyRequire',
			type: 'boolean',
			default: false,
			description: 'Whether an item without match values may match every record of the table',
		},
		batchSizeOption,
		{
			displayName: 'Never Add',
			name: 'noAdd',
			type: 'boolean',
			default: false,
			description: 'Whether to skip items that match no record instead of adding a record',
		},
		{
			displayName: 'Never Update',
			name: 'noUpdate',
			type: 'boolean',
			default: false,
			description:
				'Whether to leave matching records as they are (only add records that match nothing)',
		},
		noparseOption,
		{
			displayName: 'When Several Records Match',
			name: 'onMany',
			type: 'options',
			options: [
				{
					name: 'Update the First',
					value: 'first',
					description: 'Update the record with the lowest row ID',
				},
				{ name: 'Update None', value: 'none', description: 'Leave all of them as they are' },
				{ name: 'Update All', value: 'all', description: 'Update every matching record' },
			],
			default: 'first',
		},
	]),
];

export const description = operationDescription('record', 'upsert', properties);

/**
 * PUT …/records: match columns go to `require`, the other fields to `fields`. Items of one table
 * and the same options share requests; items repeating a `require` already in the batch go into
 * a later request (Grist rejects duplicate `require` values in one request).
 */
export const execute: OperationExecute = async function (client, items) {
	// Columns to Match On (JSON mode) as last read, and its list.
	let matchText: string | undefined;
	let matchList: string[] = [];
	const matchColumns = (itemIndex: number): string[] => {
		const text = String(
			itemParameterValue.call(this, 'matchColumns', itemIndex, '' as unknown) ?? '',
		);
		if (text !== matchText) {
			matchText = text;
			matchList = text
				.split(',')
				.map((s) => s.trim())
				.filter((s) => s !== '');
		}
		return matchList;
	};
	const write = startWrite<UpsertRecord>(this, client, items.length, UPSERT);
	const options = new SameForAllItems(this, (itemIndex) => upsertOptions.call(this, itemIndex));
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = itemTarget(write, itemIndex);
			const table = await itemTable(write, target, itemIndex);
			const json = itemParameter.call(this, 'dataMode', itemIndex, 'mapper') === 'json';
			const { fields: raw, matchingColumns } = readRawFields.call(this, itemIndex, !json);
			const match = json ? matchColumns(itemIndex) : matchingColumns;
			const { requireRaw, fieldsRaw } = splitByMatch.call(this, raw, match, itemIndex);
			refuseUnknownColumns.call(this, requireRaw, table, target, itemIndex, { allowId: true });
			refuseUnknownColumns.call(this, fieldsRaw, table, target, itemIndex);
			const allowEmpty = !!itemParameter.call(this, 'options.allowEmptyRequire', itemIndex, false);
			if (match.length === 0 && !allowEmpty) refuseNoMatch.call(this, itemIndex);
			const byId = table.byId;
			const require = encodeFields.call(this, requireRaw, byId, itemIndex, REQUIRE);
			const fields = encodeFields.call(this, fieldsRaw, byId, itemIndex, FIELDS);
			// the round key of the final match values (references given by name: their row IDs)
			const grouping = (records: UpsertRecord[]) => ({
				roundKey: requireKey(match, records[0].require),
			});
			addItem(
				write,
				itemIndex,
				target,
				table,
				[{ require, fields }],
				grouping,
				options.of(itemIndex),
			);
		} catch (error) {
			refuseItem(write.report, itemIndex, error);
		}
	}
	return await finishWrite(write, async (group, records, units) => {
		const res = await upsertRecords(client, group.target, records, group.qs, units[0].itemIndex);
		return upsertOutputs(records, res?.recordIds, group.types);
	});
};

type UpsertRecord = { require: IDataObject; fields: IDataObject };

/** Reference cells may name rows by their shown value (write/referenceNames.ts). */
const REQUIRE = { keepFormulas: true, names: true };
const FIELDS = { names: true };

const UPSERT: WriteSpec = {
	envelopeBytes: '{"records":[]}'.length,
	columns: true,
	batchSize: true,
	references: true,
};

/** The query string of PUT …/records, in this order. */
function upsertOptions(this: IExecuteFunctions, itemIndex: number) {
	return {
		noparse: readNoparse.call(this, itemIndex),
		onmany: unlessFirst(itemParameter.call(this, 'options.onMany', itemIndex, 'first')),
		noadd: !!itemParameter.call(this, 'options.noAdd', itemIndex, false),
		noupdate: !!itemParameter.call(this, 'options.noUpdate', itemIndex, false),
		allow_empty_require: !!itemParameter.call(this, 'options.allowEmptyRequire', itemIndex, false),
	};
}

/** The output of each record of an upsert: its row ID(s) and its values, decoded. */
function upsertOutputs(
	records: UpsertRecord[],
	recordIds: Array<number | number[] | null> | undefined,
	types: Record<string, string>,
): IDataObject[] {
	const outputs: IDataObject[] = new Array<IDataObject>(records.length);
	for (let k = 0; k < records.length; k++) {
		const { require, fields } = records[k];
		const json: IDataObject = {};
		const ids = recordIds?.[k];
		if (ids !== undefined) {
			const list = Array.isArray(ids) ? ids : ids === null ? [] : [ids];
			json.id = list.length > 0 ? list[0] : null;
			json.ids = list;
		}
		for (const key in require) {
			if (!(key in fields)) json[key] = decoded(require[key], types[key]);
		}
		for (const key in fields) json[key] = decoded(fields[key], types[key]);
		outputs[k] = json;
	}
	return outputs;
}

/**
 * The item's fields split into the match columns' (`require`) and the others (`fields`); an
 * item without a value for a match column is refused.
 */
function splitByMatch(
	this: IExecuteFunctions,
	raw: IDataObject,
	match: string[],
	itemIndex: number,
): { requireRaw: IDataObject; fieldsRaw: IDataObject } {
	const requireRaw: IDataObject = {};
	const fieldsRaw: IDataObject = {};
	const keys = Object.keys(raw);
	for (let k = 0; k < keys.length; k++) {
		const key = keys[k];
		if (match.includes(key)) requireRaw[key] = raw[key];
		else fieldsRaw[key] = raw[key];
	}
	for (const column of match) {
		if (!(column in requireRaw) || requireRaw[column] === undefined) {
			throw new NodeOperationError(
				this.getNode(),
				`Item ${itemIndex} has no value for the match column "${column}"`,
				{
					itemIndex,
					description: `Give "${column}" a value, or remove it from the columns to match on.`,
				},
			);
		}
	}
	return { requireRaw, fieldsRaw };
}

function refuseNoMatch(this: IExecuteFunctions, itemIndex: number): never {
	throw new NodeOperationError(this.getNode(), `Item ${itemIndex} has no columns to match on`, {
		itemIndex,
		description:
			'Pick the columns that identify a row in "Columns to Match On", or turn on Allow Empty Match to match every row of the table.',
	});
}

/** When Several Records Match: nothing in the query string for the default, "first". */
function unlessFirst(onMany: unknown): string | undefined {
	return onMany === 'first' ? undefined : (onMany as string);
}

/**
 * The round key of an upsert: its one match value as it is (text, number, boolean: no JSON per
 * item), else the JSON text of its match values in the order of the match columns. (A single
 * text equal to another item's JSON text only sends one of them a request later.)
 */
function requireKey(match: string[], require: IDataObject): unknown {
	const single = match.length === 1 ? require[match[0]] : undefined;
	if (
		typeof single === 'string' ||
		typeof single === 'boolean' ||
		(typeof single === 'number' && Number.isFinite(single))
	)
		return single;
	return JSON.stringify(match.map((column) => require[column] ?? null));
}

/** A cell value for the output: text, booleans and null as they are, others decoded. */
function decoded(value: unknown, type: string | undefined): IDataObject[string] {
	return (
		typeof value === 'string' || typeof value === 'boolean' || value === null
			? value
			: decodeCellValue(value, type)
	) as IDataObject[string];
}
