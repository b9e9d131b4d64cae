/**
 * The Organization, Workspace, Document and Table fields (resource locators) and their readers.
 * One reader, `locatorValue`, for every context: an item of an execution (read once when the
 * field holds no expression), a trigger or the editor's pickers (the node's value). On top of it:
 * the checked ids (`readTarget`, `documentIdValue`, `tableIdValue`, `workspaceIdValue`,
 * `orgKeyValue`) and, for the pickers, `pickedLocator` / `pickedTarget`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyMode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DOCUMENT_URL_REGEX, ORG_URL_REGEX, WORKSPACE_URL_REGEX } from '../api/url';
import type { GristClient } from '../api/client';
import { siteOrg } from '../api/orgs';
import { type Target } from '../api/paths';
import { currentNodeParameter, itemParameter, nodeParameter, type NodeContext } from './read';

/** The head every locator field shares: required, starting on its From List mode. */
function locatorField(
	displayName: string,
	name: string,
): Pick<INodeProperties, 'displayName' | 'name' | 'type' | 'default' | 'required'> {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
	};
}

/**
 * What a By URL mode does with what is pasted: `regex` extracts the ID from it, and a URL it does
 * not match is refused with `errorMessage`.
 */
function urlExtraction(
	regex: string,
	errorMessage: string,
): Pick<INodePropertyMode, 'extractValue' | 'validation'> {
	return {
		extractValue: { type: 'regex', regex },
		validation: [{ type: 'regex', properties: { regex, errorMessage } }],
	};
}

export const orgLocator: INodeProperties = {
	...locatorField('Organization', 'org'),
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
			...urlExtraction(
				ORG_URL_REGEX,
				'Paste the URL of a team site, e.g. https://TEAM.getgrist.com or https://HOST/o/TEAM',
			),
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
	...locatorField('Workspace', 'workspace'),
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
			...urlExtraction(
				WORKSPACE_URL_REGEX,
				'Paste the URL of a Grist workspace, e.g. https://docs.getgrist.com/ws/17/',
			),
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

/** The Destination Workspace of Document → Copy and Move: the Workspace field under its own name. */
export function destinationWorkspaceLocator(description: string): INodeProperties {
	return {
		...workspaceLocator,
		displayName: 'Destination Workspace',
		name: 'destinationWorkspace',
		description,
	};
}

export const documentLocator: INodeProperties = {
	...locatorField('Document', 'document'),
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
			...urlExtraction(
				DOCUMENT_URL_REGEX,
				'Paste the URL of a Grist document, e.g. https://docs.getgrist.com/DOC-ID/NAME',
			),
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
	...locatorField('Table', 'table'),
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

// ---------------------------------------------------------------------------------------------
// Reading

const EXTRACT: IGetNodeParameterOptions = { extractValue: true };

/** A resource locator's value (as `getNodeParameter(…, { extractValue: true })` gives it) as trimmed text. */
function locatorText(value: unknown): string {
	return typeof value === 'number'
		? String(value)
		: String((value as string | IDataObject) ?? '').trim();
}

/**
 * A resource locator's value as trimmed text: in an execution, of item `itemIndex` (read once
 * when the field holds no expression); in a trigger or the editor, the node's value.
 */
export function locatorValue<C extends IExecuteFunctions | NodeContext>(
	ctx: C,
	name: string,
	...at: C extends IExecuteFunctions ? [itemIndex: number] : []
): string {
	const [itemIndex] = at as [number?];
	return locatorText(
		itemIndex === undefined
			? nodeParameter(ctx as NodeContext, name, '', EXTRACT)
			: itemParameter.call(ctx as IExecuteFunctions, name, itemIndex, '', EXTRACT),
	);
}

/**
 * A resource locator's value while the editor loads options or searches a list: `''` when the
 * node has no such parameter (yet). `current`: the value being edited (as triggers read it).
 */
export function pickedLocator(ctx: ILoadOptionsFunctions, name: string, current = false): string {
	try {
		return current
			? locatorText(currentNodeParameter(ctx, name, EXTRACT))
			: locatorValue(ctx, name);
	} catch {
		return '';
	}
}

/** The picked document and table (as `pickedLocator` reads them), or undefined if one is empty. */
export function pickedTarget(ctx: ILoadOptionsFunctions, current = false): Target | undefined {
	const docId = pickedLocator(ctx, 'document', current);
	const tableId = pickedLocator(ctx, 'table', current);
	return docId === '' || tableId === '' ? undefined : { docId, tableId };
}

/** A locator of item `itemIndex` that must not be empty: else an input error naming its field. */
function requiredLocator(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	description: string,
): string {
	const text = locatorValue(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The ${label} field is empty (item ${itemIndex})`,
			{ itemIndex, description },
		);
	}
	return text;
}

/** The Document of item `itemIndex`; an empty value is an input error naming the field. */
export function documentIdValue(this: IExecuteFunctions, itemIndex: number): string {
	return requiredLocator.call(
		this,
		'document',
		itemIndex,
		'Document',
		'Pick a document from the list, or enter its ID or URL.',
	);
}

/** The Table of item `itemIndex`; an empty value is an input error naming the field. */
export function tableIdValue(this: IExecuteFunctions, itemIndex: number): string {
	return requiredLocator.call(
		this,
		'table',
		itemIndex,
		'Table',
		'Pick a table from the list, or enter its ID (as shown in Raw Data).',
	);
}

/** The Column (locator `column`) of item `itemIndex`; an empty value is an input error. */
export function columnIdValue(this: IExecuteFunctions, itemIndex: number): string {
	const colId = locatorValue(this, 'column', itemIndex);
	if (colId === '') {
		throw new NodeOperationError(this.getNode(), `The Column of item ${itemIndex} is empty`, {
			itemIndex,
			description: 'Pick a column from the list, or enter its ID.',
		});
	}
	return colId;
}

/** By execution: the last target `readTarget` returned (callers must not modify it). */
const lastTarget = new WeakMap<object, Target>();

/** The document and table of item `itemIndex`; empty values fail with an error naming the field. */
export function readTarget(this: IExecuteFunctions, itemIndex: number): Target {
	const docId = documentIdValue.call(this, itemIndex);
	const tableId = tableIdValue.call(this, itemIndex);
	// The same object for every item of one table, so that keys derived from it are computed once.
	let target = lastTarget.get(this);
	if (target?.docId !== docId || target.tableId !== tableId) {
		target = { docId, tableId };
		lastTarget.set(this, target);
	}
	return target;
}

/** Reads a workspace id (resource locator `name`) as an integer; anything else is an input error. */
export function workspaceIdValue(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label = 'Workspace',
): number {
	const text = locatorValue(this, name, itemIndex);
	if (text === '') {
		throw new NodeOperationError(this.getNode(), `The ${label} is empty`, {
			itemIndex,
			description: 'Pick a workspace from the list, or enter its numeric ID.',
		});
	}
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		throw new NodeOperationError(
			this.getNode(),
			`The ${label} ID "${text}" is not a whole number`,
			{
				itemIndex,
				description:
					'A workspace ID is a number, e.g. 17 (it appears in workspace URLs as /ws/17/).',
			},
		);
	}
	return Number(text);
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
	const text = locatorValue(this, name, itemIndex);
	if (text !== '') return /^\d+$/.test(text) ? Number(text) : text;
	return await siteOrg(client);
}

/** The Destination Workspace of item `itemIndex`, read as workspaceIdValue reads a workspace. */
export function destinationWorkspaceId(this: IExecuteFunctions, itemIndex: number): number {
	return workspaceIdValue.call(this, 'destinationWorkspace', itemIndex, 'Destination Workspace');
}

/**
 * A second document field (Compare With, Source Document): From List offers the picked
 * Document's trunk (when it is a fork) and your forks of it, then the site's documents.
 */
export function otherDocumentLocator(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	const [list, url, id] = documentLocator.modes!;
	return {
		...locatorField(displayName, name),
		description,
		typeOptions: { loadOptionsDependsOn: ['document.value'] },
		modes: [
			{ ...list, typeOptions: { searchListMethod: 'searchRelatedDocuments', searchable: true } },
			url,
			{ ...id, placeholder: 'e.g. sRBrWDUPnUVJXc1c2Yz6wQ~5fG8kLmNoPqRsTuVwXyZ12~5' },
		],
	};
}

/** The second document field `name` of item `itemIndex`; an empty value is an input error. */
export function otherDocumentIdValue(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	return requiredLocator.call(
		this,
		name,
		itemIndex,
		label,
		"Pick a document or fork from the list, or enter its ID or URL (Fork outputs the fork's docId).",
	);
}

/** The Snapshot field: the picked Document's snapshots, or an ID. */
export const snapshotLocator: INodeProperties = {
	...locatorField('Snapshot', 'snapshot'),
	description: 'The saved version of the document (Get Snapshots lists them)',
	typeOptions: { loadOptionsDependsOn: ['document.value'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSnapshots', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 6fc1ecd1-…' },
	],
};

/** The Snapshot of item `itemIndex`; an empty value is an input error. */
export function snapshotIdValue(this: IExecuteFunctions, itemIndex: number): string {
	return requiredLocator.call(
		this,
		'snapshot',
		itemIndex,
		'Snapshot',
		'Pick a snapshot from the list, or enter its ID (Document → Get Snapshots outputs snapshotId).',
	);
}

/** The Proposal field: the proposals made to the picked Document, or a number. */
export const proposalLocator: INodeProperties = {
	...locatorField('Proposal', 'proposal'),
	description: 'The change proposal to apply (Get Proposals lists them)',
	typeOptions: { loadOptionsDependsOn: ['document.value'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchProposals', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 3',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A proposal ID is a whole number' },
				},
			],
		},
	],
};

/** The Proposal of item `itemIndex` as a number; anything else is an input error. */
export function proposalIdValue(this: IExecuteFunctions, itemIndex: number): number {
	const text = requiredLocator.call(
		this,
		'proposal',
		itemIndex,
		'Proposal',
		'Pick a proposal from the list, or enter its number (Get Proposals outputs proposalId).',
	);
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The Proposal "${text}" of item ${itemIndex} is not a proposal number`,
			{
				itemIndex,
				description: 'A proposal ID is a whole number, e.g. 3 (Get Proposals outputs proposalId).',
			},
		);
	}
	return Number(text);
}
