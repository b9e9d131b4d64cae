import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { simplifyFields } from '../../cells/cellValues';
import { readRowId } from '../../parameters/rowIds';
import {
	readRawFields,
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	recordWriteOptionsField,
	noparseQuery,
} from '../../parameters/writeOptions';
import { updateRecords } from '../../api/records';
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

export const description = operationDescription('record', 'update', properties);

/**
 * PATCH …/records: items grouped by table and by field set (Grist requires one field set per
 * request), one request per chunk.
 */
export const execute: OperationExecute = async function (client, items) {
	const write = startWrite<UpdateRecord>(this, client, items.length, UPDATE);
	const options = noparseQuery.call(this);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = itemTarget(write, itemIndex);
			const id = readRowId.call(
				this,
				itemIndex,
				'Update one row per input item; use several items to update several rows.',
			);
			const table = await itemTable(write, target, itemIndex);
			const { fields: raw } = readRawFields.call(this, itemIndex);
			refuseUnknownColumns.call(this, raw, table, target, itemIndex);
			const fields = encodeFields.call(this, raw, table.byId, itemIndex, NAMES);
			const grouping = { fieldSet: Object.keys(fields) };
			addItem(write, itemIndex, target, table, [{ id, fields }], grouping, options.of(itemIndex));
		} catch (error) {
			refuseItem(write.report, itemIndex, error);
		}
	}
	return await finishWrite(write, async (group, records, units) => {
		await updateRecords(client, group.target, records, group.qs, units[0].itemIndex);
		const outputs: IDataObject[] = new Array<IDataObject>(records.length);
		for (let k = 0; k < records.length; k++)
			outputs[k] = simplifyFields(records[k].id, records[k].fields, group.types);
		return outputs;
	});
};

type UpdateRecord = { id: number; fields: IDataObject };

/** Reference cells may name rows by their shown value (write/referenceNames.ts). */
const NAMES = { names: true };

const UPDATE: WriteSpec = {
	envelopeBytes: '{"records":[]}'.length,
	columns: true,
	batchSize: true,
	references: true,
};
