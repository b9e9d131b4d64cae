import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getDocument, updateDocument } from '../../api/documents';
import { updateFieldsCollection } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { requiredName } from '../../parameters/name';
import { itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	updateFieldsCollection([
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
	]),
];

export const description = operationDescription('document', 'update', properties);

/** PATCH /api/docs/{docId} (name, isPinned), then returns the document as it is now. */
export const execute = perItem(async function (client, itemIndex) {
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
