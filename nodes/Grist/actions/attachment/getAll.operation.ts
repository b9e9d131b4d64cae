import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { documentLocator, limitFields, locatorValue } from '../common.descriptions';
import { readLimit } from '../record/read';
import { flattenAttachmentRecord } from './shared';

const properties: INodeProperties[] = [documentLocator, ...limitFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['getAll'] } },
	properties,
);

/** GET /api/docs/{doc}/attachments (with `limit` unless Return All): one item per attachment. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const docId = locatorValue.call(this, 'document', i);
		const limit = readLimit.call(this, i); // 0 for Return All; a bad Limit fails naming it
		const qs: IDataObject = {};
		if (limit > 0) qs.limit = limit;
		const res = await client.request<{ records: Array<{ id: number; fields?: IDataObject }> }>({
			method: 'GET',
			path: client.path('docs', { value: docId, label: 'document ID' }, 'attachments'),
			qs,
			what: `document "${docId}"`,
			itemIndex: i,
		});
		const records = Array.isArray(res?.records) ? res.records : [];
		// Grist applies the limit; cut again in case a server ignores it.
		return (limit > 0 ? records.slice(0, limit) : records).map(flattenAttachmentRecord);
	});
}
