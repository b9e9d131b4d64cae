/**
 * Attachments of a document: list, metadata, download, upload; the archive of all files (download,
 * restore), removing unused ones, and the store their files live in (internal or external).
 */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import type { StreamResponse } from './httpAnswer';
import { documentEndpoint, type Endpoint } from './paths';

/** `/api/docs/{doc}/attachments/{id}/…`, about that attachment. */
function attachmentEndpoint(
	client: GristClient,
	docId: string,
	id: number,
	...rest: string[]
): Endpoint {
	const { path, what } = documentEndpoint(client, docId, 'attachments', id, ...rest);
	return { path, what: `attachment ${id} of ${what}` };
}

/** GET /api/docs/{doc}/attachments (with `limit` when given). */
export async function listAttachments(
	client: GristClient,
	docId: string,
	qs: IDataObject,
	itemIndex: number,
): Promise<Array<{ id: number; fields?: IDataObject }>> {
	const res = await client.request<{ records: Array<{ id: number; fields?: IDataObject }> }>({
		method: 'GET',
		...documentEndpoint(client, docId, 'attachments'),
		qs,
		itemIndex,
	});
	return Array.isArray(res?.records) ? res.records : [];
}

/** GET /api/docs/{doc}/attachments/{id}: file name, size and upload time. */
export async function getAttachment(
	client: GristClient,
	docId: string,
	id: number,
	itemIndex: number,
): Promise<IDataObject> {
	const endpoint = attachmentEndpoint(client, docId, id);
	return await client.request<IDataObject>({ method: 'GET', ...endpoint, itemIndex });
}

/** GET /api/docs/{doc}/attachments/{id}/download: the bytes as a stream. */
export async function downloadAttachment(
	client: GristClient,
	docId: string,
	id: number,
	itemIndex: number,
): Promise<StreamResponse> {
	const endpoint = attachmentEndpoint(client, docId, id, 'download');
	return await client.binaryStream({ method: 'GET', ...endpoint, itemIndex });
}

/** POST /api/docs/{doc}/attachments (multipart, one `upload` part per file); Grist answers the ids. */
export async function uploadAttachments(
	client: GristClient,
	docId: string,
	form: FormData,
	itemIndex: number,
): Promise<unknown> {
	const endpoint = documentEndpoint(client, docId, 'attachments');
	return await client.request<unknown>({ method: 'POST', ...endpoint, body: form, itemIndex });
}

export type ArchiveFormat = 'zip' | 'tar';

/** GET /api/docs/{doc}/attachments/archive?format=zip|tar: every attachment in one archive, streamed. */
export async function downloadAttachmentArchive(
	client: GristClient,
	docId: string,
	format: ArchiveFormat,
	itemIndex: number,
): Promise<StreamResponse> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'archive');
	return await client.binaryStream({ method: 'GET', ...endpoint, qs: { format }, itemIndex });
}

/** What Grist answers a restore: files added, files that failed, files it did not need. */
export interface ArchiveRestoreResult {
	added: number;
	errored: number;
	unused: number;
}

/**
 * POST /api/docs/{doc}/attachments/archive (multipart, a `.tar` part of type application/x-tar):
 * the archive's files that the document's attachments lack are added.
 */
export async function restoreAttachmentArchive(
	client: GristClient,
	docId: string,
	form: FormData,
	itemIndex: number,
): Promise<ArchiveRestoreResult> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'archive');
	return await client.request<ArchiveRestoreResult>({
		method: 'POST',
		...endpoint,
		body: form,
		itemIndex,
	});
}

/** POST /api/docs/{doc}/attachments/removeUnused (`expiredonly`, `verifyfiles`); Grist answers null. */
export async function removeUnusedAttachments(
	client: GristClient,
	docId: string,
	qs: IDataObject,
	itemIndex: number,
): Promise<void> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'removeUnused');
	await client.request<null>({ method: 'POST', ...endpoint, qs, itemIndex });
}

export type AttachmentStoreType = 'internal' | 'external';

/** GET /api/docs/{doc}/attachments/store: `{type}` of the store new attachments go to. */
export async function getAttachmentStore(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<{ type: AttachmentStoreType }> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'store');
	return await client.request<{ type: AttachmentStoreType }>({
		method: 'GET',
		...endpoint,
		itemIndex,
	});
}

/** POST /api/docs/{doc}/attachments/store `{type}`: `{store}`, the id of the external store (absent for internal). */
export async function setAttachmentStore(
	client: GristClient,
	docId: string,
	type: AttachmentStoreType,
	itemIndex: number,
): Promise<{ store?: string }> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'store');
	return await client.request<{ store?: string }>({
		method: 'POST',
		...endpoint,
		body: { type },
		itemIndex,
	});
}

/** GET /api/docs/{doc}/attachments/stores: `{stores: [{label}]}`, the external stores the server has. */
export async function listAttachmentStores(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<{ stores: Array<{ label: string }> }> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'stores');
	return await client.request<{ stores: Array<{ label: string }> }>({
		method: 'GET',
		...endpoint,
		itemIndex,
	});
}

/** What Grist answers about moving attachments between stores. */
export interface AttachmentTransferStatus {
	status: {
		pendingTransferCount: number;
		isRunning: boolean;
		successes: number;
		failures: number;
	};
	/** Where the files are: `none`, `internal`, `external` or `mixed`. */
	locationSummary: string;
}

/** POST /api/docs/{doc}/attachments/transferAll: starts moving every file to the document's store. */
export async function transferAllAttachments(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<AttachmentTransferStatus> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'transferAll');
	return await client.request<AttachmentTransferStatus>({
		method: 'POST',
		...endpoint,
		itemIndex,
	});
}

/** GET /api/docs/{doc}/attachments/transferStatus. */
export async function getAttachmentTransferStatus(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<AttachmentTransferStatus> {
	const endpoint = documentEndpoint(client, docId, 'attachments', 'transferStatus');
	return await client.request<AttachmentTransferStatus>({
		method: 'GET',
		...endpoint,
		itemIndex,
	});
}
