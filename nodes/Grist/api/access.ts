/** Who may use an org, a workspace or a document: read and change the access lists. */
import type { IDataObject } from 'n8n-workflow';

import type { AccessListing } from '../documents/roles';
import { withHint } from '../errors/hints';
import type { GristClient } from './client';
import { documentEndpoint, orgEndpoint, workspaceEndpoint, type Endpoint } from './paths';

export type AccessScope =
	| { kind: 'org'; key: string | number }
	| { kind: 'workspace'; wid: number }
	| { kind: 'document'; docId: string };

function accessEndpoint(client: GristClient, scope: AccessScope): Endpoint {
	if (scope.kind === 'org') return orgEndpoint(client, scope.key, 'access');
	if (scope.kind === 'workspace') return workspaceEndpoint(client, scope.wid, 'access');
	return documentEndpoint(client, scope.docId, 'access');
}

/** GET …/access: the users with access (and, below orgs, maxInheritedRole). */
export async function getAccess(
	client: GristClient,
	scope: AccessScope,
	itemIndex: number,
): Promise<AccessListing> {
	return await client.request<AccessListing>({
		method: 'GET',
		...accessEndpoint(client, scope),
		itemIndex,
	});
}

/**
 * PATCH …/access with a delta. Grist's own message is kept; known cases get a hint that says
 * what to do.
 */
export async function updateAccess(
	client: GristClient,
	scope: AccessScope,
	body: { delta: IDataObject | object },
	itemIndex: number,
): Promise<void> {
	try {
		await client.request({ method: 'PATCH', ...accessEndpoint(client, scope), body, itemIndex });
	} catch (error) {
		throw withHint(error, 'access.update');
	}
}
