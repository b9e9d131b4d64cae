import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { getDocument, moveDocument } from '../../transport/api';
import { withHint } from '../../errors/hints';
import {
	documentIdValue,
	documentLocator,
	workspaceIdValue,
	workspaceLocator,
} from '../../parameters/locators';

const properties: INodeProperties[] = [
	documentLocator,
	{
		...workspaceLocator,
		displayName: 'Destination Workspace',
		name: 'destinationWorkspace',
		description: 'The workspace to move the document to (it may be in another site you own)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['move'] } },
	properties,
);

/** PATCH /api/docs/{docId}/move `{ workspace }`, then returns the document in its new place. */
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
		try {
			await moveDocument(client, docId, wid, itemIndex);
		} catch (error) {
			throw withHint(error, 'document.move', { workspace: wid });
		}
		return await getDocument(client, docId, itemIndex);
	});
}
