/**
 * What an OAuth token may call (api/oauthScope.ts) and the OAuth2 credential's derived fields:
 * endpoints on the Server URL's origin, default scopes, the additional scopes, prompt=consent.
 */
import { Expression } from 'n8n-workflow';

import { GristRecordsOAuth2Api } from '../../credentials/GristRecordsOAuth2Api.credentials';
import {
	grantedScopes,
	missingScopes,
	oauthRefusedMessage,
	oauthRule,
} from '../../nodes/Grist/api/oauthScope';

describe('oauthRule: the endpoints Grist lets an OAuth token call', () => {
	it.each([
		['GET', '/api/docs/d1/tables', ['doc:read']],
		['POST', '/api/docs/d1/tables', ['doc.schema:write']],
		['GET', '/api/docs/d1/tables/T/columns', ['doc:read']],
		['PUT', '/api/docs/d1/tables/T/columns', ['doc.schema:write']],
		['DELETE', '/api/docs/d1/tables/T/columns/A', ['doc.schema:write']],
		['GET', '/api/docs/d1/tables/T/records?limit=2', ['doc:read']],
		['POST', '/api/docs/d1/tables/T/records', ['doc:write']],
		['PATCH', '/api/docs/d1/tables/T/records', ['doc:write']],
		['PUT', '/api/docs/d1/tables/T/records', ['doc:write']],
		['POST', '/api/docs/d1/tables/T/records/delete', ['doc:write']],
		['GET', '/api/docs/d1/attachments', ['doc:read']],
		['GET', '/api/docs/d1/attachments/5/download', ['doc:read']],
		['POST', '/api/docs/d1/attachments', ['doc:write']],
		['GET', '/api/docs/d1/download/xlsx', ['doc:read']],
		['GET', '/api/docs/d1/download', ['doc:download']],
		['POST', '/api/docs/d1/webhooks', ['doc:webhooks']],
		['POST', '/api/workspaces/3/docs', ['doc:write', 'doc.schema:write']],
		['GET', '/api/profile/user', ['user.profile:read']],
	])('%s %s needs %p', (method, path, scopes) => {
		expect(oauthRule(method, path)).toEqual({ allowed: true, scopes });
	});

	it.each([
		['GET', '/api/orgs'],
		['GET', '/api/orgs/demo/workspaces'],
	])('%s %s needs any document scope', (method, path) => {
		const rule = oauthRule(method, path);
		expect(rule).toEqual({ allowed: true, scopes: [], anyDocScope: true });
		expect(missingScopes(rule, ['doc:read'])).toEqual([]);
		expect(missingScopes(rule, ['offline_access'])).toEqual(['doc:read']);
	});

	it.each([
		['GET', '/api/orgs/demo'],
		['PATCH', '/api/orgs/demo'],
		['GET', '/api/orgs/demo/access'],
		['GET', '/api/workspaces/3'],
		['DELETE', '/api/workspaces/3'],
		['GET', '/api/docs/d1'],
		['PATCH', '/api/docs/d1/move'],
		['DELETE', '/api/docs/d1'],
		['PATCH', '/api/docs/d1/access'],
		['POST', '/api/docs/d1/sql'],
		['GET', '/api/docs/d1/sql'],
		['POST', '/api/docs/d1/apply'],
		['GET', '/api/docs/d1/tables/T/data'],
		['POST', '/api/docs/d1/tables/T/data/delete'],
		['POST', '/api/orgs'],
	])('%s %s is refused to every OAuth token', (method, path) => {
		expect(oauthRule(method, path)).toEqual({ allowed: false });
	});

	it('names the missing scopes, and the refusal says to use an API key', () => {
		expect(missingScopes(oauthRule('POST', '/api/workspaces/3/docs'), ['doc:write'])).toEqual([
			'doc.schema:write',
		]);
		expect(grantedScopes('offline_access  doc:read ')).toEqual(['offline_access', 'doc:read']);
		expect(grantedScopes(undefined)).toBeUndefined();
		const refused = oauthRefusedMessage('post', '/api/docs/d1/sql?x=1');
		expect(refused.message).toBe('Grist does not allow OAuth apps to call POST /api/docs/d1/sql');
		expect(refused.hint).toMatch(/API key/);
	});
});

describe('the OAuth2 credential', () => {
	const credential = new GristRecordsOAuth2Api();
	const field = (name: string) => credential.properties.find((p) => p.name === name)!;
	const resolve = (name: string, self: Record<string, unknown>) =>
		Expression.resolveWithoutWorkflow(String(field(name).default).slice(1), { $self: self });

	it('has names of its own, with OAuth2 in them, and extends oAuth2Api with PKCE', () => {
		expect(credential.name).toBe('gristRecordsOAuth2Api');
		expect(credential.name).not.toBe('gristOAuth2Api');
		expect(credential.displayName).toContain('OAuth2');
		expect(credential.extends).toEqual(['oAuth2Api']);
		expect(field('grantType').default).toBe('pkce');
		expect(field('authQueryParameters').default).toBe('prompt=consent');
		expect(field('authentication').default).toBe('header');
	});

	it.each([
		['', 'https://docs.getgrist.com'],
		['https://myteam.getgrist.com/doc123456789012/x', 'https://myteam.getgrist.com'],
		['grist.example.com/o/team/api', 'https://grist.example.com'],
		['http://127.0.0.1:8484/o/demo', 'http://127.0.0.1:8484'],
	])('Server URL %p: endpoints on %s', (url, origin) => {
		expect(resolve('authUrl', { url })).toBe(`${origin}/oidc/auth`);
		expect(resolve('accessTokenUrl', { url })).toBe(`${origin}/oidc/token`);
	});

	it('requests offline_access doc:read doc:write, plus the additional scopes', () => {
		expect(resolve('scope', { additionalScopes: [] })).toBe('offline_access doc:read doc:write');
		expect(resolve('scope', { additionalScopes: ['doc.schema:write', 'doc:webhooks'] })).toBe(
			'offline_access doc:read doc:write doc.schema:write doc:webhooks',
		);
	});
});
