import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { exportOptions, exportToBinary } from './export';
import {
	documentIdValue,
	documentLocator,
	tableIdValue,
	tableLocator,
} from '../../parameters/locators';
import { binaryPropertyField } from '../../parameters/binaryFields';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Tables',
		name: 'tables',
		type: 'options',
		options: [
			{ name: 'All Tables', value: 'all', description: 'One sheet per table' },
			{ name: 'One Table', value: 'one' },
		],
		default: 'all',
	},
	{ ...tableLocator, displayOptions: { show: { tables: ['one'] } } },
	binaryPropertyField,
	exportOptions,
];

export const description = operationDescription('document', 'exportWorkbook', properties);

/** GET /api/docs/{docId}/download/xlsx (all tables, or `tableId`) into a binary property. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const tables = itemParameter.call(this, 'tables', itemIndex, 'all') as string;
	const tableId = tables === 'one' ? tableIdValue.call(this, itemIndex) : undefined;
	return await exportToBinary.call(this, client, { docId, format: 'xlsx', tableId, itemIndex });
});
