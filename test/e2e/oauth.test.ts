/**
 * The OAuth2 credential in a real n8n 2.41.1, against the emulator's OAuth server: the connect
 * flow driven headless as a browser would (n8n's OAuth2 start endpoint → the emulator's consent
 * → n8n's callback, with the session and n8n's cookies), then records read and written with the
 * token, an automatic refresh once the short-lived access token expired, and a clear message on
 * an operation Grist refuses to OAuth apps. No secret or token reaches output or n8n's log.
 */
import { sleep } from 'n8n-workflow';

import type { DemoSite, GristEmulator } from '../emulator';
import type { OAuthApp } from '../emulator/routes-oauth';
import { byId } from '../harness/builders';
import { manualWorkflow, useN8nDemoSite, type CredentialRef, type N8n } from '../harness/e2e';
import { emulatorOnly } from '../harness/target';

// Grist's OAuth server is not in grist-core: a real one needs a Grist SaaS app registration.
const oauthServer = emulatorOnly('needs the emulator’s OAuth server (not in grist-core)');

const fx = useN8nDemoSite({ n8n: { env: { N8N_LOG_LEVEL: 'debug' } } });
let emulator: GristEmulator;
let n8n: N8n;
let demo: DemoSite;
let app: OAuthApp;
let credential: CredentialRef;

beforeAll(() => {
	({ emu: emulator, demo, n8n } = fx);
	// The redirect URL n8n shows in the credential dialog, registered in the OAuth app.
	app = emulator.oauth.registerApp({
		redirectUris: [`${n8n.baseUrl}/rest/oauth2-credential/callback`],
	});
});

const grist = (parameters: Record<string, unknown>) => ({
	name: 'Grist',
	type: 'n8n-nodes-grist.grist',
	parameters: { authentication: 'oAuth2', ...parameters },
	credentials: { gristRecordsOAuth2Api: credential },
});

/** The cookies a browser would send back: `name=value` of every Set-Cookie. */
const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]);

oauthServer.describe('OAuth2 credential in a real n8n', () => {
	test('connects: n8n start endpoint → consent → callback stores the token', async () => {
		emulator.oauth.accessTokenTtl = 2;
		credential = await n8n.createCredential({
			name: 'Grist OAuth2',
			type: 'gristRecordsOAuth2Api',
			data: {
				url: `${emulator.url}/o/${demo.orgDomain}`,
				clientId: app.clientId,
				clientSecret: app.clientSecret,
			},
		});
		const session = n8n.sessionCookie();
		const start = await fetch(
			`${n8n.baseUrl}/rest/oauth2-credential/auth?id=${encodeURIComponent(credential.id)}`,
			{ headers: { cookie: session } },
		);
		expect(start.status).toBe(200);
		const authUrl = new URL(((await start.json()) as { data: string }).data);
		expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${emulator.url}/oidc/auth`);
		expect(Object.fromEntries(authUrl.searchParams)).toMatchObject({
			client_id: app.clientId,
			redirect_uri: `${n8n.baseUrl}/rest/oauth2-credential/callback`,
			scope: 'offline_access doc:read doc:write',
			prompt: 'consent',
			code_challenge_method: 'S256',
			response_type: 'code',
		});
		const consent = await fetch(authUrl, { redirect: 'manual' });
		expect(consent.status).toBe(302);
		const callback = new URL(consent.headers.get('location') ?? '');
		expect(`${callback.origin}${callback.pathname}`).toBe(
			`${n8n.baseUrl}/rest/oauth2-credential/callback`,
		);
		const done = await fetch(callback, {
			headers: { cookie: [session, ...cookiesOf(start)].join('; ') },
			redirect: 'manual',
		});
		const page = await done.text();
		expect(done.status).toBe(200);
		expect(page).not.toMatch(/error/i);
		expect(emulator.oauth.tokenRequests).toEqual([
			{ grantType: 'authorization_code', status: 200 },
		]);
	});

	test('reads and writes records with the token', async () => {
		const read = await n8n.runWorkflow(
			manualWorkflow([
				grist({
					resource: 'record',
					operation: 'getAll',
					document: byId(demo.docId),
					table: byId('Customers'),
					returnAll: true,
				}),
			]),
		);
		expect(read.status).toBe('success');
		expect(read.output('Grist').map((r) => r.Name)).toContain('Alice Martin');
		const write = await n8n.runWorkflow(
			manualWorkflow([
				grist({
					resource: 'record',
					operation: 'create',
					document: byId(demo.docId),
					table: byId('Customers'),
					columns: {
						mappingMode: 'defineBelow',
						value: { Name: 'Erin OAuth' },
						matchingColumns: [],
						schema: [],
					},
				}),
			]),
		);
		expect(write.status).toBe('success');
		expect(emulator.records(demo.docId, 'Customers').map((r) => r.fields.Name)).toContain(
			'Erin OAuth',
		);
	});

	test('refreshes the token by itself once the access token expired', async () => {
		await sleep(2500); // the access token lives 2 s here
		emulator.clearLog();
		const read = await n8n.runWorkflow(
			manualWorkflow([
				grist({
					resource: 'record',
					operation: 'getAll',
					document: byId(demo.docId),
					table: byId('Customers'),
					returnAll: true,
				}),
			]),
		);
		expect(read.status).toBe('success');
		expect(emulator.oauth.tokenRequests.at(-1)).toEqual({
			grantType: 'refresh_token',
			status: 200,
		});
		expect(emulator.log.map((e) => [e.method, e.apiPath, e.status])).toEqual([
			['GET', `/api/docs/${demo.docId}/tables/Customers/columns`, 401],
			['POST', '/oidc/token', 200],
			['GET', `/api/docs/${demo.docId}/tables/Customers/columns`, 200],
			['GET', `/api/docs/${demo.docId}/tables/Customers/records`, 200],
		]);
		// the rotated refresh token was stored: the next expiry refreshes again
		await sleep(2500);
		const again = await n8n.runWorkflow(
			manualWorkflow([
				grist({
					resource: 'record',
					operation: 'getAll',
					document: byId(demo.docId),
					table: byId('Customers'),
					returnAll: true,
				}),
			]),
		);
		expect(again.status).toBe('success');
		expect(emulator.oauth.tokenRequests.slice(-2)).toEqual([
			{ grantType: 'refresh_token', status: 200 },
			{ grantType: 'refresh_token', status: 200 },
		]);
	});

	test('an operation Grist refuses to OAuth apps fails with a message that says to use an API key', async () => {
		emulator.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				grist({ resource: 'document', operation: 'delete', document: byId(demo.docId) }),
			]),
		);
		expect(run.status).toBe('error');
		const error = run.nodeError('Grist');
		expect(error?.message).toBe(
			`Grist does not allow OAuth apps to call DELETE /api/docs/${demo.docId}`,
		);
		expect(error?.description).toMatch(/need an API key: set Authentication to API Key/);
		expect(emulator.log).toEqual([]);
	});

	test('no client secret or token in n8n output or log', async () => {
		const data = await n8n.rest<{ data?: Record<string, unknown> }>(
			'GET',
			`/credentials/${credential.id}?includeData=true`,
		);
		const stored = JSON.stringify(data);
		expect(stored).not.toContain(app.clientSecret);
		const log = n8n.logs();
		expect(log).not.toContain(app.clientSecret);
		expect(log).not.toMatch(/grist_(at|rt)_[0-9a-f]{10}/);
	});
});
