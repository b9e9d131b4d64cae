/**
 * The credential test's base URL is an n8n expression (it runs before any node code), so it
 * re-states `normalizeServerUrl` in one line of JavaScript. These tests evaluate it with n8n's own
 * expression engine and keep the two in step.
 */
import { Expression } from 'n8n-workflow';

import { GristApi, INVALID_URL_BASE } from '../../credentials/GristApi.credentials';
import { credentialServerUrl, normalizeServerUrl } from '../../nodes/Grist/helpers/url';

const expression = String(new GristApi().test.request.baseURL);
type Data = { url?: unknown; selfHostedUrl?: unknown; customSubdomain?: unknown };
const testBase = (credentials: Data) =>
	Expression.resolveWithoutWorkflow(expression.slice(1), { $credentials: credentials }) as string;
const testMethod = (credentials: Data) =>
	Expression.resolveWithoutWorkflow(String(new GristApi().test.request.method).slice(1), {
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

	it('has a 405 rule that says what to change', () => {
		const rule = new GristApi().test.rules?.find(
			(r) => r.type === 'responseCode' && r.properties.value === 405,
		);
		expect(rule?.properties.message).toMatch(
			/Server URL is not a valid Grist address.*https:\/\/docs\.getgrist\.com/,
		);
	});
});

describe("credentials made with n8n's built-in Grist node (same type name)", () => {
	it('has an empty, optional Server URL: a default would be filled into old credentials and hide their address', () => {
		const url = new GristApi().properties.find((p) => p.name === 'url');
		expect(url?.default).toBe('');
		expect(url?.required).not.toBe(true);
	});

	it('declares every field of the built-in credential, so n8n keeps their stored values', () => {
		const names = new GristApi().properties.map((p) => p.name);
		expect(names).toEqual(
			expect.arrayContaining(['apiKey', 'url', 'selfHostedUrl', 'customSubdomain']),
		);
		const hidden = new GristApi().properties.filter((p) => p.type === 'hidden').map((p) => p.name);
		expect(hidden.sort()).toEqual(['customSubdomain', 'selfHostedUrl']);
	});

	it.each<[Data, string]>([
		[
			{ selfHostedUrl: 'https://grist.example.com/o/team', url: '' },
			'https://grist.example.com/o/team',
		],
		[{ customSubdomain: 'myteam', url: '' }, 'https://myteam.getgrist.com'],
		[
			{ customSubdomain: 'myteam', selfHostedUrl: 'https://grist.example.com' },
			'https://grist.example.com',
		],
		[
			{ url: 'https://other.example.com', selfHostedUrl: 'https://grist.example.com' },
			'https://other.example.com',
		],
		[{ url: '' }, 'https://docs.getgrist.com'],
		[{}, 'https://docs.getgrist.com'],
	])('reads the server of %p like the built-in node does', (data, expected) => {
		expect(credentialServerUrl(data)).toBe(expected);
		expect(testBase(data)).toBe(normalizeServerUrl(credentialServerUrl(data)).base);
	});
});
