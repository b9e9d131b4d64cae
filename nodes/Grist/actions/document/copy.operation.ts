import type { INodeProperties } from 'n8n-workflow';

import { copyDocument, getDocument } from '../../api/documents';
import { withHint } from '../../errors/hints';
import {
	documentIdValue,
	documentLocator,
	destinationWorkspaceId,
	destinationWorkspaceLocator,
} from '../../parameters/locators';
import { readName } from '../../parameters/name';
import { itemParameter } from '../../parameters/read';
import { operationDescription, perItem } from '../operationFrame';
import { nameField } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	{ ...documentLocator, description: 'The document to copy' },
	destinationWorkspaceLocator(
		'The workspace the copy goes to (you need to be able to add documents there)',
	),
	nameField('The name of the new document', 'e.g. Client A – Projects'),
	{
		displayName: 'Copy',
		name: 'copyMode',
		type: 'options',
		options: [
			{
				name: 'Structure and Data',
				value: 'full',
				description: 'Tables, columns, formulas, records and attachments',
			},
			{
				name: 'Structure Only (as Template)',
				value: 'template',
				description: 'Tables, columns and formulas, without records',
			},
		],
		default: 'full',
	},
];

export const description = operationDescription('document', 'copy', properties);

/** POST /api/docs/{docId}/copy, then returns the new document. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const wid = destinationWorkspaceId.call(this, itemIndex);
	const documentName = readName.call(this, itemIndex, 'Enter the name of the new document.');
	const asTemplate = itemParameter.call(this, 'copyMode', itemIndex, 'full') === 'template';
	let newId: string;
	try {
		newId = await copyDocument(
			client,
			docId,
			{ workspaceId: wid, documentName, asTemplate },
			itemIndex,
		);
	} catch (error) {
		throw withHint(error, 'document.copy', { workspace: wid });
	}
	return await getDocument(client, newId, itemIndex);
});
