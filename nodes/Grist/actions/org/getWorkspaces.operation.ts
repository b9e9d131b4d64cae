import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import type { GristClient } from '../../transport';
import { optionalOrgLocator, orgKeyValue } from '../common.descriptions';

const properties: INodeProperties[] = [
	optionalOrgLocator,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Workspace',
				value: 'workspace',
				description: 'Each workspace with its documents in a "docs" list',
			},
			{
				name: 'One Item per Document',
				value: 'document',
				description: 'Each document with its workspace (ID and name) in "workspace"',
			},
		],
		default: 'workspace',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['org'], operation: ['getWorkspaces'] } },
	properties,
);

/** Turns GET /api/orgs/{org}/workspaces into one item per document. */
export function documentsOfWorkspaces(workspaces: IDataObject[]): IDataObject[] {
	const docs: IDataObject[] = [];
	for (const ws of workspaces) {
		for (const doc of (ws.docs as IDataObject[] | undefined) ?? []) {
			docs.push({
				...doc,
				workspace: { id: ws.id, name: ws.name, ...(ws.orgDomain !== undefined ? { orgDomain: ws.orgDomain } : {}) },
			});
		}
	}
	return docs;
}

/** GET /api/orgs/{org}/workspaces: the workspaces the key can see, with their documents. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (i) => {
		const key = await orgKeyValue.call(this, client, i);
		const output = this.getNodeParameter('output', i, 'workspace') as string;
		const workspaces = await client.request<IDataObject[]>({
			method: 'GET',
			path: client.path('orgs', { value: key, label: 'organization' }, 'workspaces'),
			what: `organization "${key}"`,
			itemIndex: i,
		});
		return output === 'document' ? documentsOfWorkspaces(workspaces) : workspaces;
	});
}
