import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { createDocument, getDocument } from '../../api/documents';
import { nameField, optionsCollection } from '../../parameters/commonFields';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { readName } from '../../parameters/name';
import { itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	workspaceLocator,
	nameField('The name of the new document'),
	optionsCollection([
		{
			displayName: 'Pinned',
			name: 'isPinned',
			type: 'boolean',
			default: false,
			description: 'Whether to pin the document in its workspace',
		},
	]),
];

export const description = operationDescription('document', 'create', properties);

/** POST /api/workspaces/{wid}/docs, then returns the new document (not just its id). */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const name = readName.call(this, itemIndex, 'Enter the name of the new document.');
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	const body: IDataObject = { name };
	if (options.isPinned !== undefined) body.isPinned = options.isPinned === true;
	const docId = await createDocument(client, wid, body, itemIndex);
	return await getDocument(client, docId, itemIndex);
});
