/**
 * Parameters shared by several operations: resource locators for org, workspace, document and
 * table, and Return All / Limit.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

export const limitFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Applies Return All / Limit to a list the API returned whole. */
export function applyLimit<T>(ctx: IExecuteFunctions, list: T[], itemIndex: number): T[] {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return list;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	return list.slice(0, Math.max(0, limit));
}

/** Regex (as a string) that takes the document id out of a pasted Grist document URL. */
export const DOCUMENT_URL_REGEX = '^https?://[^/]+(?:/o/[^/]+)?(?:/doc)?/([A-Za-z0-9_-]{12,})(?:[/?#].*)?$';

export const orgLocator: INodeProperties = {
	displayName: 'Organization',
	name: 'org',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The Grist site (team or personal)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchOrgs', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42 or myteam',
			hint: 'The numeric ID or the domain of the organization',
		},
	],
};

export const workspaceLocator: INodeProperties = {
	displayName: 'Workspace',
	name: 'workspace',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchWorkspaces', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 17',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A workspace ID is a whole number' },
				},
			],
		},
	],
};

export const documentLocator: INodeProperties = {
	displayName: 'Document',
	name: 'document',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchDocuments', searchable: true },
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://docs.getgrist.com/sRBrWDUPnUVJ/My-Doc',
			extractValue: { type: 'regex', regex: DOCUMENT_URL_REGEX },
			validation: [
				{
					type: 'regex',
					properties: {
						regex: DOCUMENT_URL_REGEX,
						errorMessage: 'Paste the URL of a Grist document, e.g. https://docs.getgrist.com/<id>/<name>',
					},
				},
			],
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. sRBrWDUPnUVJXc1c2Yz6wQ',
		},
	],
};

export const tableLocator: INodeProperties = {
	displayName: 'Table',
	name: 'table',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	typeOptions: { loadOptionsDependsOn: ['document.value'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchTables', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. People',
			hint: 'The table ID (shown in Raw Data), not its page name',
		},
	],
};

/** Reads a resource locator's value as a trimmed string. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return typeof value === 'number' ? String(value) : String((value as string | IDataObject) ?? '').trim();
}
