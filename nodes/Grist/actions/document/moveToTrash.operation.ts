import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { moveToTrash } from '../../api/trash';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	{
		displayName:
			"Moves the document to Grist's trash, from where Restore brings it back (Grist empties the trash after a while). Delete removes a document permanently instead.",
		name: 'trashNotice',
		type: 'notice',
		default: '',
	},
	documentLocator,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['moveToTrash'] } },
	properties,
);

/** POST /api/docs/{docId}/remove (Grist's soft delete; needs the Owner role). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		await moveToTrash(client, { kind: 'document', docId }, itemIndex);
		return { id: docId, inTrash: true };
	});
}
