import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import {
	deleteDocument,
	fetchTables,
	getDocument,
	getWorkspace,
	importDocument,
} from '../../transport/api';
import { withHint, type HintValues } from '../../helpers/hints';
import { inputBinaryField, inputBinaryProperty } from '../../parameters/binary';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';
import { documentUrl, importFileName, importedDocumentName } from '../../helpers/lifecycle';

const properties: INodeProperties[] = [
	{ ...workspaceLocator, description: 'The workspace the new document goes to' },
	inputBinaryField,
	{
		displayName: 'Document Name',
		name: 'documentName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Clients 2024',
		description: 'The name of the new document (default: the file name without extension)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['importFile'] } },
	properties,
);

interface WorkspaceDoc {
	id: string;
	name?: string;
}

function workspaceDocs(ws: IDataObject): WorkspaceDoc[] {
	return Array.isArray(ws.docs) ? (ws.docs as WorkspaceDoc[]) : [];
}

/**
 * After a failed import: Grist registers the new document in the workspace before it reads the
 * file (DocManager.importDocToWorkspace → `_doImportDoc`: `register`, then the parse), and keeps
 * it when reading fails; its error does not name it. The document left is found as the one
 * document of the workspace that was not there `before`, named as Grist names the import, and
 * without tables (or that cannot be opened); it is deleted. Never a document the workspace had
 * before, nor one with tables, nor when several match (then they are named). Returns what to
 * add to the error, or undefined when the import left nothing.
 */
async function removeFailedImport(
	client: GristClient,
	wid: number,
	before: Set<string>,
	name: string,
	itemIndex: number,
): Promise<string | undefined> {
	let docs: WorkspaceDoc[];
	try {
		docs = workspaceDocs(await getWorkspace(client, wid, itemIndex));
	} catch {
		return `Grist may have left an empty document named "${name}" in workspace ${wid} (it creates the document before reading the file); delete it in Grist if so.`;
	}
	const left = docs.filter((d) => !before.has(d.id) && d.name === name);
	if (left.length === 0) return undefined;
	const named = left.map((d) => `"${name}" (ID ${d.id})`).join(', ');
	if (left.length > 1) {
		return `Grist creates the document before reading the file; workspace ${wid} now has ${left.length} new documents named so: ${named}. None was deleted, as it is unclear which one this import left: delete the empty one in Grist.`;
	}
	const doc = left[0];
	const tables = await fetchTables(client, doc.id, { itemIndex }).then(
		(t) => t.length,
		(e: unknown) => (e instanceof NodeApiError ? 0 : -1),
	);
	if (tables !== 0) {
		return `Grist created the document ${named} in workspace ${wid} before reading the file; it was kept because ${tables > 0 ? 'it has tables' : 'it could not be checked'}: delete it in Grist if it is not yours.`;
	}
	const removal = await deleteDocument(client, doc.id, itemIndex).then(
		() => undefined,
		(e: unknown) => (e instanceof Error ? e.message : String(e)),
	);
	return removal === undefined
		? `Grist had created the document ${named} in workspace ${wid} before reading the file; this empty document was deleted, so nothing is left behind.`
		: `Grist created the document ${named} in workspace ${wid} before reading the file, and it could not be deleted (${removal}): delete it in Grist.`;
}

/**
 * POST /api/workspaces/{wid}/import: Grist reads the file (column types guessed as in its
 * import dialog) into a new document; returns that document with its ID and URL.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		const property = inputBinaryProperty.call(this, itemIndex);
		let meta: IBinaryData;
		try {
			meta = this.helpers.assertBinaryData(itemIndex, property);
		} catch {
			throw new NodeOperationError(
				this.getNode(),
				`Item ${itemIndex} has no binary field "${property}" (Input Binary Field)`,
				{
					description:
						'Check the Input Binary Field: it must name a binary field of the item, e.g. the output of Read/Write Files from Disk or an HTTP Request.',
					itemIndex,
				},
			);
		}
		const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		const fileName = importFileName(meta.fileName, meta.mimeType);
		const documentName = String(
			itemParameter.call(this, 'documentName', itemIndex, '') ?? '',
		).trim();
		const form = new FormData();
		form.append(
			'upload',
			new Blob([new Uint8Array(buffer)], { type: meta.mimeType || 'application/octet-stream' }),
			fileName,
		);
		if (documentName !== '') form.append('documentName', documentName);
		const hints: HintValues = { fileName, binaryProperty: property, workspace: wid };
		// the documents the workspace holds before: only a document added since can be removed
		let before: Set<string>;
		try {
			before = new Set(workspaceDocs(await getWorkspace(client, wid, itemIndex)).map((d) => d.id));
		} catch (error) {
			throw withHint(error, 'document.importFile', hints);
		}
		let created: { id: string; title?: string };
		try {
			created = await importDocument(client, wid, form, itemIndex);
		} catch (error) {
			const failure = withHint(error, 'document.importFile', hints);
			const note = await removeFailedImport(
				client,
				wid,
				before,
				importedDocumentName(fileName, documentName),
				itemIndex,
			);
			if (note && (failure instanceof NodeApiError || failure instanceof NodeOperationError))
				failure.description = failure.description ? `${failure.description} ${note}` : note;
			throw failure;
		}
		const doc = await getDocument(client, created.id, itemIndex);
		return { ...doc, url: documentUrl(client.server.base, created.id), fileName };
	});
}
