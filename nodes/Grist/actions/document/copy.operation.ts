import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { copyDocument, getDocument } from '../../transport/api';
import { withHint } from '../../errors/hints';
import {
	documentIdValue,
	documentLocator,
	workspaceIdValue,
	workspaceLocator,
} from '../../parameters/locators';
import { readName } from '../../parameters/name';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	{ ...documentLocator, description: 'The document to copy' },
	{
		...workspaceLocator,
		displayName: 'Destination Workspace',
		name: 'destinationWorkspace',
		description: 'The workspace the copy goes to (you need to be able to add documents there)',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Client A – Projects',
		description: 'The name of the new document',
	},
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

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['copy'] } },
	properties,
);

/** POST /api/docs/{docId}/copy, then returns the new document. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const wid = workspaceIdValue.call(
			this,
			'destinationWorkspace',
			itemIndex,
			'Destination Workspace',
		);
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
}
