import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { documentsOfWorkspaces, listOrgWorkspaces } from '../../api/orgs';
import { getWorkspace } from '../../api/workspaces';
import {
	optionalOrgLocator,
	orgKeyValue,
	workspaceIdValue,
	workspaceLocator,
} from '../../parameters/locators';
import { filtersCollection } from '../../parameters/commonFields';
import { applyLimit, limitFields } from '../../parameters/limit';
import { itemParameter, itemParameterValue } from '../../parameters/read';

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
	filtersCollection([
		{
			displayName: 'In Trash',
			name: 'inTrash',
			type: 'boolean',
			default: false,
			description:
				"Whether to list the documents in Grist's trash instead (moved there with Move to Trash; Restore brings them back)",
		},
		{
			displayName: 'Name Contains',
			name: 'nameContains',
			type: 'string',
			default: '',
			description: 'Only documents whose name contains this text (not case-sensitive)',
		},
	]),
];

export const description = operationDescription('document', 'getAll', properties);

/** Documents of a workspace (GET /api/workspaces/{wid}) or of a site (GET /api/orgs/{org}/workspaces). */
export const execute = perItem(async function (client, itemIndex) {
	const scope = itemParameter.call(this, 'scope', itemIndex, 'workspace') as string;
	const filters = itemParameterValue.call(this, 'filters', itemIndex, {}) as IDataObject;
	const qs = filters.inTrash === true ? { showRemoved: 1 } : undefined;
	let docs: IDataObject[];
	if (scope === 'org') {
		const key = await orgKeyValue.call(this, client, itemIndex);
		const workspaces = await listOrgWorkspaces(client, key, itemIndex, qs);
		docs = documentsOfWorkspaces(workspaces);
	} else {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		// a workspace with nothing in the trash is 404 with showRemoved: empty if it exists
		const ws = await getWorkspace(client, wid, itemIndex, qs).catch(async (error: unknown) => {
			if (!qs || !(error instanceof NodeApiError) || error.httpCode !== '404') throw error;
			await getWorkspace(client, wid, itemIndex);
			return { docs: [] };
		});
		docs = documentsOfWorkspaces([ws]);
	}
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
