import type { INodeProperties } from 'n8n-workflow';

import { exportOptions, exportToBinary } from './export';
import { documentLocator, tableLocator, readTarget } from '../../parameters/locators';
import { binaryPropertyField } from '../../parameters/binaryFields';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	binaryPropertyField,
	exportOptions,
];

export const description = operationDescription('document', 'exportTable', properties);

/** GET /api/docs/{docId}/download/csv?tableId= into a binary property. */
export const execute = perItem(async function (client, itemIndex) {
	const { docId, tableId } = readTarget.call(this, itemIndex);
	return await exportToBinary.call(this, client, { docId, format: 'csv', tableId, itemIndex });
});
