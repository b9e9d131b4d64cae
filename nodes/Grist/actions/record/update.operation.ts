import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executeBatched, type BatchOptions, type WriteGroup } from '../batch';
import { simplifyRecord } from '../../helpers/cells';
import type { GristClient } from '../../transport';
import {
	itemParameterValue,
	noparseQs,
	parseRowIds,
	readBatchSize,
	readRawFields,
	readTarget,
} from '../../parameters';
import { ColumnCache, targetKey, updateRecords } from '../../transport/api';
import {
	columnsMapper,
	dataModeField,
	documentLocator,
	fieldsJsonField,
	tableLocator,
	writeOptionsField,
} from '../common.descriptions';
import { encodeFields, refuseUnknownColumns } from '../fields';

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
	writeOptionsField,
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
	const cache = new ColumnCache(client);
	const options: BatchOptions<RecordUpdate, WriteGroup> = {
		envelopeBytes: '{"records":[]}'.length,
		maxItemsOf: (group) => group.batchSize,
		prepare: async (itemIndex) => {
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
			const table = await cache.info(target, itemIndex);
			const { fields: raw } = readRawFields.call(this, itemIndex);
			refuseUnknownColumns.call(this, raw, table, target, itemIndex);
			const fields = encodeFields.call(this, raw, table.byId, itemIndex);
			const qs = noparseQs.call(this, itemIndex);
			const fieldSet = Object.keys(fields).sort();
			const batchSize = readBatchSize.call(this, itemIndex);
			return {
				key: `${targetKey(target)}|${qs.noparse ?? ''}|${batchSize}|${fieldSet.join('\u0000')}`,
				group: { target, qs, types: table.types, batchSize },
				records: [{ id: ids[0], fields }],
			};
		},
		send: async (group, units, records) => {
			await updateRecords(client, group.target, records, group.qs, units[0].itemIndex);
			return { outputs: units.map((u) => [simplifyRecord(u.records[0], group.types)]) };
		},
	};
	return await executeBatched(this, items, options);
}
