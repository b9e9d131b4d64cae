/** A document's history (the polling trigger's change events): its action states and their diff. */
import type { CompareResponse, HistoryState } from '../history/rowChangeDecoding';
import type { GristClient } from './client';
import { documentEndpoint } from './paths';

/** GET /api/docs/{doc}/states: the document's kept action states, newest first. */
export async function fetchStates(client: GristClient, docId: string): Promise<HistoryState[]> {
	const endpoint = documentEndpoint(client, docId, 'states');
	const res = await client.request<{ states?: HistoryState[] }>({ method: 'GET', ...endpoint });
	return res?.states ?? [];
}

/**
 * GET /api/docs/{doc}/compare?left=L&right=R&maxRows=M: the net changes from state `left`
 * (exclusive) to `right` (inclusive) in `details.rightChanges`. `maxRows` is the most rows of one
 * bulk action whose cell values Grist keeps (Grist's default is 10; null: no limit).
 */
export async function compareStates(
	client: GristClient,
	docId: string,
	left: string,
	right: string,
	maxRows: number | null,
	itemIndex?: number,
): Promise<CompareResponse> {
	const endpoint = documentEndpoint(client, docId, 'compare');
	const qs = { left, right, maxRows: maxRows ?? 'null' };
	return await client.request<CompareResponse>({ method: 'GET', ...endpoint, qs, itemIndex });
}
