/**
 * A document's forks and what is done with them: fork a document, compare two documents, replace
 * a document's content with another's (or with one of its snapshots). Proposals: proposals.ts;
 * snapshots: snapshots.ts; the states of one document: history.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Comparison, ForkResult } from '../documents/versions';
import type { GristClient } from './client';
import { buildPath, documentEndpoint } from './paths';

/** POST /api/docs/{docId}/fork: a fork of the document, owned by the caller. */
export async function forkDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<ForkResult> {
	const endpoint = documentEndpoint(client, docId, 'fork');
	return await client.request<ForkResult>({ method: 'POST', ...endpoint, itemIndex });
}

/**
 * GET /api/docs/{docId}/compare/{otherDocId} (`detail`, `maxRows`): how the two documents differ
 * since the last state they share; `left` is this document, `right` the other.
 */
export async function compareDocuments(
	client: GristClient,
	docId: string,
	otherDocId: string,
	qs: IDataObject,
	itemIndex: number,
): Promise<Comparison> {
	const other = { value: otherDocId, label: 'document ID to compare with' };
	const endpoint = documentEndpoint(client, docId, 'compare', other);
	return await client.request<Comparison>({ method: 'GET', ...endpoint, qs, itemIndex });
}

/**
 * POST /api/docs/{docId}/replace `{sourceDocId}` or `{snapshotId}`: the document's content
 * becomes the source document's (history included) or the snapshot's. Owners only.
 */
export async function replaceDocumentContent(
	client: GristClient,
	docId: string,
	body: { sourceDocId: string } | { snapshotId: string },
	itemIndex: number,
): Promise<void> {
	const endpoint = documentEndpoint(client, docId, 'replace');
	await client.request({ method: 'POST', ...endpoint, body, itemIndex });
}

/** A fork as listed in `GET /api/docs/{docId}` (the caller's own forks of the document). */
export interface ForkInfo {
	id: string;
	trunkId: string;
	updatedAt?: string;
}

/**
 * The document (GET /api/docs/{docId}: name, `trunkId` when it is a fork, `forks`: the caller's
 * forks of it) and the caller's user ID (GET /api/profile/user), which a fork's full ID ends with.
 */
export async function forksOfDocument(
	client: GristClient,
	docId: string,
): Promise<{ name: string; trunkId: string | null; forks: ForkInfo[]; userId: number | null }> {
	const endpoint = documentEndpoint(client, docId);
	const doc = await client.request<{ name?: string; trunkId?: string | null; forks?: ForkInfo[] }>({
		method: 'GET',
		...endpoint,
	});
	const profile = await client.request<{ id?: number }>({
		method: 'GET',
		path: buildPath(client, 'profile', 'user'),
		what: 'your Grist user',
	});
	return {
		name: doc.name ?? docId,
		trunkId: doc.trunkId ?? null,
		forks: doc.forks ?? [],
		userId: profile?.id ?? null,
	};
}
