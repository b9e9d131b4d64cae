import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GristClient } from '../../transport';
import { columnarWriteProperties } from './columnarData';
import { writeColumnar } from './write';

export const description = updateDisplayOptions(
	{ show: { resource: ['columnar'], operation: ['create'] } },
	columnarWriteProperties,
);

/** POST …\/data: rows of all items of one table in as few requests as possible. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await writeColumnar(this, client, items, 'create');
}
