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
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import {
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	readAllowDangling,
	readBatchSize,
	readNoparse,
	readRawFields,
	recordWriteOptionsField,
} from '../../parameters/writeOptions';
import {
	addRecords,
	ColumnCache,
	targetKey,
	type TableInfo,
	type Target,
} from '../../transport/api';
import { encodeFields, refuseUnknownColumns, tableInfos } from '../fields';
import { referenceCheck } from '../references';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	dataModeField,
	columnsMapper('add'),
	fieldsJsonField,
	recordWriteOptionsField,
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
		| {
				target: Target;
				noparse: boolean;
				batchSize: number;
				allowDangling: boolean;
				key: string;
				group: WriteGroup;
		  }
		| undefined;
	const unit = (
		itemIndex: number,
		target: Target,
		table: TableInfo,
	): BatchUnit<{ fields: IDataObject }, WriteGroup> => {
		const { fields: raw } = readRawFields.call(this, itemIndex);
		refuseUnknownColumns.call(this, raw, table, target, itemIndex);
		const fields = encodeFields.call(this, raw, table.byId, itemIndex);
		if (isEmpty(fields)) refuseEmpty.call(this, raw, target, itemIndex);
		const noparse = readNoparse.call(this, itemIndex);
		const batchSize = readBatchSize.call(this, itemIndex);
		const allowDangling = readAllowDangling.call(this, itemIndex);
		if (
			last?.target !== target ||
			last.group.types !== table.types ||
			last.noparse !== noparse ||
			last.batchSize !== batchSize ||
			last.allowDangling !== allowDangling
		) {
			const qs: IDataObject = noparse ? { noparse: 1 } : {};
			last = {
				target,
				noparse,
				batchSize,
				allowDangling,
				key: `${targetKey(target)}|${JSON.stringify(qs)}|${batchSize}|${allowDangling ? 1 : 0}`,
				group: { target, qs, types: table.types, batchSize, allowDangling },
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
		verify: referenceCheck(this, client),
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

function isEmpty(fields: IDataObject): boolean {
	for (const _key in fields) return false;
	return true;
}

/**
 * Refuses an item with no field to write (issue #30, 4): Grist would add a blank row. Its fields
 * were empty (`{}`: in Map Automatically an empty item, or only `id`), or every one was dropped
 * (formula columns, which are never written; keys without a value). An item whose keys are all
 * unknown columns is refused before, by `refuseUnknownColumns`.
 */
function refuseEmpty(
	this: IExecuteFunctions,
	raw: IDataObject,
	target: Target,
	itemIndex: number,
): never {
	const given = Object.keys(raw).filter((k) => raw[k] !== undefined);
	const why =
		given.length === 0
			? 'it has no fields'
			: `its field${given.length === 1 ? '' : 's'} ${given.map((k) => `"${k}"`).join(', ')} ${given.length === 1 ? 'is a formula column' : 'are formula columns'}, which Grist computes`;
	throw new NodeOperationError(
		this.getNode(),
		`Item ${itemIndex} has no field to write to table "${target.tableId}": ${why}`,
		{
			itemIndex,
			description:
				'Grist would add a blank row. Give the item at least one value for a data column (map the columns, or check the previous node\'s output); to add a blank row on purpose, give one column an empty value, e.g. {"Name": ""}.',
		},
	);
}
