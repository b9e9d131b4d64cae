import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executeBatched, type BatchOptions, type BatchUnit, type WriteGroup } from '../batch';
import { simplifyFields } from '../../helpers/cells';
import type { GristClient } from '../../transport';
import { itemParameterValue } from '../../parameters/read';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import {
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	parseRowIds,
	readAllowDangling,
	readBatchSize,
	readNoparse,
	readRawFields,
	recordWriteOptionsField,
} from '../../parameters/writeOptions';
import {
	ColumnCache,
	targetKey,
	updateRecords,
	type TableInfo,
	type Target,
} from '../../transport/api';
import { encodeFields, refuseUnknownColumns, tableInfos } from '../fields';
import { referenceCheck } from '../references';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'Row ID',
		name: 'rowId',
		type: 'string',
		default: '={{ $json.id }}',
		required: true,
		description: 'The row ID of the record to update, e.g. the ID field of a record read before',
	},
	dataModeField,
	columnsMapper('add'),
	fieldsJsonField,
	recordWriteOptionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['update'] } },
	properties,
);

/** One record of the PATCH body. */
type RecordUpdate = { id: number; fields: IDataObject };

/**
 * PATCH …/records: items grouped by table and by field set (Grist requires one field set per
 * request), one request per chunk.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const infoOf = tableInfos(new ColumnCache(client));
	// Key and group of the last item: the next one with the same table, options and field names
	// (in the same order) shares them, without sorting its field names again.
	let last:
		| {
				target: Target;
				noparse: boolean;
				batchSize: number;
				allowDangling: boolean;
				names: string[];
				key: string;
				group: WriteGroup;
		  }
		| undefined;
	const unit = (
		itemIndex: number,
		target: Target,
		id: number,
		table: TableInfo,
	): BatchUnit<RecordUpdate, WriteGroup> => {
		const { fields: raw } = readRawFields.call(this, itemIndex);
		refuseUnknownColumns.call(this, raw, table, target, itemIndex);
		const fields = encodeFields.call(this, raw, table.byId, itemIndex);
		const noparse = readNoparse.call(this, itemIndex);
		const names = Object.keys(fields);
		const batchSize = readBatchSize.call(this, itemIndex);
		const allowDangling = readAllowDangling.call(this, itemIndex);
		if (
			last?.target !== target ||
			last.group.types !== table.types ||
			last.noparse !== noparse ||
			last.batchSize !== batchSize ||
			last.allowDangling !== allowDangling ||
			!sameList(last.names, names)
		) {
			const qs: IDataObject = noparse ? { noparse: 1 } : {};
			const fieldSet = [...names].sort();
			last = {
				target,
				noparse,
				batchSize,
				allowDangling,
				names,
				key: `${targetKey(target)}|${qs.noparse ?? ''}|${batchSize}|${allowDangling ? 1 : 0}|${fieldSet.join('\u0000')}`,
				group: { target, qs, types: table.types, batchSize, allowDangling },
			};
		}
		return { key: last.key, group: last.group, records: [{ id, fields }] };
	};
	const options: BatchOptions<RecordUpdate, WriteGroup> = {
		envelopeBytes: '{"records":[]}'.length,
		maxItemsOf: (group) => group.batchSize,
		prepare: (itemIndex) => {
			const target = readTarget.call(this, itemIndex);
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
					{
						itemIndex,
						description: 'Update one row per input item; use several items to update several rows.',
					},
				);
			}
			const table = infoOf(target, itemIndex);
			return table instanceof Promise
				? table.then((t) => unit(itemIndex, target, ids[0], t))
				: unit(itemIndex, target, ids[0], table);
		},
		verify: referenceCheck(this, client),
		send: async (group, units, records) => {
			await updateRecords(client, group.target, records, group.qs, units[0].itemIndex);
			const outputs: IDataObject[] = new Array<IDataObject>(units.length);
			for (let k = 0; k < units.length; k++) {
				const record = units[k].records[0];
				outputs[k] = simplifyFields(record.id, record.fields, group.types);
			}
			return { outputs };
		},
	};
	return await executeBatched(this, items, options);
}

function sameList(a: string[], b: string[]): boolean {
	if (a.length !== b.length) return false;
	for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
	return true;
}
