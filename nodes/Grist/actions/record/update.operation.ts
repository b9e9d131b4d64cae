import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeWrite } from '../batch';
import { simplifyFields } from '../../cells/cellValues';
import type { GristClient } from '../../transport';
import { readRowId } from '../../parameters/rowIds';
import {
	readNoparse,
	readRawFields,
	columnsMapper,
	dataModeField,
	fieldsJsonField,
	recordWriteOptionsField,
} from '../../parameters/writeOptions';
import { updateRecords } from '../../transport/api';
import { documentLocator, tableLocator } from '../../parameters/locators';
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
	recordWriteOptionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['update'] } },
	properties,
);

/**
 * PATCH …/records: items grouped by table and by field set (Grist requires one field set per
 * request), one request per chunk.
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
		readFirst: (itemIndex) =>
			readRowId.call(
				this,
				itemIndex,
				'Update one row per input item; use several items to update several rows.',
			),
		read: (itemIndex, target, table, id: number) => {
			const { fields: raw } = readRawFields.call(this, itemIndex);
			refuseUnknownColumns.call(this, raw, table, target, itemIndex);
			const fields = encodeFields.call(this, raw, table.byId, itemIndex);
			return { records: [{ id, fields }], fieldSet: Object.keys(fields) };
		},
		options: (itemIndex) => ({ noparse: readNoparse.call(this, itemIndex) }),
		send: async (group, records, units) => {
			await updateRecords(client, group.target, records, group.qs, units[0].itemIndex);
			const outputs: IDataObject[] = new Array<IDataObject>(records.length);
			for (let k = 0; k < records.length; k++)
				outputs[k] = simplifyFields(records[k].id, records[k].fields, group.types);
			return outputs;
		},
	});
}
