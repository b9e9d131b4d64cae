import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeBatched, type BatchOptions, type WriteGroup } from '../batch';
import { simplifyRecord } from '../../helpers/cells';
import type { GristClient } from '../../transport';
import { noparseQs, readBatchSize, readRawFields, readTarget } from '../../parameters';
import { addRecords, ColumnCache, targetKey } from '../../transport/api';
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
	dataModeField,
	columnsMapper('add'),
	fieldsJsonField,
	writeOptionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['create'] } },
	properties,
);

/** POST …/records: all items of one table in as few requests as Grist allows. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const cache = new ColumnCache(client);
	const options: BatchOptions<{ fields: IDataObject }, WriteGroup> = {
		envelopeBytes: '{"records":[]}'.length,
		maxItemsOf: (group) => group.batchSize,
		prepare: async (itemIndex) => {
			const target = readTarget.call(this, itemIndex);
			const table = await cache.info(target, itemIndex);
			const { fields: raw } = readRawFields.call(this, itemIndex);
			refuseUnknownColumns.call(this, raw, table, target, itemIndex);
			const fields = encodeFields.call(this, raw, table.byId, itemIndex);
			const qs = noparseQs.call(this, itemIndex);
			const batchSize = readBatchSize.call(this, itemIndex);
			return {
				key: `${targetKey(target)}|${JSON.stringify(qs)}|${batchSize}`,
				group: { target, qs, types: table.types, batchSize },
				records: [{ fields }],
			};
		},
		send: async (group, units, records) => {
			const ids = await addRecords(client, group.target, records, group.qs, units[0].itemIndex);
			return {
				outputs: units.map((u, k) => [
					simplifyRecord({ id: ids[k]?.id, fields: u.records[0].fields }, group.types),
				]),
			};
		},
	};
	return await executeBatched(this, items, options);
}
