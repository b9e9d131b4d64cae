import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeBatched, type BatchOptions, type BatchUnit, type WriteGroup } from '../batch';
import { simplifyFields } from '../../helpers/cells';
import type { GristClient } from '../../transport';
import { readBatchSize, readNoparse, readRawFields, readTarget } from '../../parameters';
import {
	addRecords,
	ColumnCache,
	targetKey,
	type TableInfo,
	type Target,
} from '../../transport/api';
import {
	columnsMapper,
	dataModeField,
	documentLocator,
	fieldsJsonField,
	tableLocator,
	writeOptionsField,
} from '../common.descriptions';
import { encodeFields, refuseUnknownColumns, tableInfos } from '../fields';

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
	const infoOf = tableInfos(new ColumnCache(client));
	// Key and group of the last item: the next one with the same table and options shares them.
	let last:
		| { target: Target; noparse: boolean; batchSize: number; key: string; group: WriteGroup }
		| undefined;
	const unit = (
		itemIndex: number,
		target: Target,
		table: TableInfo,
	): BatchUnit<{ fields: IDataObject }, WriteGroup> => {
		const { fields: raw } = readRawFields.call(this, itemIndex);
		refuseUnknownColumns.call(this, raw, table, target, itemIndex);
		const fields = encodeFields.call(this, raw, table.byId, itemIndex);
		const noparse = readNoparse.call(this, itemIndex);
		const batchSize = readBatchSize.call(this, itemIndex);
		if (
			last?.target !== target ||
			last.group.types !== table.types ||
			last.noparse !== noparse ||
			last.batchSize !== batchSize
		) {
			const qs: IDataObject = noparse ? { noparse: 1 } : {};
			last = {
				target,
				noparse,
				batchSize,
				key: `${targetKey(target)}|${JSON.stringify(qs)}|${batchSize}`,
				group: { target, qs, types: table.types, batchSize },
			};
		}
		return { key: last.key, group: last.group, records: [{ fields }] };
	};
	const options: BatchOptions<{ fields: IDataObject }, WriteGroup> = {
		envelopeBytes: '{"records":[]}'.length,
		maxItemsOf: (group) => group.batchSize,
		prepare: (itemIndex) => {
			const target = readTarget.call(this, itemIndex);
			const table = infoOf(target, itemIndex);
			return table instanceof Promise
				? table.then((t) => unit(itemIndex, target, t))
				: unit(itemIndex, target, table);
		},
		send: async (group, units, records) => {
			const ids = await addRecords(client, group.target, records, group.qs, units[0].itemIndex);
			const outputs: IDataObject[] = new Array<IDataObject>(units.length);
			for (let k = 0; k < units.length; k++)
				outputs[k] = simplifyFields(ids[k]?.id, units[k].records[0].fields, group.types);
			return { outputs };
		},
	};
	return await executeBatched(this, items, options);
}
