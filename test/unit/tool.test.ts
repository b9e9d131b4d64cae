/**
 * The node as an AI agent's tool: which node types are tool variants, the operations a tool
 * refuses (files) with what to use instead, and the notices only the tool variant shows.
 */
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { resources } from '../../nodes/Grist/actions/resources';
import {
	TOOL_SECRET_OUTPUT,
	TOOL_UNSUPPORTED,
	isToolNodeType,
	toolUnsupportedMessage,
} from '../../nodes/Grist/errors/toolUnsupported';
import { toolNotices } from '../../nodes/Grist/parameters/toolFields';

test('tool variants are the node types n8n names <name>Tool', () => {
	expect(isToolNodeType('n8n-nodes-grist.gristTool')).toBe(true);
	expect(isToolNodeType('n8n-nodes-grist.grist')).toBe(false);
	expect(isToolNodeType('n8n-nodes-grist.gristTrigger')).toBe(false);
});

test('every refused operation exists, and the message says what to use instead', () => {
	for (const key of [...Object.keys(TOOL_UNSUPPORTED), ...Object.keys(TOOL_SECRET_OUTPUT)]) {
		const [resource, operation] = key.split('.');
		expect([
			key,
			typeof resources[resource as keyof typeof resources]?.operations[operation],
		]).toEqual([key, 'function']);
	}
	expect(toolUnsupportedMessage('attachment', 'download')).toEqual({
		message:
			'This Grist tool (attachment → download) works with files, which an AI agent cannot use',
		description:
			"Set this tool to another operation: Attachment → Get gives an attachment's name, type and size; its content is a file, which a tool cannot return.",
	});
	expect(toolUnsupportedMessage('record', 'getAll')).toBeUndefined();
	expect(toolUnsupportedMessage('record', 'get')).toBeUndefined();
	expect(toolUnsupportedMessage('attachment', 'get')).toBeUndefined();
});

test('the archive operations are files, the store operations are not', () => {
	expect(toolUnsupportedMessage('attachment', 'downloadAll')?.description).toBe(
		'Set this tool to another operation: the archive is a file, which a tool cannot return; Attachment → Get Many lists the attachments.',
	);
	expect(toolUnsupportedMessage('attachment', 'restoreFromArchive')?.description).toBe(
		'Set this tool to another operation: it reads an archive from the previous node, and a tool has none; restore in a regular workflow.',
	);
	for (const operation of [
		'removeUnused',
		'getStore',
		'setStore',
		'getStores',
		'transferAll',
		'getTransferStatus',
	])
		expect([operation, toolUnsupportedMessage('attachment', operation)]).toEqual([
			operation,
			undefined,
		]);
});

describe('the notices on refused operations', () => {
	const description = new Grist().description;
	const asTool = { ...description, name: `${description.name}Tool` } as INodeTypeDescription;
	const node = { typeVersion: 1 } as INode;
	const shown = (values: Record<string, string>, type: INodeTypeDescription): string[] =>
		toolNotices
			.filter((p: INodeProperties) => NodeHelpers.displayParameter(values, p, node, type))
			.map((p) => p.name);

	test('are part of the node, one per refused operation', () => {
		expect(description.properties).toEqual(expect.arrayContaining(toolNotices));
		expect(toolNotices).toHaveLength(
			Object.keys(TOOL_UNSUPPORTED).length + Object.keys(TOOL_SECRET_OUTPUT).length,
		);
	});

	test('show in the tool variant on their operation only, never in the node itself', () => {
		const download = { resource: 'attachment', operation: 'download' };
		expect(shown(download, asTool)).toEqual(['toolNotice_attachment_download']);
		expect(shown(download, description)).toEqual([]);
		expect(shown({ resource: 'attachment', operation: 'get' }, asTool)).toEqual([]);
		expect(shown({ resource: 'document', operation: 'exportTable' }, asTool)).toEqual([
			'toolNotice_document_exportTable',
		]);
	});
});

test('the operations that return an API key are refused to tools, saying why and what instead', () => {
	expect(Object.keys(TOOL_SECRET_OUTPUT).sort()).toEqual([
		'serviceAccount.create',
		'serviceAccount.createKey',
	]);
	expect(toolUnsupportedMessage('serviceAccount', 'create')).toEqual({
		message:
			'This Grist tool (serviceAccount → create) returns an API key, which must not be handed to an AI agent',
		description:
			'Set this tool to another operation: create service accounts in a regular workflow, where the key goes straight into a credential.',
	});
	// the other service account operations carry no key and work as tools
	for (const op of ['getAll', 'get', 'update', 'delete', 'revokeKey'])
		expect(toolUnsupportedMessage('serviceAccount', op)).toBeUndefined();
});
