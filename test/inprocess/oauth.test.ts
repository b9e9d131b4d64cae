/**
 * The Grist node with Authentication = OAuth2 (credential gristRecordsOAuth2Api) run by n8n-core
 * against the emulator's OAuth server: records read and written with the token, the token
 * refreshed by n8n after it expires (401), operations Grist refuses to OAuth tokens stopped
 * before any request, a missing scope named before the request when the token states its scopes,
 * and Grist's 403 explained otherwise. No token or secret appears in errors or output.
 */
import type { IDataObject } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import type { DemoSite, GristEmulator } from '../emulator';
import type { OAuthApp, OAuthTokenAnswer } from '../emulator/routes-oauth';
import { byId, oauth2Credential } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { createPoller, loadOptions } from '../harness/inprocess';
import { emulatorOnly } from '../harness/target';

// Grist's OAuth server is not in grist-core: a real one needs a Grist SaaS app registration.
const oauthServer = emulatorOnly('needs the emulator’s OAuth server (not in grist-core)');

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let app: OAuthApp;

beforeAll(() => {
	({ emu, demo } = fx);
	app = emu.oauth.registerApp({
		redirectUris: ['http://localhost:5678/rest/oauth2-credential/callback'],
	});
});

function connect(scopes = ['offline_access', 'doc:read', 'doc:write'], docs?: string[]) {
	return emu.oauth.issue({ userId: demo.userId, clientId: app.clientId, scopes, docs });
}

const grist = resourceRunner(fx, 'record');

/** Runs with the OAuth2 credential of `token`; nothing of the app's secret or the token shows. */
async function run(
	parameters: IDataObject,
	token: OAuthTokenAnswer | Omit<OAuthTokenAnswer, 'scope'>,
) {
	const result = await grist(
		{ authentication: 'oAuth2', ...parameters },
		{ otherCredentials: oauth2Credential(fx.site, app, token) },
	);
	const everything = JSON.stringify([
		result.items,
		result.error?.message,
		result.error?.description,
	]);
	for (const secret of [
		app.clientSecret,
		token.access_token,
		token.refresh_token ?? 'none-given',
	]) {
		expect(everything).not.toContain(secret);
	}
	return result;
}

const paths = () => emu.log.map((e) => `${e.method} ${e.apiPath} ${e.status}`);

oauthServer.describe('OAuth2 credential in-process', () => {
	test('reads and writes records with the access token', async () => {
		const token = connect();
		const read = await run(
			{
				resource: 'record',
				operation: 'getAll',
				document: byId(demo.docId),
				table: byId('Customers'),
				returnAll: true,
			},
			token,
		);
		expect(read.error).toBeUndefined();
		expect(read.items.map((i) => i.json.Name)).toContain('Alice Martin');
		const write = await run(
			{
				resource: 'record',
				operation: 'create',
				document: byId(demo.docId),
				table: byId('Customers'),
				columns: {
					mappingMode: 'defineBelow',
					value: { Name: 'Dora OAuth' },
					matchingColumns: [],
					schema: [],
					attemptToConvertTypes: false,
				},
			},
			token,
		);
		expect(write.error).toBeUndefined();
		expect(emu.records(demo.docId, 'Customers').map((r) => r.fields.Name)).toContain('Dora OAuth');
	});

	test('an expired access token is refreshed by n8n (refresh token rotated) and the read goes through', async () => {
		const token = connect();
		emu.oauth.expireAccessTokens();
		const before = emu.oauth.tokenRequests.length;
		const read = await run(
			{
				resource: 'record',
				operation: 'getAll',
				document: byId(demo.docId),
				table: byId('Customers'),
				returnAll: true,
			},
			token,
		);
		expect(read.error).toBeUndefined();
		expect(emu.oauth.tokenRequests.slice(before)).toEqual([
			{ grantType: 'refresh_token', status: 200 },
		]);
		expect(paths()).toEqual([
			`GET /api/docs/${demo.docId}/tables/Customers/columns 401`,
			'POST /oidc/token 200',
			`GET /api/docs/${demo.docId}/tables/Customers/columns 200`,
			`GET /api/docs/${demo.docId}/tables/Customers/records 200`,
		]);
		// the spent refresh token is refused afterwards (rotation)
		const again = await run(
			{
				resource: 'record',
				operation: 'getAll',
				document: byId(demo.docId),
				table: byId('Customers'),
				returnAll: true,
			},
			{ ...token, access_token: 'grist_at_expired' },
		);
		expect(again.error?.message).toMatch(/reconnect/i);
	});

	test('an operation Grist refuses to OAuth apps fails before any request, saying to use an API key', async () => {
		const token = connect();
		const result = await run(
			{ resource: 'document', operation: 'get', document: byId(demo.docId) },
			token,
		);
		expect(result.error?.message).toBe(
			`Grist does not allow OAuth apps to call GET /api/docs/${demo.docId}`,
		);
		expect(result.error?.description).toMatch(/need an API key: set Authentication to API Key/);
		expect(emu.log).toEqual([]);
	});

	test('a scope the token lacks is named before the request', async () => {
		const token = connect(['offline_access', 'doc:read']);
		const result = await run(
			{
				resource: 'record',
				operation: 'delete',
				document: byId(demo.docId),
				table: byId('Customers'),
				rowIds: String(demo.customerIds[0]),
			},
			token,
		);
		expect(result.error?.message).toBe('This OAuth2 connection lacks the Grist scope doc:write');
		expect(result.error?.description).toMatch(/Additional Scopes/);
		expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);
	});

	test("without stated scopes, Grist's 403 is explained (document not granted)", async () => {
		const { access_token, refresh_token } = connect(undefined, [demo.doc2Id]);
		const token = { access_token, refresh_token, token_type: 'Bearer' as const, expires_in: 3600 };
		const result = await run(
			{
				resource: 'record',
				operation: 'getAll',
				document: byId(demo.docId),
				table: byId('Customers'),
				returnAll: true,
			},
			token,
		);
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.message).toBe('This app has no access to this document');
		expect(result.error?.description).toMatch(/outside the documents granted/);
	});
});

oauthServer.describe('pickers with an OAuth2 credential', () => {
	test('documents of a picked workspace come from the org listing (GET /workspaces/{id} is refused to OAuth)', async () => {
		const token = connect();
		emu.clearLog();
		const res = (await loadOptions({
			node: new Grist(),
			kind: 'listSearch',
			method: 'searchDocuments',
			parameters: {
				authentication: 'oAuth2',
				resource: 'document',
				operation: 'create',
				workspace: byId(String(demo.workspace2Id)),
			} as never,
			otherCredentials: oauth2Credential(fx.site, app, token),
		})) as { results: Array<{ name: string }> };
		expect(res.results.map((r) => r.name)).toEqual(['Tasks']);
		expect(paths()).toEqual([`GET /api/orgs/${demo.orgDomain}/workspaces 200`]);
	});

	test('organizations, workspaces and tables list with the token', async () => {
		const token = connect();
		const creds = oauth2Credential(fx.site, app, token);
		const list = async (method: string, parameters: IDataObject) =>
			(await loadOptions({
				node: new Grist(),
				kind: 'listSearch',
				method,
				parameters: { authentication: 'oAuth2', ...parameters } as never,
				otherCredentials: creds,
			})) as { results: Array<{ name: string }> };
		expect(
			(await list('searchOrgs', { resource: 'org', operation: 'get' })).results.length,
		).toBeGreaterThan(0);
		expect(
			(await list('searchWorkspaces', { resource: 'workspace', operation: 'get' })).results.length,
		).toBeGreaterThan(0);
		expect(
			(
				await list('searchTables', {
					resource: 'record',
					operation: 'getAll',
					document: byId(demo.docId),
				})
			).results.map((r) => r.name),
		).toContain('Customers');
	});
});

oauthServer.describe('Grist Trigger with an OAuth2 credential', () => {
	test('polls with the token and emits new rows; the /sql idle check (refused to OAuth) is never sent', async () => {
		const token = connect();
		const p = createPoller({
			node: new GristTrigger(),
			parameters: {
				authentication: 'oAuth2',
				document: byId(demo.docId),
				table: byId('Customers'),
				event: 'rowAdded',
			},
			otherCredentials: oauth2Credential(fx.site, app, token),
		});
		expect(await p.poll('trigger')).toBeNull();
		emu.addRecords(demo.docId, 'Customers', [{ Name: 'Fay OAuth' }]);
		emu.clearLog();
		const out = await p.poll('trigger');
		expect(out?.[0].map((i) => i.json.Name)).toEqual(['Fay OAuth']);
		expect(emu.log.filter((e) => e.apiPath.endsWith('/sql'))).toEqual([]);
		expect(emu.log.every((e) => e.status === 200)).toBe(true);
	});
});
