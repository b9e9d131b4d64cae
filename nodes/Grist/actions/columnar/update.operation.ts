import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GristClient } from '../../transport';
import { documentLocator, tableLocator } from '../common.descriptions';
import { noparseOption } from '../record/shared';
import { columnarDataField } from './shared';
import { writeColumnar } from './write';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnarDataField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [noparseOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['columnar'], operation: ['update'] } },
	properties,
);

/** PATCH …\/data: rows of all items of one table in as few requests as possible. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await writeColumnar(this, client, items, 'update');
}
