import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { documentsOfWorkspaces, getWorkspace, listOrgWorkspaces } from '../../transport/api';
import { applyLimit, orgKeyValue, workspaceIdValue } from '../../parameters';
import { limitFields, optionalOrgLocator, workspaceLocator } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Search In',
		name: 'scope',
		type: 'options',
		options: [
			{ name: 'Workspace', value: 'workspace', description: 'The documents of one workspace' },
			{
				name: 'Organization',
				value: 'org',
				description: 'The documents of every workspace of a site',
			},
		],
		default: 'workspace',
	},
	{ ...workspaceLocator, displayOptions: { show: { scope: ['workspace'] } } },
	{ ...optionalOrgLocator, displayOptions: { show: { scope: ['org'] } } },
	...limitFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Name Contains',
				name: 'nameContains',
				type: 'string',
				default: '',
				description: 'Only documents whose name contains this text (not case-sensitive)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['getAll'] } },
	properties,
);

/** Documents of a workspace (GET /api/workspaces/{wid}) or of a site (GET /api/orgs/{org}/workspaces). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const scope = this.getNodeParameter('scope', itemIndex, 'workspace') as string;
		let docs: IDataObject[];
		if (scope === 'org') {
			const key = await orgKeyValue.call(this, client, itemIndex);
			const workspaces = await listOrgWorkspaces(client, key, itemIndex);
			docs = documentsOfWorkspaces(workspaces);
		} else {
			const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
			const ws = await getWorkspace(client, wid, itemIndex);
			docs = documentsOfWorkspaces([ws]);
		}
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const needle = String(filters.nameContains ?? '')
			.trim()
			.toLowerCase();
		if (needle !== '')
			docs = docs.filter((d) =>
				String(d.name ?? '')
					.toLowerCase()
					.includes(needle),
			);
		return applyLimit(this, docs, itemIndex);
	});
}
