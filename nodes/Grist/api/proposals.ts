/** Change proposals: a fork's changes offered to its trunk document, listed and applied. */
import type { GristProposal, PatchLog } from '../documents/versions';
import type { GristClient } from './client';
import { documentEndpoint } from './paths';

/**
 * GET /api/docs/{docId}/proposals: the proposals made to the document, or with `outgoing` the
 * ones made from it (a fork), newest first.
 */
export async function listProposals(
	client: GristClient,
	docId: string,
	outgoing: boolean,
	itemIndex?: number,
): Promise<GristProposal[]> {
	const endpoint = documentEndpoint(client, docId, 'proposals');
	const qs = outgoing ? { outgoing: 1 } : undefined;
	const res = await client.request<{ proposals?: GristProposal[] }>({
		method: 'GET',
		...endpoint,
		qs,
		itemIndex,
	});
	return res?.proposals ?? [];
}

/**
 * POST /api/docs/{docId}/proposals/{proposalId}/apply: the proposal's changes applied to the
 * document (owners only); the proposal afterwards and Grist's log of what it did.
 */
export async function applyProposal(
	client: GristClient,
	docId: string,
	proposalId: number,
	itemIndex: number,
): Promise<{ proposalId: number; changes?: { proposal?: GristProposal; log?: PatchLog } }> {
	const id = { value: proposalId, label: 'proposal ID' };
	const endpoint = documentEndpoint(client, docId, 'proposals', id, 'apply');
	return await client.request({ method: 'POST', ...endpoint, itemIndex });
}
