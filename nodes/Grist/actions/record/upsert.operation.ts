import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executeBatched, type BatchOptions, type BatchUnit, type WriteGroup } from '../batch';
import { decodeCellValue } from '../../helpers/cells';
import type { GristClient } from '../../transport';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import {
	allowDanglingOption,
	batchSizeOption,
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	noparseOption,
	readAllowDangling,
	readBatchSize,
	readNoparse,
	readRawFields,
} from '../../parameters/writeOptions';
import {
	ColumnCache,
	targetKey,
	upsertRecords,
	type TableInfo,
	type Target,
} from '../../transport/api';
import { encodeFields, refuseUnknownColumns, tableInfos } from '../fields';
import { referenceCheck } from '../references';

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['upsert'] } },
	properties,
);

/** One record of the PUT body. */
type RecordUpsert = { require: IDataObject; fields: IDataObject };

/**
 * PUT …/records: match columns go to `require`, the other fields to `fields`. Items of one table
 * and the same options share requests; items repeating a `require` already in the batch go into
 * a later request (Grist rejects duplicate `require` values in one request).
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const infoOf = tableInfos(new ColumnCache(client));
	// By group (its key without the round): how many items brought each `require` so far; one
	// map for single text / number / boolean values (the value is the key), one for JSON texts.
	const seen = new Map<string, { values: Map<unknown, number>; json: Map<string, number> }>();
	// The group of the last item: the next one with the same table and options shares it.
	let last:
		| {
				target: Target;
				types: Record<string, string>;
				noparse: boolean;
				onMany: string;
				noAdd: boolean;
				noUpdate: boolean;
				allowEmpty: boolean;
				batchSize: number;
				allowDangling: boolean;
				base: string;
				key0: string;
				group: WriteGroup;
				seen: { values: Map<unknown, number>; json: Map<string, number> };
		  }
		| undefined;
	// Columns to Match On (JSON mode) as last read, and its list.
	let matchText: string | undefined;
	let matchList: string[] = [];
	const unit = (
		itemIndex: number,
		target: Target,
		table: TableInfo,
	): BatchUnit<RecordUpsert, WriteGroup> => {
		const byId = table.byId;
		const dataMode = itemParameter.call(this, 'dataMode', itemIndex, 'mapper') as string;
		const { fields: raw, matchingColumns } = readRawFields.call(
			this,
			itemIndex,
			dataMode !== 'json',
		);
		let match = matchingColumns;
		if (dataMode === 'json') {
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
			match = matchList;
		}
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
		refuseUnknownColumns.call(this, requireRaw, table, target, itemIndex, { allowId: true });
		refuseUnknownColumns.call(this, fieldsRaw, table, target, itemIndex);
		const allowEmpty = !!itemParameter.call(this, 'options.allowEmptyRequire', itemIndex, false);
		if (match.length === 0 && !allowEmpty) {
			throw new NodeOperationError(this.getNode(), `Item ${itemIndex} has no columns to match on`, {
				itemIndex,
				description:
					'Pick the columns that identify a row in "Columns to Match On", or turn on Allow Empty Match to match every row of the table.',
			});
		}
		const require = encodeFields.call(this, requireRaw, byId, itemIndex, { keepFormulas: true });
		const fields = encodeFields.call(this, fieldsRaw, byId, itemIndex);
		const noparse = readNoparse.call(this, itemIndex);
		const onMany = itemParameter.call(this, 'options.onMany', itemIndex, 'first') as string;
		const noAdd = !!itemParameter.call(this, 'options.noAdd', itemIndex, false);
		const noUpdate = !!itemParameter.call(this, 'options.noUpdate', itemIndex, false);
		const batchSize = readBatchSize.call(this, itemIndex);
		const allowDangling = readAllowDangling.call(this, itemIndex);
		if (
			last?.target !== target ||
			last.types !== table.types ||
			last.noparse !== noparse ||
			last.onMany !== onMany ||
			last.noAdd !== noAdd ||
			last.noUpdate !== noUpdate ||
			last.allowEmpty !== allowEmpty ||
			last.batchSize !== batchSize ||
			last.allowDangling !== allowDangling
		) {
			const qs: IDataObject = {};
			if (noparse) qs.noparse = 1;
			if (onMany !== 'first') qs.onmany = onMany;
			if (noAdd) qs.noadd = 1;
			if (noUpdate) qs.noupdate = 1;
			if (allowEmpty) qs.allow_empty_require = 1;
			// The query string's values in the key (`1` or '' for flags).
			const base = `${targetKey(target)}|${qs.noparse ?? ''}|${qs.onmany ?? ''}|${qs.noadd ?? ''}|${qs.noupdate ?? ''}|${qs.allow_empty_require ?? ''}|${batchSize}|${allowDangling ? 1 : 0}`;
			let counts = seen.get(base);
			if (!counts) {
				counts = { values: new Map(), json: new Map() };
				seen.set(base, counts);
			}
			last = {
				target,
				types: table.types,
				noparse,
				onMany,
				noAdd,
				noUpdate,
				allowEmpty,
				batchSize,
				allowDangling,
				base,
				key0: `${base}|0`,
				group: { target, qs, types: table.types, batchSize, allowDangling },
				seen: counts,
			};
		}
		// Items repeating a `require` of the group go into a later round (a later request).
		let round: number;
		const single = match.length === 1 ? require[match[0]] : undefined;
		if (
			typeof single === 'string' ||
			typeof single === 'boolean' ||
			(typeof single === 'number' && Number.isFinite(single))
		) {
			round = last.seen.values.get(single) ?? 0;
			last.seen.values.set(single, round + 1);
		} else {
			const requireKey = JSON.stringify(match.map((column) => require[column] ?? null));
			round = last.seen.json.get(requireKey) ?? 0;
			last.seen.json.set(requireKey, round + 1);
		}
		return {
			key: round === 0 ? last.key0 : `${last.base}|${round}`,
			group: last.group,
			records: [{ require, fields }],
		};
	};
	const options: BatchOptions<RecordUpsert, WriteGroup> = {
		envelopeBytes: '{"records":[]}'.length,
		maxItemsOf: (group) => group.batchSize,
		prepare: (itemIndex) => {
			const target = readTarget.call(this, itemIndex);
			const table = infoOf(target, itemIndex);
			return table instanceof Promise
				? table.then((t) => unit(itemIndex, target, t))
				: unit(itemIndex, target, table);
		},
		verify: referenceCheck(this, client),
		send: async (group, units, records) => {
			const res = await upsertRecords(client, group.target, records, group.qs, units[0].itemIndex);
			const types = group.types;
			const outputs: IDataObject[] = new Array<IDataObject>(units.length);
			for (let k = 0; k < units.length; k++) {
				const { require, fields } = units[k].records[0];
				const json: IDataObject = {};
				const ids = res?.recordIds?.[k];
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
			return { outputs };
		},
	};
	return await executeBatched(this, items, options);
}

/** A cell value for the output: text, booleans and null as they are, others decoded. */
function decoded(value: unknown, type: string | undefined): IDataObject[string] {
	return (
		typeof value === 'string' || typeof value === 'boolean' || value === null
			? value
			: decodeCellValue(value, type)
	) as IDataObject[string];
}
