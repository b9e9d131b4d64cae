/** A document's snapshots (its saved versions, kept by Grist's external storage). */
import type { GristClient } from './client';
import { documentEndpoint } from './paths';

/** A snapshot as Grist lists it. */
export interface Snapshot {
	snapshotId: string;
	lastModified: string;
	docId: string;
	metadata?: Record<string, string>;
}

/**
 * GET /api/docs/{docId}/snapshots (`raw=1`: also snapshots missing from Grist's inventory), newest
 * first. Without external storage Grist lists one entry, `current`.
 */
export async function listSnapshots(
	client: GristClient,
	docId: string,
	raw: boolean,
	itemIndex?: number,
): Promise<Snapshot[]> {
	const endpoint = documentEndpoint(client, docId, 'snapshots');
	const qs = raw ? { raw: 1 } : undefined;
	const res = await client.request<{ snapshots?: Snapshot[] }>({
		method: 'GET',
		...endpoint,
		qs,
		itemIndex,
	});
	return res?.snapshots ?? [];
}

/**
 * POST /api/docs/{docId}/snapshots/remove `{snapshotIds}` or `{select: "unlisted" | "past"}`;
 * returns the IDs Grist removed. Owners only.
 */
export async function removeSnapshots(
	client: GristClient,
	docId: string,
	body: { snapshotIds: string[] } | { select: 'unlisted' | 'past' },
	itemIndex: number,
): Promise<string[]> {
	const endpoint = documentEndpoint(client, docId, 'snapshots', 'remove');
	const res = await client.request<{ snapshotIds?: string[] }>({
		method: 'POST',
		...endpoint,
		body,
		itemIndex,
	});
	return res?.snapshotIds ?? [];
}
