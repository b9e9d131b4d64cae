/**
 * Grist's trash (soft delete) of documents and workspaces: move to it, restore from it, and read
 * what is in it.
 */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import { documentEndpoint, workspaceEndpoint, type Endpoint } from './paths';

export type TrashTarget = { kind: 'document'; docId: string } | { kind: 'workspace'; wid: number };

function trashEndpoint(
	client: GristClient,
	t: TrashTarget,
	action: 'remove' | 'unremove',
): Endpoint {
	return t.kind === 'document'
		? documentEndpoint(client, t.docId, action)
		: workspaceEndpoint(client, t.wid, action);
}

/** POST /api/docs/{docId}/remove or /api/workspaces/{wid}/remove: Grist's soft delete (the trash). */
export async function moveToTrash(
	client: GristClient,
	target: TrashTarget,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'POST', ...trashEndpoint(client, target, 'remove'), itemIndex });
}

/** POST …/unremove: takes a document or workspace out of the trash. */
export async function restoreFromTrash(
	client: GristClient,
	target: TrashTarget,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'POST', ...trashEndpoint(client, target, 'unremove'), itemIndex });
	// Grist may go on answering that the documents are deleted for a few seconds: the client
	// waits that out for the requests that follow, in this node or the next ones
	client.restored();
}

/** GET /api/workspaces/{wid}?showRemoved=1: the workspace as the trash shows it (its trashed documents). */
export async function getWorkspaceTrash(
	client: GristClient,
	wid: number,
	itemIndex: number,
): Promise<IDataObject> {
	const endpoint = workspaceEndpoint(client, wid);
	return await client.request<IDataObject>({
		method: 'GET',
		...endpoint,
		qs: { showRemoved: 1 },
		itemIndex,
	});
}

/** GET /api/docs/{docId}?showRemoved=1: a document in the trash (404 when it is not in it). */
export async function getTrashedDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const { path, what } = documentEndpoint(client, docId);
	return await client.request<IDataObject>({
		method: 'GET',
		path,
		qs: { showRemoved: 1 },
		what: `${what} in the trash`,
		itemIndex,
	});
}
