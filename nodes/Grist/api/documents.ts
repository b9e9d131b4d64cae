/**
 * Documents: create, get, update, delete, move, copy, export (xlsx, csv, tsv, dsv, table schema), the .grist backup,
 * import, and user actions. Trash and access: trash.ts, access.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import type { BinaryResponse, StreamResponse } from './httpAnswer';
import { documentEndpoint, workspaceEndpoint } from './paths';

/** POST /api/workspaces/{wid}/docs; returns the new document's id. */
export async function createDocument(
	client: GristClient,
	wid: number,
	body: IDataObject,
	itemIndex: number,
): Promise<string> {
	const endpoint = workspaceEndpoint(client, wid, 'docs');
	return String(await client.request<string>({ method: 'POST', ...endpoint, body, itemIndex }));
}

/** GET /api/docs/{docId}: the document with its workspace and org. */
export async function getDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const endpoint = documentEndpoint(client, docId);
	return await client.request<IDataObject>({ method: 'GET', ...endpoint, itemIndex });
}

/** PATCH /api/docs/{docId} (name, isPinned). */
export async function updateDocument(
	client: GristClient,
	docId: string,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'PATCH', ...documentEndpoint(client, docId), body, itemIndex });
}

/** DELETE /api/docs/{docId}. */
export async function deleteDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'DELETE', ...documentEndpoint(client, docId), itemIndex });
}

/** PATCH /api/docs/{docId}/move `{ workspace }`. */
export async function moveDocument(
	client: GristClient,
	docId: string,
	wid: number,
	itemIndex: number,
): Promise<void> {
	const endpoint = documentEndpoint(client, docId, 'move');
	await client.request({ method: 'PATCH', ...endpoint, body: { workspace: wid }, itemIndex });
}

/** POST /api/docs/{docId}/copy `{workspaceId, documentName, asTemplate}`; returns the new id. */
export async function copyDocument(
	client: GristClient,
	docId: string,
	body: { workspaceId: number; documentName: string; asTemplate: boolean },
	itemIndex: number,
): Promise<string> {
	const endpoint = documentEndpoint(client, docId, 'copy');
	return String(await client.request<string>({ method: 'POST', ...endpoint, body, itemIndex }));
}

export interface ExportRequest {
	docId: string;
	/** The file kind, also the last segment of its path (`/download/table-schema`). */
	format: 'xlsx' | 'csv' | 'tsv' | 'dsv' | 'table-schema';
	tableId?: string;
}

/** GET /api/docs/{docId}/download/{xlsx|csv|tsv|dsv|table-schema}: the file, byte for byte. */
export async function exportDocument(
	client: GristClient,
	req: ExportRequest,
	qs: IDataObject,
	itemIndex: number,
): Promise<BinaryResponse> {
	const { path, what } = documentEndpoint(client, req.docId, 'download', req.format);
	return await client.binary({
		method: 'GET',
		path,
		qs,
		what: req.tableId !== undefined ? `table "${req.tableId}" of ${what}` : what,
		itemIndex,
	});
}

/** GET /api/docs/{docId}/download (`nohistory`, `template`): the whole document as a .grist file, streamed. */
export async function downloadDocumentFile(
	client: GristClient,
	docId: string,
	qs: IDataObject,
	itemIndex: number,
): Promise<StreamResponse> {
	const endpoint = documentEndpoint(client, docId, 'download');
	return await client.binaryStream({ method: 'GET', ...endpoint, qs, itemIndex });
}

/** POST /api/workspaces/{wid}/import (multipart `upload` + `documentName`): `{id, title}` of the new document. */
export async function importDocument(
	client: GristClient,
	wid: number,
	form: FormData,
	itemIndex: number,
): Promise<{ id: string; title?: string }> {
	const endpoint = workspaceEndpoint(client, wid, 'import');
	return await client.request<{ id: string; title?: string }>({
		method: 'POST',
		...endpoint,
		body: form,
		itemIndex,
	});
}

/** `POST /api/docs/{docId}/apply`: user actions, all applied or none (e.g. `["RemoveTable", id]`). */
export async function applyUserActions(
	client: GristClient,
	docId: string,
	actions: unknown[][],
	itemIndex: number,
	qs?: IDataObject,
): Promise<IDataObject> {
	const endpoint = documentEndpoint(client, docId, 'apply');
	return await client.request<IDataObject>({
		method: 'POST',
		...endpoint,
		qs,
		body: actions,
		itemIndex,
	});
}
