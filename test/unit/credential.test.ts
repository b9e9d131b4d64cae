/**
 * The credential test's base URL is an n8n expression (it runs before any node code), so it
 * re-states `normalizeServerUrl` in one line of JavaScript. These tests evaluate it with n8n's own
 * expression engine and keep the two in step.
 */
import { Expression } from 'n8n-workflow';

import { GristRecordsOAuth2Api } from '../../credentials/GristRecordsOAuth2Api.credentials';
import { GristRecordsApi, INVALID_URL_BASE } from '../../credentials/GristRecordsApi.credentials';
import { credentialServerUrl, normalizeServerUrl } from '../../nodes/Grist/api/url';

const expression = String(new GristRecordsApi().test.request.baseURL);
type Data = { url?: unknown };
const testBase = (credentials: Data) =>
	Expression.resolveWithoutWorkflow(expression.slice(1), { $credentials: credentials }) as string;
const testMethod = (credentials: Data) =>
	Expression.resolveWithoutWorkflow(String(new GristRecordsApi().test.request.method).slice(1), {
		$credentials: credentials,
	}) as string;

describe('credential test base URL', () => {
	it('is an expression', () => {
		expect(expression).toMatch(/^=\{\{[\s\S]*\}\}$/);
	});

	it.each([
		'https://docs.getgrist.com',
		'https://docs.getgrist.com/',
		'https://docs.getgrist.com/api',
		'docs.getgrist.com',
		'https://myteam.getgrist.com/sRBrWDUPnUVJXc1c2Yz6wQ/Budget/p/2',
		'https://grist.example.com/o/docs',
		'https://grist.example.com/o/docs/api/',
		'https://grist.example.com/o/docs/doc/sRBrWDUPnUVJ?x=1#a',
		'http://127.0.0.1:8484',
		'  https://grist.example.com:8443/o/team/  ',
	])("matches the node's normalisation for %s, with GET", (raw) => {
		expect(testBase({ url: raw }).toLowerCase()).toBe(normalizeServerUrl(raw).base);
		expect(testMethod({ url: raw })).toBe('GET');
	});

	it.each(['ftp://grist.example.com', 'https://grist example.com', 'not a url'])(
		'sends %p nowhere: POST to a data: URL, which axios answers with 405',
		(raw) => {
			expect(testBase({ url: raw })).toBe(INVALID_URL_BASE);
			expect(testMethod({ url: raw })).toBe('POST');
			expect(() => normalizeServerUrl(raw)).toThrow();
		},
	);

	it('judges every answer by its body (n8n 1.x checks no status-code rule), a missing body first', () => {
		const { request, rules } = new GristRecordsApi().test;
		expect(request.ignoreHttpStatusErrors).toBe(true);
		expect(rules?.map((r) => r.type)).toEqual(Array(7).fill('responseSuccessBody'));
		expect(rules?.[0].properties).toMatchObject({ key: 'constructor', value: undefined });
		expect(rules?.[0].properties.message).toMatch(
			/Server URL is not a valid Grist address.*https:\/\/docs\.getgrist\.com/,
		);
	});
});

describe('credential names and fields', () => {
	it('has a name and display name of its own (n8n-nodes-base has gristApi and gristOAuth2Api)', () => {
		const credential = new GristRecordsApi();
		expect(credential.name).toBe('gristRecordsApi');
		expect(['gristApi', 'gristOAuth2Api']).not.toContain(credential.name);
		expect(credential.displayName).not.toBe('Grist API');
	});

	// n8n's Add Credential list shows names alone: "Grist API" and "Grist OAuth2 API" (n8n's
	// built-in node's) beside ours, which name the node they serve
	it('display names name the node they are for; the forms say which nodes use them', () => {
		expect(new GristRecordsApi().displayName).toBe(
			'Grist Records & Documents (Community Node) API',
		);
		expect(new GristRecordsOAuth2Api().displayName).toBe(
			'Grist Records & Documents (Community Node) OAuth2 API',
		);
		for (const credential of [new GristRecordsApi(), new GristRecordsOAuth2Api()]) {
			const first = credential.properties[0];
			expect(first.type).toBe('notice');
			expect(first.displayName).toContain('Grist Records & Documents node');
			expect(first.displayName).toContain("n8n's built-in Grist node uses its own Grist API");
		}
	});

	it('has only the API key and the Server URL (no legacy fields of the built-in credential)', () => {
		expect(
			new GristRecordsApi().properties.filter((p) => p.type !== 'notice').map((p) => p.name),
		).toEqual(['apiKey', 'url']);
	});

	it.each<[Data, string]>([
		[{ url: ' https://grist.example.com/o/team ' }, 'https://grist.example.com/o/team'],
		[{ url: '' }, 'https://docs.getgrist.com'],
		[{}, 'https://docs.getgrist.com'],
	])('reads the server of %p', (data, expected) => {
		expect(credentialServerUrl(data)).toBe(expected);
		expect(testBase(data)).toBe(normalizeServerUrl(credentialServerUrl(data)).base);
	});
});

describe('authentication header', () => {
	const authenticate = new GristRecordsApi().authenticate.bind(new GristRecordsApi());

	it('adds Authorization: Bearer <key> to the request, keeping its other headers', async () => {
		const request = { url: '/api/orgs', headers: { Accept: 'application/json' } };
		const out = await authenticate({ apiKey: 'k-123' }, request);
		expect(out).toEqual({
			url: '/api/orgs',
			headers: { Accept: 'application/json', Authorization: 'Bearer k-123' },
		});
		// n8n's request object is left as it was
		expect(request.headers).toEqual({ Accept: 'application/json' });
	});

	it('sends the key as it is stored, as the generic expression did (no key: "Bearer ")', async () => {
		expect((await authenticate({ apiKey: ' k ' }, { url: '/' })).headers).toEqual({
			Authorization: 'Bearer  k ',
		});
		expect((await authenticate({}, { url: '/' })).headers).toEqual({ Authorization: 'Bearer ' });
	});
});
