/**
 * Parameters shared by several operations: resource locators for org, workspace, document and
 * table, and Return All / Limit.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AccessInputError, MAX_INHERITED_ROLE_OPTIONS, roleOptions } from '../helpers/access';
import type { AccessRow, AccessTarget } from '../helpers/access';
import type { GristClient } from '../transport';

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

/**
 * Regex (as a string) that takes the team out of a pasted team-site URL:
 * `https://<team>.getgrist.com/…` or `https://<host>/o/<team>/…`.
 */
export const ORG_URL_REGEX =
	'^https?://(?:[^/?#]+/o/|(?!(?:docs|www|api|login)\\.)(?=[^/?#]+\\.getgrist\\.com(?:[:/?#]|$)))([A-Za-z0-9_-]+)(?:[.:/?#].*)?$';

/** Regex (as a string) that takes the workspace id out of a pasted workspace URL (`…/ws/17/`). */
export const WORKSPACE_URL_REGEX = '^https?://[^/?#]+(?:/o/[^/?#]+)?/ws/(\\d+)(?:[/?#].*)?$';

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
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://myteam.getgrist.com or https://grist.example.com/o/myteam',
			extractValue: { type: 'regex', regex: ORG_URL_REGEX },
			validation: [
				{
					type: 'regex',
					properties: {
						regex: ORG_URL_REGEX,
						errorMessage:
							'Paste the URL of a team site, e.g. https://TEAM.getgrist.com or https://HOST/o/TEAM',
					},
				},
			],
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

/** The Organization field where it may stay empty: then the site of the Server URL is used. */
export const optionalOrgLocator: INodeProperties = {
	...orgLocator,
	required: false,
	description:
		'The Grist site (team or personal). Leave empty to use the site of the credential\'s Server URL (a team host or /o/TEAM), or the only site the API key can see.',
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
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://docs.getgrist.com/ws/17/',
			extractValue: { type: 'regex', regex: WORKSPACE_URL_REGEX },
			validation: [
				{
					type: 'regex',
					properties: {
						regex: WORKSPACE_URL_REGEX,
						errorMessage: 'Paste the URL of a Grist workspace, e.g. https://docs.getgrist.com/ws/17/',
					},
				},
			],
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
						errorMessage: 'Paste the URL of a Grist document, e.g. https://docs.getgrist.com/DOC-ID/NAME',
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

/**
 * No "By URL" mode, on purpose: a Grist URL names a document and a page (`/<docId>/<slug>/p/<n>`,
 * `n` a view id), not a table. A page can show several tables (or one table several times), raw
 * data is `/p/data`, and a widget anchor (`#a1.s<section>…`) is a section id: none of them gives a
 * table ID without reading the document's metadata, and then not unambiguously. The document part
 * of a pasted URL goes in the Document field (By URL); the table is then picked from the list.
 */
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

/** Reads a workspace id (resource locator `name`) as an integer; anything else is an input error. */
export function workspaceIdValue(this: IExecuteFunctions, name: string, itemIndex: number, label = 'Workspace'): number {
	const text = locatorValue.call(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), `The ${label} is empty`, {
			itemIndex,
			description: 'Pick a workspace from the list, or enter its numeric ID.',
		});
	}
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		throw new NodeOperationError(this.getNode(), `The ${label} ID "${text}" is not a whole number`, {
			itemIndex,
			description: 'A workspace ID is a number, e.g. 17 (it appears in workspace URLs as /ws/17/).',
		});
	}
	return Number(text);
}

/** Reads the document id of the Document field; an empty value is an input error. */
export function documentIdValue(this: IExecuteFunctions, itemIndex: number, name = 'document'): string {
	const text = locatorValue.call(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), 'The Document is empty', {
			itemIndex,
			description: 'Pick a document from the list, paste its URL, or enter its ID.',
		});
	}
	return text;
}

/** A Name value, trimmed; an empty one is an input error whose description says what to enter. */
export function requiredName(this: IExecuteFunctions, raw: unknown, itemIndex: number, whatToEnter: string): string {
	const name = String(raw ?? '').trim();
	if (name === '') {
		throw new NodeOperationError(this.getNode(), 'The Name is empty', { itemIndex, description: whatToEnter });
	}
	return name;
}

/** Reads the table id of the Table field; an empty value is an input error. */
export function tableIdValue(this: IExecuteFunctions, itemIndex: number, name = 'table'): string {
	const text = locatorValue.call(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), 'The Table is empty', {
			itemIndex,
			description: 'Pick a table from the list, or enter its ID (as shown in Raw Data).',
		});
	}
	return text;
}

/**
 * The org key of the Organization field (an id or a domain); when it is empty (optional field),
 * the site of the Server URL via `client.siteOrg()`.
 */
export async function orgKeyValue(
	this: IExecuteFunctions,
	client: GristClient,
	itemIndex: number,
	name = 'org',
): Promise<string | number> {
	const text = locatorValue.call(this, name, itemIndex);
	if (text !== '') return /^\d+$/.test(text) ? Number(text) : text;
	return await client.siteOrg();
}

/** Turns an AccessInputError into a NodeOperationError naming the field; other errors pass. */
export function asInputError(this: IExecuteFunctions, error: unknown, itemIndex: number): unknown {
	if (error instanceof AccessInputError) {
		return new NodeOperationError(this.getNode(), error.message, { itemIndex, description: error.hint });
	}
	return error;
}

/** "Users" rows (email + role) and, for workspaces and documents, "Max Inherited Role". */
export function accessUpdateFields(target: AccessTarget): INodeProperties[] {
	const fields: INodeProperties[] = [
		{
			displayName: 'Users',
			name: 'users',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add User',
			default: {},
			description:
				'Users whose access to add, change or remove. Unknown emails are invited by Grist as new users.',
			options: [
				{
					displayName: 'User',
					name: 'user',
					values: [
						{
							displayName: 'Email',
							name: 'email',
							type: 'string',
							placeholder: 'e.g. name@example.com',
							default: '',
							required: true,
						},
						{
							displayName: 'Role',
							name: 'role',
							type: 'options',
							options: roleOptions(target),
							default: 'editors',
							description: 'The role to give, or Remove Access',
						},
					],
				},
			],
		},
	];
	if (target !== 'org') {
		fields.push({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Max Inherited Role',
					name: 'maxInheritedRole',
					type: 'options',
					options: MAX_INHERITED_ROLE_OPTIONS,
					default: 'owners',
					description:
						'The highest role users get from the parent (site or workspace). None means only users listed directly have access; lowering it makes you a direct owner.',
				},
			],
		});
	}
	return fields;
}

/** Reads the rows and the Max Inherited Role of accessUpdateFields. */
export function accessUpdateInput(
	this: IExecuteFunctions,
	target: AccessTarget,
	itemIndex: number,
): { rows: AccessRow[]; maxInheritedRole?: unknown } {
	const rows = this.getNodeParameter('users.user', itemIndex, []) as AccessRow[];
	if (target === 'org') return { rows };
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return { rows, maxInheritedRole: options.maxInheritedRole };
}

/** The "Put Output File in Field" parameter of exports. */
export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

/**
 * PATCH …/access with a delta; returns one item describing the change. Grist's own message is
 * kept; known cases get a hint that says what to do.
 */
export async function patchAccess(
	client: GristClient,
	path: string,
	body: { delta: IDataObject | object },
	what: string,
	itemIndex: number,
): Promise<IDataObject> {
	try {
		await client.request({ method: 'PATCH', path, body, what, itemIndex });
	} catch (error) {
		throw withHint(error, ACCESS_HINTS);
	}
	return { updated: true, ...(body.delta as IDataObject) };
}

const ACCESS_HINTS: Array<[RegExp, string]> = [
	[
		/cannot update own permissions/i,
		'The API key belongs to one of the users listed: Grist does not let you change your own role (removing only yourself is allowed). Remove that row, or use the key of another owner.',
	],
	[/Invalid email/i, 'Check the Email of every user row.'],
	[/Invalid user role/i, 'Check the Role of every user row: Member is for organizations only.'],
	[/Invalid maxInheritedRole/i, 'Choose Owners, Editors, Viewers or None for Max Inherited Role.'],
	[/too many pending invitations/i, 'Wait until invited users accept, or remove pending invitations in Grist.'],
];

/**
 * Sets the description (hint) of a NodeApiError whose Grist message matches one of `hints`,
 * keeping Grist's own message; returns the error to re-throw.
 */
export function withHint(error: unknown, hints: Array<[RegExp, string]>): unknown {
	const message = (error as Error | undefined)?.message ?? '';
	const hint = hints.find(([re]) => re.test(message));
	if (hint && error && typeof error === 'object') (error as { description?: string }).description = hint[1];
	return error;
}
