import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executeWrite } from '../batch';
import { simplifyFields } from '../../cells/cellValues';
import type { GristClient } from '../../transport';
import {
	readNoparse,
	readRawFields,
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	recordWriteOptionsField,
} from '../../parameters/writeOptions';
import { addRecords, type Target } from '../../transport/api';
import { documentLocator, tableLocator } from '../../parameters/locators';
import { encodeFields, refuseUnknownColumns } from '../fields';

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

/**
 * POST …/records: all items of one table in as few requests as Grist allows, grouped by field set
 * (rows of one field set are added in item order; a later field set's rows after them).
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await executeWrite(this, client, items, {
		envelopeBytes: '{"records":[]}'.length,
		columns: true,
		batchSize: true,
		references: true,
		read: (itemIndex, target, table) => {
			const { fields: raw } = readRawFields.call(this, itemIndex);
			refuseUnknownColumns.call(this, raw, table, target, itemIndex);
			const fields = encodeFields.call(this, raw, table.byId, itemIndex);
			if (isEmpty(fields)) refuseEmpty.call(this, raw, target, itemIndex);
			// Grist adds one POST's records with the union of their fields, null where a record
			// lacks one (convertToBulkColValues): a Text cell would get null, not '', and a trigger
			// formula would not run. So items with other fields go into other requests.
			return { records: [{ fields }], fieldSet: Object.keys(fields) };
		},
		options: (itemIndex) => ({ noparse: readNoparse.call(this, itemIndex) }),
		send: async (group, records, units) => {
			const ids = await addRecords(client, group.target, records, group.qs, units[0].itemIndex);
			const outputs: IDataObject[] = new Array<IDataObject>(units.length);
			for (let k = 0; k < units.length; k++)
				outputs[k] = simplifyFields(ids[k]?.id, records[k].fields, group.types);
			return outputs;
		},
	});
}

function isEmpty(fields: IDataObject): boolean {
	for (const _key in fields) return false;
	return true;
}

/**
 * Refuses an item with no field to write: Grist would add a blank row. Its fields
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
