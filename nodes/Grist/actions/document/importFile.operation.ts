import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GristClient } from '../../api/client';
import { deleteDocument, getDocument, importDocument } from '../../api/documents';
import { fetchTables } from '../../api/tables';
import { getWorkspace } from '../../api/workspaces';
import { withHint, type HintValues } from '../../errors/hints';
import { inputBinaryField, inputFile } from '../../parameters/binaryFields';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';
import {
	documentUrl,
	importFileName,
	importedDocumentName,
	isUnopenableDocument,
} from '../../documents/lifecycle';
import { operationDescription, perItem } from '../operationFrame';

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

export const description = operationDescription('document', 'importFile', properties);

interface WorkspaceDoc {
	id: string;
	name?: string;
}

function workspaceDocs(ws: IDataObject): WorkspaceDoc[] {
	return Array.isArray(ws.docs) ? (ws.docs as WorkspaceDoc[]) : [];
}

/** What reading the tables of the document a failed import left says about it. */
type LeftDocument =
	| { kind: 'empty' }
	| { kind: 'unopenable' }
	| { kind: 'tables' }
	| { kind: 'unchecked'; reason: string };

async function checkLeftDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<LeftDocument> {
	try {
		const tables = await fetchTables(client, docId, { itemIndex });
		return tables.length === 0 ? { kind: 'empty' } : { kind: 'tables' };
	} catch (error) {
		if (error instanceof NodeApiError && isUnopenableDocument(error.httpCode, error.message))
			return { kind: 'unopenable' };
		return { kind: 'unchecked', reason: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * After a failed import: Grist registers the new document in the workspace before it reads the
 * file (DocManager.importDocToWorkspace → `_doImportDoc`: `register`, then the parse), and keeps
 * it when reading fails; its error does not name it. The document left is found as the one
 * document of the workspace that was not there `before`, named as Grist names the import. It is
 * deleted only when reading its tables shows what a failed import leaves: no tables (CSV, Excel),
 * or Grist's answer for a document without a Grist file (`.grist`: see isUnopenableDocument).
 * Never a document the workspace had before, nor one with tables, nor when several match (then
 * they are named), nor when reading its tables failed otherwise (a network error, a failing
 * server, no access): then the error names the document and why it was kept. Returns what to add
 * to the error, or undefined when the import left nothing.
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
	const check = await checkLeftDocument(client, doc.id, itemIndex);
	if (check.kind === 'tables') {
		return `Grist created the document ${named} in workspace ${wid} before reading the file; it was kept because it has tables: delete it in Grist if it is not yours.`;
	}
	if (check.kind === 'unchecked') {
		return `Grist created the document ${named} in workspace ${wid} before reading the file. It was kept, as reading its tables to check that it is empty failed (${check.reason}): look at it in Grist and delete it if it is empty.`;
	}
	const what =
		check.kind === 'empty' ? 'this empty document' : 'this document, which Grist cannot open,';
	const removal = await deleteDocument(client, doc.id, itemIndex).then(
		() => undefined,
		(e: unknown) => (e instanceof Error ? e.message : String(e)),
	);
	return removal === undefined
		? `Grist had created the document ${named} in workspace ${wid} before reading the file; ${what} was deleted, so nothing is left behind.`
		: `Grist created the document ${named} in workspace ${wid} before reading the file, and it could not be deleted (${removal}): delete it in Grist.`;
}

/**
 * POST /api/workspaces/{wid}/import: Grist reads the file (column types guessed as in its
 * import dialog) into a new document; returns that document with its ID and URL.
 */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const { property, meta, buffer } = await inputFile.call(
		this,
		itemIndex,
		'e.g. the output of Read/Write Files from Disk or an HTTP Request',
	);
	const fileName = importFileName(meta.fileName, meta.mimeType);
	const documentName = String(itemParameter.call(this, 'documentName', itemIndex, '') ?? '').trim();
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
