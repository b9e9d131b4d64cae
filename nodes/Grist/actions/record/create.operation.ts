import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { simplifyFields } from '../../cells/cellValues';
import {
	readRawFields,
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	recordWriteOptionsField,
	noparseQuery,
} from '../../parameters/writeOptions';
import { addRecords } from '../../api/records';
import { type Target } from '../../api/paths';
import { documentLocator, tableLocator } from '../../parameters/locators';
import { encodeFields, refuseUnknownColumns } from '../../write/fields';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { addItem, itemTable, itemTarget, startWrite, type WriteSpec } from '../../write/collect';
import { refuseItem } from '../../write/report';
import { finishWrite } from '../../write/send';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	dataModeField,
	columnsMapper('add'),
	fieldsJsonField,
	recordWriteOptionsField,
];

export const description = operationDescription('record', 'create', properties);

/**
 * POST …/records: all items of one table in as few requests as Grist allows, grouped by field set
 * (rows of one field set are added in item order; a later field set's rows after them).
 */
export const execute: OperationExecute = async function (client, items) {
	const write = startWrite<CreateRecord>(this, client, items.length, CREATE);
	const options = noparseQuery.call(this);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = itemTarget(write, itemIndex);
			const table = await itemTable(write, target, itemIndex);
			const { fields: raw } = readRawFields.call(this, itemIndex);
			refuseUnknownColumns.call(this, raw, table, target, itemIndex);
			const fields = encodeFields.call(this, raw, table.byId, itemIndex, NAMES);
			if (isEmpty(fields)) refuseEmpty.call(this, raw, target, itemIndex);
			// Grist adds one POST's records with the union of their fields, null where a record
			// lacks one (convertToBulkColValues): a Text cell would get null, not '', and a trigger
			// formula would not run. So items with other fields go into other requests.
			const grouping = { fieldSet: Object.keys(fields) };
			addItem(write, itemIndex, target, table, [{ fields }], grouping, options.of(itemIndex));
		} catch (error) {
			refuseItem(write.report, itemIndex, error);
		}
	}
	return await finishWrite(write, async (group, records, units) => {
		const ids = await addRecords(client, group.target, records, group.qs, units[0].itemIndex);
		const outputs: IDataObject[] = new Array<IDataObject>(units.length);
		for (let k = 0; k < units.length; k++)
			outputs[k] = simplifyFields(ids[k]?.id, records[k].fields, group.types);
		return outputs;
	});
};

type CreateRecord = { fields: IDataObject };

/** Reference cells may name rows by their shown value (write/referenceNames.ts). */
const NAMES = { names: true };

const CREATE: WriteSpec = {
	envelopeBytes: '{"records":[]}'.length,
	columns: true,
	batchSize: true,
	references: true,
};

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
