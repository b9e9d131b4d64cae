/**
 * The owner of every e2e instance: n8n 2.x gets it through the environment (its bcrypt hash),
 * n8n 1.x through `/rest/owner/setup`; then the harness logs in and makes an API key for the
 * public API.
 */
import { randomBytes } from 'node:crypto';

import type { N8nClient } from './client';
import { bcryptHash, type Runtime } from './runtime';
import { until } from '../until';

export const OWNER_EMAIL = 'owner@e2e.example.com';
/** Throwaway owner password, new for every test process (n8n gets only its bcrypt hash, through the env). */
export const OWNER_PASSWORD = `E2e-${randomBytes(12).toString('hex')}-0`;

const OWNER_NAME = { firstName: 'E2E', lastName: 'Owner' };

/** The owner n8n 2.x sets up from its environment (`n8nEnv({ owner })`). */
export function envOwner(runtime: Runtime) {
	return { email: OWNER_EMAIL, passwordHash: bcryptHash(runtime, OWNER_PASSWORD), ...OWNER_NAME };
}

/** n8n 1.x: waits for its REST routes (it reports ready before it mounts them), sets up the owner. */
export async function setUpLegacyOwner(client: N8nClient, timeoutMs: number): Promise<void> {
	await until(
		"n8n's REST API is up",
		async () => (await fetch(`${client.baseUrl}/rest/settings`)).status === 200,
		{ timeoutMs, intervalMs: 150 },
	);
	await client.rest('POST', '/owner/setup', {
		email: OWNER_EMAIL,
		password: OWNER_PASSWORD,
		...OWNER_NAME,
	});
}

export async function logIn(client: N8nClient): Promise<void> {
	await client.rest('POST', '/login', {
		emailOrLdapLoginId: OWNER_EMAIL,
		password: OWNER_PASSWORD,
	});
}

/** Logs in and gives the client an API key with every scope the owner may grant. */
export async function logInWithApiKey(client: N8nClient): Promise<void> {
	await logIn(client);
	const scopes = await client.rest<string[]>('GET', '/api-keys/scopes');
	const made = await client.rest<{ rawApiKey: string }>('POST', '/api-keys', {
		label: `e2e ${randomBytes(4).toString('hex')}`,
		expiresAt: null,
		scopes,
	});
	client.setApiKey(made.rawApiKey);
}
