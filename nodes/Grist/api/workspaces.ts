/** Workspaces: create (in an org), get, update, delete. Trash and access: trash.ts, access.ts. */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import { orgEndpoint, workspaceEndpoint } from './paths';

/** POST /api/orgs/{org}/workspaces; returns the new workspace's id. */
export async function createWorkspace(
	client: GristClient,
	key: string | number,
	body: IDataObject,
	itemIndex: number,
): Promise<number> {
	const endpoint = orgEndpoint(client, key, 'workspaces');
	return Number(await client.request<number>({ method: 'POST', ...endpoint, body, itemIndex }));
}

/** GET /api/workspaces/{wid}: the workspace with its documents and org (`qs.showRemoved`: the trashed ones). */
export async function getWorkspace<T = IDataObject>(
	client: GristClient,
	wid: string | number,
	itemIndex?: number,
	qs?: IDataObject,
): Promise<T> {
	return await client.request<T>({
		method: 'GET',
		...workspaceEndpoint(client, wid),
		qs,
		itemIndex,
	});
}

/** PATCH /api/workspaces/{wid}. */
export async function updateWorkspace(
	client: GristClient,
	wid: number,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'PATCH', ...workspaceEndpoint(client, wid), body, itemIndex });
}

/** DELETE /api/workspaces/{wid}: permanent, with all its documents. */
export async function deleteWorkspace(
	client: GristClient,
	wid: number,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'DELETE', ...workspaceEndpoint(client, wid), itemIndex });
}
