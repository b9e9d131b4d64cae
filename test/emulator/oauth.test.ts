/**
 * The emulator's OAuth server (routes-oauth.ts): discovery, automatic consent (and its test
 * hooks), the token endpoint (PKCE verifier, client secret, refresh with rotation), expiry, and
 * the endpoint/scope table of reference §10 enforced with 403.
 */
import { createHash, randomBytes } from 'node:crypto';

import { startEmulator, type DemoSite, type GristEmulator } from './index';
import type { OAuthApp } from './routes-oauth';
import { emulatorOnly } from '../harness/target';

// Grist's OAuth server is not in grist-core: these test the emulator's stand-in for it.
const oauthServer = emulatorOnly('the OAuth server is the emulator’s (not in grist-core)');

let emu: GristEmulator;
let demo: DemoSite;
let app: OAuthApp;
const REDIRECT = 'http://localhost:5678/rest/oauth2-credential/callback';

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
	app = emu.oauth.registerApp({ redirectUris: [REDIRECT] });
});
afterAll(async () => await emu.close());
afterEach(() => {
	emu.oauth.consent = 'allow';
	emu.oauth.grantDocs = undefined;
});

const b64url = (b: Buffer) => b.toString('base64url');
const verifier = b64url(randomBytes(32));
const challenge = b64url(createHash('sha256').update(verifier).digest());

async function authorize(extra: Record<string, string> = {}) {
	const q = new URLSearchParams({
		response_type: 'code',
		client_id: app.clientId,
		redirect_uri: REDIRECT,
		scope: 'offline_access doc:read doc:write',
		state: 'st4te',
		code_challenge: challenge,
		code_challenge_method: 'S256',
		prompt: 'consent',
		...extra,
	});
	const res = await fetch(`${emu.url}/oidc/auth?${q}`, { redirect: 'manual' });
	return { status: res.status, location: new URL(res.headers.get('location') ?? 'http://none/') };
}

async function token(params: Record<string, string>, secret = app.clientSecret) {
	const res = await fetch(`${emu.url}/oidc/token`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			Authorization: `Basic ${Buffer.from(`${app.clientId}:${secret}`).toString('base64')}`,
		},
		body: new URLSearchParams(params).toString(),
	});
	return { status: res.status, body: (await res.json()) as Record<string, string> };
}

async function connect(extra: Record<string, string> = {}) {
	const { location } = await authorize(extra);
	const code = location.searchParams.get('code') ?? '';
	return await token({
		grant_type: 'authorization_code',
		code,
		redirect_uri: REDIRECT,
		code_verifier: verifier,
	});
}

const api = async (path: string, accessToken: string, method = 'GET') =>
	await fetch(`${emu.url}${path}`, { method, headers: { Authorization: `Bearer ${accessToken}` } });

oauthServer.describe('OAuth server', () => {
	test('discovery names the endpoints on the server origin, PKCE S256 and the scopes', async () => {
		const res = await fetch(`${emu.url}/.well-known/oauth-authorization-server`);
		const body = (await res.json()) as Record<string, unknown>;
		expect(body).toMatchObject({
			authorization_endpoint: `${emu.url}/oidc/auth`,
			token_endpoint: `${emu.url}/oidc/token`,
			code_challenge_methods_supported: ['S256'],
		});
		expect(body.scopes_supported).toEqual(expect.arrayContaining(['doc:read', 'offline_access']));
	});

	test('consents at once, redirecting with the code and the state; the code buys tokens once', async () => {
		const { status, location } = await authorize();
		expect(status).toBe(302);
		expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
		expect(location.searchParams.get('state')).toBe('st4te');
		const code = location.searchParams.get('code') ?? '';
		const first = await token({
			grant_type: 'authorization_code',
			code,
			redirect_uri: REDIRECT,
			code_verifier: verifier,
		});
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({
			token_type: 'Bearer',
			expires_in: 3600,
			scope: 'offline_access doc:read doc:write',
		});
		expect(first.body.access_token).toMatch(/^grist_at_/);
		expect(first.body.refresh_token).toMatch(/^grist_rt_/);
		const again = await token({
			grant_type: 'authorization_code',
			code,
			redirect_uri: REDIRECT,
			code_verifier: verifier,
		});
		expect(again).toEqual({
			status: 400,
			body: { error: 'invalid_grant', error_description: 'invalid code' },
		});
	});

	test('checks the PKCE verifier, the client secret and the redirect URI', async () => {
		const { location } = await authorize();
		const code = location.searchParams.get('code') ?? '';
		const wrongSecret = await token(
			{ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
			'not-the-secret',
		);
		expect(wrongSecret.status).toBe(401);
		expect(wrongSecret.body.error).toBe('invalid_client');
		const { location: l2 } = await authorize();
		const wrongVerifier = await token({
			grant_type: 'authorization_code',
			code: l2.searchParams.get('code') ?? '',
			redirect_uri: REDIRECT,
			code_verifier: 'x'.repeat(43),
		});
		expect(wrongVerifier.body).toEqual({
			error: 'invalid_grant',
			error_description: 'PKCE verification failed',
		});
		expect((await authorize({ code_challenge: '' })).location.searchParams.get('error')).toBe(
			'invalid_request',
		);
		const badRedirect = await fetch(
			`${emu.url}/oidc/auth?client_id=${app.clientId}&redirect_uri=${encodeURIComponent('http://evil/cb')}`,
			{ redirect: 'manual' },
		);
		expect(badRedirect.status).toBe(400);
	});

	test('without prompt=consent there is no refresh token; deny redirects with access_denied', async () => {
		const noPrompt = await connect({ prompt: 'login' });
		expect(noPrompt.body.refresh_token).toBeUndefined();
		emu.oauth.consent = 'deny';
		const { location } = await authorize();
		expect(location.searchParams.get('error')).toBe('access_denied');
	});

	test('access tokens expire (401); refresh rotates the refresh token', async () => {
		const { body } = await connect();
		expect(
			(await api(`/api/docs/${demo.docId}/tables/Customers/records`, body.access_token)).status,
		).toBe(200);
		emu.oauth.expireAccessTokens();
		const expired = await api(
			`/api/docs/${demo.docId}/tables/Customers/records`,
			body.access_token,
		);
		expect([expired.status, await expired.json()]).toEqual([
			401,
			{ error: 'Bad request: access token expired' },
		]);
		const refreshed = await token({
			grant_type: 'refresh_token',
			refresh_token: body.refresh_token,
		});
		expect(refreshed.status).toBe(200);
		expect(refreshed.body.refresh_token).not.toBe(body.refresh_token);
		expect(
			(await api(`/api/docs/${demo.docId}/tables/Customers/records`, refreshed.body.access_token))
				.status,
		).toBe(200);
		const reused = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
		expect(reused.body.error).toBe('invalid_grant');
	});

	test('enforces the endpoint and scope table with 403, and the documents granted', async () => {
		const { body } = await connect({ scope: 'doc:read' });
		const t = body.access_token;
		expect((await api('/api/orgs', t)).status).toBe(200);
		expect((await api(`/api/orgs/${demo.orgDomain}/workspaces`, t)).status).toBe(200);
		expect((await api(`/api/docs/${demo.docId}/tables`, t)).status).toBe(200);
		const write = await api(`/api/docs/${demo.docId}/tables/Customers/records`, t, 'POST');
		expect([write.status, await write.json()]).toEqual([
			403,
			{ error: 'Insufficient scope: needs doc:write' },
		]);
		for (const path of [
			`/api/docs/${demo.docId}`,
			`/api/orgs/${demo.orgId}`,
			`/api/docs/${demo.docId}/sql?q=select+1`,
		]) {
			const res = await api(path, t);
			expect([path, res.status]).toEqual([path, 403]);
		}
		expect((await api(`/api/docs/${demo.docId}/tables/Customers/data`, t)).status).toBe(403);
		expect((await api('/api/profile/user', t)).status).toBe(403);
		emu.oauth.grantDocs = [demo.doc2Id];
		const partial = (await connect()).body.access_token;
		expect((await api(`/api/docs/${demo.doc2Id}/tables`, partial)).status).toBe(200);
		const outside = await api(`/api/docs/${demo.docId}/tables`, partial);
		expect([outside.status, await outside.json()]).toEqual([
			403,
			{ error: 'This app has no access to this document' },
		]);
	});

	test('the log keeps no secret of the token endpoint', async () => {
		emu.clearLog();
		const { body } = await connect();
		await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
		const log = JSON.stringify(emu.log);
		for (const secret of [app.clientSecret, body.refresh_token, body.access_token, verifier]) {
			expect(log).not.toContain(secret);
		}
		expect(emu.oauth.tokenRequests.slice(-2)).toEqual([
			{ grantType: 'authorization_code', status: 200 },
			{ grantType: 'refresh_token', status: 200 },
		]);
	});
});
