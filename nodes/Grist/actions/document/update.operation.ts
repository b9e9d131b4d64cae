import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { getDocument, updateDocument } from '../../api/documents';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { requiredName } from '../../parameters/name';
import { itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'The new name of the document',
			},
			{
				displayName: 'Pinned',
				name: 'isPinned',
				type: 'boolean',
				default: false,
				description: 'Whether the document is pinned in its workspace',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['update'] } },
	properties,
);

/** PATCH /api/docs/{docId} (name, isPinned), then returns the document as it is now. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const fields = itemParameterValue.call(this, 'updateFields', itemIndex, {}) as IDataObject;
		const body: IDataObject = {};
		if (fields.name !== undefined) {
			const name = requiredName.call(
				this,
				fields.name,
				itemIndex,
				'Enter the new name of the document, or remove the Name field.',
			);
			body.name = name;
		}
		if (fields.isPinned !== undefined) body.isPinned = fields.isPinned === true;
		if (Object.keys(body).length === 0) {
			throw new NodeOperationError(this.getNode(), 'No field to update was given', {
				itemIndex,
				description: 'Add Name or Pinned under Update Fields.',
			});
		}
		await updateDocument(client, docId, body, itemIndex);
		return await getDocument(client, docId, itemIndex);
	});
}
