/** Organizations (sites): list, get, update, their workspaces, and which org "this site" is. */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { GristClient } from './client';
import { buildPath, orgEndpoint } from './paths';
import { siteOrgKey } from './url';

/** GET /api/orgs: the organizations (sites) the API key can see. */
export async function listOrgs<T = IDataObject>(
	client: GristClient,
	itemIndex?: number,
): Promise<T[]> {
	const path = buildPath(client, 'orgs');
	return await client.request<T[]>({
		method: 'GET',
		path,
		what: 'the list of organizations',
		itemIndex,
	});
}

/**
 * The org key for "this site": `picked` when given; else `/o/<team>` or `current` where the
 * server can resolve it; else the only org the key can see; else an error asking the user to
 * pick one.
 */
export async function siteOrg(
	client: GristClient,
	picked?: string | number,
): Promise<string | number> {
	if (picked !== undefined && picked !== '') return picked;
	const key = siteOrgKey(client.server);
	if (key) return key;
	const orgs = await listOrgs<{ id: number; domain: string | null }>(client);
	if (orgs.length === 1) return orgs[0].id;
	throw new NodeOperationError(
		client.getNode(),
		orgs.length === 0
			? 'The API key cannot see any organization on this Grist server'
			: `This Grist server has ${orgs.length} organizations and the Server URL does not say which one to use`,
		{
			description:
				'Pick an organization in the Organization field, or add /o/TEAM to the Server URL of the credential (e.g. https://grist.example.com/o/myteam).',
		},
	);
}

/** GET /api/orgs/{org}. */
export async function getOrg(
	client: GristClient,
	key: string | number,
	itemIndex: number,
): Promise<IDataObject> {
	const endpoint = orgEndpoint(client, key);
	return await client.request<IDataObject>({ method: 'GET', ...endpoint, itemIndex });
}

/** PATCH /api/orgs/{org}. */
export async function updateOrg(
	client: GristClient,
	key: string | number,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'PATCH', ...orgEndpoint(client, key), body, itemIndex });
}

/**
 * GET /api/orgs/{org}/workspaces: the workspaces the key can see, with their documents
 * (`qs.showRemoved`: those in the trash instead).
 */
export async function listOrgWorkspaces<T = IDataObject>(
	client: GristClient,
	key: string | number,
	itemIndex?: number,
	qs?: IDataObject,
): Promise<T[]> {
	const endpoint = orgEndpoint(client, key, 'workspaces');
	return await client.request<T[]>({ method: 'GET', ...endpoint, qs, itemIndex });
}

/** Turns the answer of GET /api/orgs/{org}/workspaces into one item per document. */
export function documentsOfWorkspaces(workspaces: IDataObject[]): IDataObject[] {
	const docs: IDataObject[] = [];
	for (const ws of workspaces) {
		for (const doc of (ws.docs as IDataObject[] | undefined) ?? []) {
			docs.push({
				...doc,
				workspace: {
					id: ws.id,
					name: ws.name,
					...(ws.orgDomain !== undefined ? { orgDomain: ws.orgDomain } : {}),
				},
			});
		}
	}
	return docs;
}

/**
 * GET /api/orgs/{org}/usage (owners only): how many of the organization's documents are near or
 * over their plan's data limits, and the attachments' total size.
 */
export async function getOrgUsage(
	client: GristClient,
	key: string | number,
	itemIndex: number,
): Promise<IDataObject> {
	const endpoint = orgEndpoint(client, key, 'usage');
	return await client.request<IDataObject>({ method: 'GET', ...endpoint, itemIndex });
}
