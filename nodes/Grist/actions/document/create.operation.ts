import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../api/client';
import { createDocument, getDocument } from '../../api/documents';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { readName } from '../../parameters/name';
import { itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	workspaceLocator,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'The name of the new document',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Pinned',
				name: 'isPinned',
				type: 'boolean',
				default: false,
				description: 'Whether to pin the document in its workspace',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['create'] } },
	properties,
);

/** POST /api/workspaces/{wid}/docs, then returns the new document (not just its id). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		const name = readName.call(this, itemIndex, 'Enter the name of the new document.');
		const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
		const body: IDataObject = { name };
		if (options.isPinned !== undefined) body.isPinned = options.isPinned === true;
		const docId = await createDocument(client, wid, body, itemIndex);
		return await getDocument(client, docId, itemIndex);
	});
}
