/** Attachments of a document: list, metadata, download, upload. */
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
