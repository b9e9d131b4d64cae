/**
 * Service accounts of the user of the API key (`/api/service-accounts`, grist-core 1.7.5 and
 * later, only where the server sets GRIST_ENABLE_SERVICE_ACCOUNTS): list, create, get, update,
 * delete, a new API key, revoke the key. A server without them has no such route (404 `not found:
 * /api/service-accounts…`): every call here turns that into an error saying so.
 *
 * The answers of create and of a new key carry the account's API key: the client adds it to the
 * secrets it hides in error texts for the rest of the execution.
 */
import type { IDataObject } from 'n8n-workflow';

import { toNodeError } from '../errors/nodeErrors';
import type { GristClient } from './client';
import { buildPath, type Endpoint } from './paths';

/** A service account as Grist lists it (`key` only in the answers of create and of a new key). */
export interface ServiceAccount extends IDataObject {
	id: number;
	login: string;
	label: string;
	description: string;
	expiresAt: string;
	hasValidKey: boolean;
	key?: string;
}

/** The body of create (`expiresAt` required there) and update (every field optional). */
export interface ServiceAccountBody extends IDataObject {
	label?: string;
	description?: string;
	expiresAt?: string;
}

/** The message and hint for a server without service accounts. */
const SERVICE_ACCOUNTS_OFF = {
	message: 'This Grist server has no service accounts',
	hint: 'Service accounts are off on this server: its administrator must start Grist (1.7.5 or later) with GRIST_ENABLE_SERVICE_ACCOUNTS=true. Until then, use the API key of a user.',
};

/** `/api/service-accounts[/{id}[/apikey]]`. */
function serviceAccountEndpoint(
	client: GristClient,
	id?: number,
	...rest: Array<'apikey'>
): Endpoint {
	if (id === undefined)
		return { path: buildPath(client, 'service-accounts'), what: 'the service accounts' };
	const segment = { value: id, label: 'service account ID' };
	return {
		path: buildPath(client, 'service-accounts', segment, ...rest),
		what: `service account ${id}`,
	};
}

/** Grist's 404 for a route it does not have: here, service accounts switched off. */
function isMissingRoute(error: unknown): boolean {
	const e = error as { httpCode?: unknown; message?: unknown };
	return (
		String(e?.httpCode) === '404' &&
		typeof e.message === 'string' &&
		/not found: .*\/api\/service-accounts/i.test(e.message)
	);
}

/** Runs a call; a missing route becomes the "no service accounts" error (same error object). */
async function call<T>(client: GristClient, run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		if (isMissingRoute(error)) {
			const e = error as { message: string; description?: string };
			e.message = SERVICE_ACCOUNTS_OFF.message;
			e.description = SERVICE_ACCOUNTS_OFF.hint;
		}
		throw toNodeError(client.getNode(), error);
	}
}

/** An answer with a key: the key joins the client's secrets before anything else is done. */
function withKey(client: GristClient, account: ServiceAccount): ServiceAccount {
	if (typeof account?.key === 'string') client.hideSecret(account.key);
	return account;
}

/** GET /api/service-accounts: the service accounts the user of the API key owns. */
export async function listServiceAccounts(
	client: GristClient,
	itemIndex?: number,
): Promise<ServiceAccount[]> {
	const endpoint = serviceAccountEndpoint(client);
	return await call(
		client,
		async () => await client.request<ServiceAccount[]>({ method: 'GET', ...endpoint, itemIndex }),
	);
}

/** POST /api/service-accounts: a new service account with its API key. */
export async function createServiceAccount(
	client: GristClient,
	body: ServiceAccountBody,
	itemIndex: number,
): Promise<ServiceAccount> {
	const endpoint = serviceAccountEndpoint(client);
	const account = await call(
		client,
		async () =>
			await client.request<ServiceAccount>({ method: 'POST', ...endpoint, body, itemIndex }),
	);
	return withKey(client, account);
}

/** GET /api/service-accounts/{id}. */
export async function getServiceAccount(
	client: GristClient,
	id: number,
	itemIndex: number,
): Promise<ServiceAccount> {
	const endpoint = serviceAccountEndpoint(client, id);
	return await call(
		client,
		async () => await client.request<ServiceAccount>({ method: 'GET', ...endpoint, itemIndex }),
	);
}

/** PATCH /api/service-accounts/{id} (Grist answers `null`). */
export async function updateServiceAccount(
	client: GristClient,
	id: number,
	body: ServiceAccountBody,
	itemIndex: number,
): Promise<void> {
	const endpoint = serviceAccountEndpoint(client, id);
	await call(
		client,
		async () => await client.request({ method: 'PATCH', ...endpoint, body, itemIndex }),
	);
}

/** DELETE /api/service-accounts/{id}: the account goes, its user is disabled (Grist answers `null`). */
export async function deleteServiceAccount(
	client: GristClient,
	id: number,
	itemIndex: number,
): Promise<void> {
	const endpoint = serviceAccountEndpoint(client, id);
	await call(
		client,
		async () => await client.request({ method: 'DELETE', ...endpoint, itemIndex }),
	);
}

/** POST /api/service-accounts/{id}/apikey: a new API key (the old one stops working). */
export async function createServiceAccountKey(
	client: GristClient,
	id: number,
	itemIndex: number,
): Promise<ServiceAccount> {
	const endpoint = serviceAccountEndpoint(client, id, 'apikey');
	const account = await call(
		client,
		async () => await client.request<ServiceAccount>({ method: 'POST', ...endpoint, itemIndex }),
	);
	return withKey(client, account);
}

/** DELETE /api/service-accounts/{id}/apikey: the account keeps existing, without a key. */
export async function revokeServiceAccountKey(
	client: GristClient,
	id: number,
	itemIndex: number,
): Promise<void> {
	const endpoint = serviceAccountEndpoint(client, id, 'apikey');
	await call(
		client,
		async () => await client.request({ method: 'DELETE', ...endpoint, itemIndex }),
	);
}
