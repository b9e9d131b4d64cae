/**
 * The credential test's base URL is an n8n expression (it runs before any node code), so it
 * re-states `normalizeServerUrl` in one line of JavaScript. These tests evaluate it with n8n's own
 * expression engine and keep the two in step.
 */
import { Expression } from 'n8n-workflow';

import { GristApi } from '../../credentials/GristApi.credentials';
import { normalizeServerUrl } from '../../nodes/Grist/helpers/url';

const expression = String(new GristApi().test.request.baseURL);
const testBase = (credentials: { serverUrl: unknown }) =>
	Expression.resolveWithoutWorkflow(expression.slice(1), { $credentials: credentials }) as string;

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
	])('matches the node\'s normalisation for %s', (raw) => {
		expect(testBase({ serverUrl: raw }).toLowerCase()).toBe(normalizeServerUrl(raw).base);
	});

	it.each(['ftp://grist.example.com', 'https://grist example.com', 'not a url', ''])(
		'points %p at a host whose name says the URL is invalid',
		(raw) => {
			expect(testBase({ serverUrl: raw })).toBe('https://the-server-url-is-not-a-valid-url.invalid');
			expect(() => normalizeServerUrl(raw)).toThrow();
		},
	);
});
