import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { exportOptions, exportToBinary } from './export';
import {
	documentIdValue,
	documentLocator,
	tableIdValue,
	tableLocator,
} from '../../parameters/locators';
import { binaryPropertyField } from '../../parameters/binaryFields';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	binaryPropertyField,
	exportOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['exportTable'] } },
	properties,
);

/** GET /api/docs/{docId}/download/csv?tableId= into a binary property. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const tableId = tableIdValue.call(this, itemIndex);
		return await exportToBinary.call(this, client, { docId, format: 'csv', tableId, itemIndex });
	});
}
