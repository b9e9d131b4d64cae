/** Columnar records (/data, deprecated by Grist): `{ id: [...], A: [...] }`. */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import { tableEndpoint, type Target } from './paths';

/** GET …/data: `{ id: [...], A: [...] }`. */
export async function fetchColumnar(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	itemIndex: number,
): Promise<Record<string, unknown[]>> {
	const endpoint = tableEndpoint(client, t, 'data');
	return await client.request<Record<string, unknown[]>>({
		method: 'GET',
		...endpoint,
		qs,
		itemIndex,
	});
}

/** POST …/data (create; returns the new ids) or PATCH …/data (update, with an `id` column). */
export async function writeColumnarData(
	client: GristClient,
	t: Target,
	mode: 'create' | 'update',
	data: Record<string, unknown[]>,
	qs: IDataObject,
	itemIndex: number,
): Promise<number[] | null> {
	return await client.request<number[] | null>({
		method: mode === 'create' ? 'POST' : 'PATCH',
		...tableEndpoint(client, t, 'data'),
		qs,
		body: data,
		itemIndex,
	});
}
