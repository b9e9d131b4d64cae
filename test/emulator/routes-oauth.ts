/**
 * Grist's OAuth server ("OAuth apps", reference §10), played by the emulator: discovery, an
 * authorization endpoint that consents at once (test hooks deny, or grant only some documents),
 * a token endpoint (authorization code with PKCE S256 and a confidential client; refresh with
 * rotation), access tokens that expire, and the table of endpoints and scopes an access token
 * may use (403 otherwise). The OAuth server is not in grist-core: what the reference does not
 * say is guessed (listed in index.ts's header).
 *
 * Not a `Route[]` of routes.ts: the token endpoint takes a form body and HTTP Basic client
 * authentication, so index.ts hands these paths here before its JSON body parsing and API-key
 * authentication (`OAuthServer.handle`), and asks `OAuthServer.authenticate` for `grist_at_`
 * tokens.
 */
import { createHash, randomBytes } from 'node:crypto';

import { ApiError } from './http';

export const OAUTH_SCOPES = [
	'doc:read',
	'doc:write',
	'doc.schema:write',
	'doc:download',
	'doc:webhooks',
	'user.profile:read',
	'offline_access',
];

export interface OAuthApp {
	clientId: string;
	clientSecret: string;
	redirectUris: string[];
	/** Scopes the app may request. */
	scopes: string[];
}

export interface OAuthGrant {
	userId: number;
	clientId: string;
	scopes: string[];
	/** Documents granted (ids); undefined: all documents. */
	docs?: string[];
}

export interface OAuthTokenAnswer {
	access_token: string;
	token_type: 'Bearer';
	expires_in: number;
	refresh_token?: string;
	scope: string;
}

/** One request to /oidc/token, for tests (no secrets). */
export interface TokenRequestLog {
	grantType: string;
	status: number;
	error?: string;
}

interface Code {
	grant: OAuthGrant;
	redirectUri: string;
	challenge: string;
	expiresAt: number;
}

interface Token {
	grant: OAuthGrant;
	expiresAt: number;
}

export interface OAuthAnswer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

const b64url = (buf: Buffer) =>
	buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const SEG = '[^/?#]+';
const DOC_SCOPES = ['doc:read', 'doc:write', 'doc.schema:write', 'doc:download', 'doc:webhooks'];

/** [path pattern, scopes by method ('*': other methods; 'anyDoc': any document scope)]. */
const TABLE: Array<[RegExp, Record<string, string[] | 'anyDoc'>]> = [
	[new RegExp(`^/api/docs/(${SEG})/tables/?$`), { GET: ['doc:read'], '*': ['doc.schema:write'] }],
	[
		new RegExp(`^/api/docs/(${SEG})/tables/${SEG}/columns(?:/${SEG})?/?$`),
		{ GET: ['doc:read'], '*': ['doc.schema:write'] },
	],
	[
		new RegExp(`^/api/docs/(${SEG})/tables/${SEG}/records(?:/delete)?/?$`),
		{ GET: ['doc:read'], '*': ['doc:write'] },
	],
	[
		new RegExp(`^/api/docs/(${SEG})/attachments(?:/${SEG}(?:/download)?)?/?$`),
		{ GET: ['doc:read'], '*': ['doc:write'] },
	],
	[new RegExp(`^/api/docs/(${SEG})/download/${SEG}/?$`), { GET: ['doc:read'] }],
	[new RegExp(`^/api/docs/(${SEG})/download/?$`), { GET: ['doc:download'] }],
	[new RegExp(`^/api/docs/(${SEG})/webhooks(?:/${SEG})?/?$`), { '*': ['doc:webhooks'] }],
	[/^\/api\/orgs\/?$/, { GET: 'anyDoc' }],
	[new RegExp(`^/api/orgs/${SEG}/workspaces/?$`), { GET: 'anyDoc' }],
	[new RegExp(`^/api/workspaces/${SEG}/docs/?$`), { POST: ['doc:write', 'doc.schema:write'] }],
	[/^\/api\/profile\/user\/?$/, { GET: ['user.profile:read'] }],
];

export class OAuthServer {
	/** Access token lifetime in seconds (Grist: 1 hour); tests shorten it. */
	accessTokenTtl = 3600;
	/** Refresh token lifetime in seconds (Grist: 60 days). */
	refreshTokenTtl = 60 * 86400;
	/** What the consent screen answers: `deny` redirects with `error=access_denied`. */
	consent: 'allow' | 'deny' = 'allow';
	/** Documents the user grants at consent (ids); undefined: "All documents". */
	grantDocs: string[] | undefined;
	/** The user who consents; default: the first real user (the demo owner). */
	consentUserId: number | undefined;
	readonly tokenRequests: TokenRequestLog[] = [];
	private readonly apps = new Map<string, OAuthApp>();
	private readonly codes = new Map<string, Code>();
	private readonly access = new Map<string, Token>();
	private readonly refresh = new Map<string, Token>();

	constructor(
		private readonly now: () => number,
		private readonly defaultUser: () => number | undefined,
	) {}

	/** Registers an OAuth app (Account settings → Developer → OAuth apps → Register app). */
	registerApp(app: Partial<OAuthApp> & { redirectUris: string[] }): OAuthApp {
		const full: OAuthApp = {
			clientId: app.clientId ?? `grist_client_${randomBytes(8).toString('hex')}`,
			clientSecret: app.clientSecret ?? `grist_secret_${randomBytes(16).toString('hex')}`,
			redirectUris: app.redirectUris,
			scopes: app.scopes ?? OAUTH_SCOPES,
		};
		this.apps.set(full.clientId, full);
		return full;
	}

	/** Issues tokens directly (as after a consent), for tests that skip the browser flow. */
	issue(grant: OAuthGrant): OAuthTokenAnswer {
		return this.tokens(grant);
	}

	/** Makes every access token expired (the next API call with one gets 401). */
	expireAccessTokens(): void {
		for (const t of this.access.values()) t.expiresAt = 0;
	}

	/** The grant behind an access token; 401 when unknown or expired. */
	authenticate(token: string): OAuthGrant {
		const t = this.access.get(token);
		if (!t) throw new ApiError(401, 'Bad request: invalid access token');
		if (t.expiresAt <= this.now()) throw new ApiError(401, 'Bad request: access token expired');
		return t.grant;
	}

	/** Whether Grist lets this grant call `method apiPath`; throws 403 otherwise. */
	checkRequest(grant: OAuthGrant, method: string, apiPath: string): void {
		for (const [re, byMethod] of TABLE) {
			const m = apiPath.match(re);
			if (!m) continue;
			const needed = byMethod[method] ?? byMethod['*'];
			if (needed === undefined) break;
			if (needed === 'anyDoc') {
				if (!grant.scopes.some((s) => DOC_SCOPES.includes(s)))
					throw new ApiError(403, 'Insufficient scope: needs a document scope');
				return;
			}
			const missing = needed.filter((s) => !grant.scopes.includes(s));
			if (missing.length > 0)
				throw new ApiError(403, `Insufficient scope: needs ${missing.join(' ')}`);
			const docId = m[1] ? decodeURIComponent(m[1]) : undefined;
			if (docId !== undefined && grant.docs && !grant.docs.includes(docId))
				throw new ApiError(403, 'This app has no access to this document');
			return;
		}
		throw new ApiError(403, 'This endpoint is not available to OAuth apps');
	}

	/** Answers the OAuth server's own paths; undefined for any other path. */
	handle(req: {
		method: string;
		path: string;
		query: Record<string, string>;
		authorization: string | undefined;
		contentType: string;
		body: Buffer | undefined;
		origin: string;
	}): OAuthAnswer | undefined {
		if (req.path === '/.well-known/oauth-authorization-server' && req.method === 'GET')
			return json(200, this.discovery(req.origin));
		if (req.path === '/oidc/auth' && req.method === 'GET') return this.authorize(req.query);
		if (req.path === '/oidc/token' && req.method === 'POST') {
			const params = new URLSearchParams(req.body?.toString('utf8') ?? '');
			const grantType = params.get('grant_type') ?? '';
			const answer = this.token(params, req.authorization);
			const error =
				answer.status === 200 ? undefined : (JSON.parse(answer.body) as { error: string });
			this.tokenRequests.push({ grantType, status: answer.status, error: error?.error });
			return answer;
		}
		return undefined;
	}

	private discovery(origin: string) {
		return {
			issuer: origin,
			authorization_endpoint: `${origin}/oidc/auth`,
			token_endpoint: `${origin}/oidc/token`,
			revocation_endpoint: `${origin}/oidc/token/revocation`,
			response_types_supported: ['code'],
			grant_types_supported: ['authorization_code', 'refresh_token'],
			code_challenge_methods_supported: ['S256'],
			token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
			scopes_supported: OAUTH_SCOPES,
		};
	}

	private authorize(q: Record<string, string>): OAuthAnswer {
		const app = this.apps.get(q.client_id ?? '');
		if (!app) return json(400, { error: 'invalid_client', error_description: 'unknown client' });
		const redirectUri = q.redirect_uri ?? '';
		if (!app.redirectUris.includes(redirectUri))
			return json(400, {
				error: 'invalid_request',
				error_description: 'redirect_uri does not match a registered redirect URI',
			});
		const back = (params: Record<string, string>) => {
			const url = new URL(redirectUri);
			for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
			if (q.state !== undefined) url.searchParams.set('state', q.state);
			return { status: 302, headers: { Location: url.toString() }, body: '' };
		};
		if (q.response_type !== 'code')
			return back({ error: 'unsupported_response_type', error_description: 'code only' });
		if (!q.code_challenge || q.code_challenge_method !== 'S256')
			return back({ error: 'invalid_request', error_description: 'PKCE (S256) is required' });
		let scopes = (q.scope ?? '').split(/[\s,]+/).filter(Boolean);
		const unknown = scopes.filter((s) => !app.scopes.includes(s));
		if (unknown.length > 0)
			return back({
				error: 'invalid_scope',
				error_description: `not allowed: ${unknown.join(' ')}`,
			});
		// offline_access needs the consent prompt, else it is dropped (reference §10)
		if (q.prompt !== 'consent') scopes = scopes.filter((s) => s !== 'offline_access');
		if (this.consent === 'deny')
			return back({ error: 'access_denied', error_description: 'The user denied access' });
		const userId = this.consentUserId ?? this.defaultUser();
		if (userId === undefined) return json(500, { error: 'server_error' });
		const code = `grist_code_${randomBytes(16).toString('hex')}`;
		this.codes.set(code, {
			grant: { userId, clientId: app.clientId, scopes, docs: this.grantDocs },
			redirectUri,
			challenge: q.code_challenge,
			expiresAt: this.now() + 60_000,
		});
		return back({ code });
	}

	private token(params: URLSearchParams, authorization: string | undefined): OAuthAnswer {
		let clientId = params.get('client_id') ?? '';
		let secret = params.get('client_secret') ?? '';
		const basic = authorization?.match(/^\s*Basic\s+(\S+)/i);
		if (basic) {
			const [id, ...rest] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
			clientId = decodeURIComponent(id);
			secret = decodeURIComponent(rest.join(':'));
		}
		const app = this.apps.get(clientId);
		if (!app || secret === '' || secret !== app.clientSecret)
			return json(401, {
				error: 'invalid_client',
				error_description: 'client authentication failed',
			});
		const grantType = params.get('grant_type');
		if (grantType === 'authorization_code') {
			const code = this.codes.get(params.get('code') ?? '');
			this.codes.delete(params.get('code') ?? '');
			if (!code || code.expiresAt <= this.now() || code.grant.clientId !== app.clientId)
				return json(400, { error: 'invalid_grant', error_description: 'invalid code' });
			if (params.get('redirect_uri') !== code.redirectUri)
				return json(400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
			const verifier = params.get('code_verifier') ?? '';
			if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge)
				return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
			return json(200, this.tokens(code.grant));
		}
		if (grantType === 'refresh_token') {
			const key = params.get('refresh_token') ?? '';
			const t = this.refresh.get(key);
			if (!t || t.expiresAt <= this.now() || t.grant.clientId !== app.clientId)
				return json(400, { error: 'invalid_grant', error_description: 'invalid refresh token' });
			this.refresh.delete(key); // rotation: the old refresh token is spent
			return json(200, this.tokens(t.grant));
		}
		return json(400, { error: 'unsupported_grant_type' });
	}

	private tokens(grant: OAuthGrant): OAuthTokenAnswer {
		const access = `grist_at_${randomBytes(20).toString('hex')}`;
		this.access.set(access, { grant, expiresAt: this.now() + this.accessTokenTtl * 1000 });
		const answer: OAuthTokenAnswer = {
			access_token: access,
			token_type: 'Bearer',
			expires_in: this.accessTokenTtl,
			scope: grant.scopes.join(' '),
		};
		if (grant.scopes.includes('offline_access')) {
			const refresh = `grist_rt_${randomBytes(20).toString('hex')}`;
			this.refresh.set(refresh, { grant, expiresAt: this.now() + this.refreshTokenTtl * 1000 });
			answer.refresh_token = refresh;
		}
		return answer;
	}
}

function json(status: number, body: unknown): OAuthAnswer {
	return {
		status,
		headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
		body: JSON.stringify(body),
	};
}
