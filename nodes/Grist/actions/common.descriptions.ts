/**
 * Parameter descriptions shared by several operations (and the trigger): resource locators for
 * org, workspace, document and table, Return All / Limit, the read parameters (filter, sort),
 * the write parameters (data mode, column mapper, noparse), access rows, export fields.
 * Descriptions only: reading them is ../parameters.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MAX_INHERITED_ROLE_OPTIONS, roleOptions, type AccessTarget } from '../helpers/access';
import { DOCUMENT_URL_REGEX, ORG_URL_REGEX, WORKSPACE_URL_REGEX } from '../helpers/url';

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
		"The Grist site (team or personal). Leave empty to use the site of the credential's Server URL (a team host or /o/TEAM), or the only site the API key can see.",
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
						errorMessage:
							'Paste the URL of a Grist workspace, e.g. https://docs.getgrist.com/ws/17/',
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
						errorMessage:
							'Paste the URL of a Grist document, e.g. https://docs.getgrist.com/DOC-ID/NAME',
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

/** The "Put Output File in Field" parameter of exports. */
export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

export const readFields: INodeProperties[] = [
	...limitFields,
	{
		displayName: 'Filter',
		name: 'filterType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'None', value: 'none' },
			{
				name: 'Build',
				value: 'builder',
				description: 'Pick columns and the values to match, typed by the column',
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Grist\'s filter object, e.g. {"Status": ["Open"]}',
			},
		],
		default: 'none',
	},
	{
		displayName: 'Conditions',
		name: 'filters',
		type: 'fixedCollection',
		placeholder: 'Add Condition',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Rows must match every condition; a condition matches any of its values',
		displayOptions: { show: { filterType: ['builder'] } },
		options: [
			{
				displayName: 'Condition',
				name: 'conditions',
				values: [
					{
						displayName: 'Column Name or ID',
						name: 'column',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getColumns',
							loadOptionsDependsOn: ['document.value', 'table.value'],
						},
						default: '',
						description:
							'The column to filter on. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Match',
						name: 'match',
						type: 'options',
						options: [
							{
								name: 'Is Empty',
								value: 'isEmpty',
								description:
									'Cells with no value: empty text, no number (0 is a number), no date, no reference, no list',
							},
							{
								name: 'Is One Of',
								value: 'anyOf',
								description: 'Cells equal to one of the values',
							},
						],
						default: 'anyOf',
					},
					{
						displayName: 'Values',
						name: 'values',
						type: 'string',
						default: '',
						placeholder: 'e.g. Open, Done',
						description:
							'One or more values, separated by commas (or a JSON array for values that contain commas). Values are converted to the column type: dates as 2024-01-31, references as row IDs. Left empty, the condition matches only empty cells, not every row: remove the condition to match every row.',
						displayOptions: { show: { match: ['anyOf'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Filter (JSON)',
		name: 'filterJson',
		type: 'json',
		default: '{}',
		description:
			'Column IDs and arrays of stored values to match, e.g. {"Status": ["Open", "Done"], "Owner": [3]}',
		displayOptions: { show: { filterType: ['json'] } },
	},
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		placeholder: 'Add Sort Rule',
		typeOptions: { multipleValues: true },
		default: {},
		options: [
			{
				displayName: 'Rule',
				name: 'rules',
				values: [
					{
						displayName: 'Column Name or ID',
						name: 'column',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getColumns',
							loadOptionsDependsOn: ['document.value', 'table.value'],
						},
						default: '',
						description:
							'The column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: [
							{
								name: 'Ascending',
								value: 'asc',
							},
							{
								name: 'Descending',
								value: 'desc',
							},
						],
						default: 'asc',
					},
					{
						displayName: 'Empty Last',
						name: 'emptyLast',
						type: 'boolean',
						default: false,
						description: 'Whether to put empty values last (Grist puts them first by default)',
					},
					{
						displayName: 'Natural Sort',
						name: 'naturalSort',
						type: 'boolean',
						default: false,
						description: 'Whether to sort numbers inside text naturally (item 2 before item 10)',
					},
					{
						displayName: 'Order By Choice',
						name: 'orderByChoice',
						type: 'boolean',
						default: false,
						description:
							'Whether to sort a Choice column in the order of its choices instead of alphabetically',
					},
				],
			},
		],
	},
];

/** Options with "Include Hidden Columns" (Grist's `hidden=1`), for the reads of records and columns. */
export const hiddenColumnsOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Include Hidden Columns',
			name: 'includeHidden',
			type: 'boolean',
			default: false,
			description: "Whether to also return Grist's helper columns (manualSort, gristHelper_*)",
		},
	],
};

export const dataModeField: INodeProperties = {
	displayName: 'Data Mode',
	name: 'dataMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Map Columns',
			value: 'mapper',
			description: 'Map each column below, or map the input fields automatically by column ID',
		},
		{
			name: 'Raw JSON',
			value: 'json',
			description: 'Give the fields as a JSON object of column IDs and values',
		},
	],
	default: 'mapper',
};

export function columnsMapper(mode: 'add' | 'update' | 'upsert'): INodeProperties {
	return {
		displayName: 'Columns',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['document.value', 'table.value'],
			resourceMapper: {
				resourceMapperMethod: 'getMappingColumns',
				mode,
				fieldWords: { singular: 'column', plural: 'columns' },
				addAllFields: true,
				multiKeyMatch: true,
				supportAutoMap: true,
			},
		},
		displayOptions: { show: { dataMode: ['mapper'] } },
	};
}

export const fieldsJsonField: INodeProperties = {
	displayName: 'Fields (JSON)',
	name: 'fieldsJson',
	type: 'json',
	default: '{}',
	required: true,
	description: 'An object of column IDs and values, e.g. {"Name": "Alice", "Tags": ["a", "b"]}',
	displayOptions: { show: { dataMode: ['json'] } },
};

export const noparseOption: INodeProperties = {
	displayName: "Skip Grist's Text Parsing",
	name: 'noparse',
	type: 'boolean',
	default: false,
	description:
		"Whether to skip Grist's parsing of text by the column's format (currency signs, thousands separators, dates in the column's date format, a reference's display value). Grist still stores plain numbers and ISO dates given as text as numbers and dates.",
};

/** Records per request of a batched write (parameters.ts readBatchSize; default: 500, as before the option). */
export const batchSizeOption: INodeProperties = {
	displayName: 'Batch Size',
	name: 'batchSize',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 500,
	description:
		"Most records per request (a request also stays under Grist's 1 MB body limit). Bigger batches load faster, but each request holds the document longer, so other users' edits wait for it; smaller ones cost more requests.",
};

/**
 * Record Create / Update / Upsert: write references to rows that do not exist. Off by default:
 * such items are refused before any request (actions/references.ts, issue #30).
 */
export const allowDanglingOption: INodeProperties = {
	displayName: 'Allow Dangling References',
	name: 'allowDanglingReferences',
	type: 'boolean',
	default: false,
	description:
		'Whether to write Reference and Reference List cells that point at rows that do not exist (Grist stores them and shows them as errors). Off: the row IDs are checked first (one read per referenced table) and items pointing at missing rows are refused.',
};

/** The Options of a record create/update: dangling references, noparse and the batch size. */
export const recordWriteOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [allowDanglingOption, batchSizeOption, noparseOption],
};

/** The Options of a record or columnar create/update: noparse and the batch size. */
export const writeOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [batchSizeOption, noparseOption],
};

/** Authentication of the Grist node and the trigger: API key (default) or OAuth2. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'apiKey',
	description:
		'OAuth2 (a Grist OAuth app) can read and write records, tables, columns and attachments; organization, workspace and document administration and access management need an API key',
};

/** The two credentials, each shown for its Authentication choice. */
export const credentialOptions = [
	{
		name: 'gristRecordsApi',
		required: true,
		displayOptions: { show: { authentication: ['apiKey'] } },
	},
	{
		name: 'gristRecordsOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];
