/**
 * What Grist lets an OAuth access token call (Grist's "OAuth apps": everything else is refused
 * with 403), as one table: the scope a request needs, or that no scope allows it. Used before
 * every request made with an OAuth2 credential, and for the message of a 403.
 */

export type OAuthRule =
	| { allowed: true; scopes: string[]; anyDocScope?: false }
	| { allowed: true; scopes: []; anyDocScope: true }
	| { allowed: false };

/** The scopes that count as "any document scope" (GET /api/orgs, GET /api/orgs/{org}/workspaces). */
export const DOC_SCOPES = [
	'doc:read',
	'doc:write',
	'doc.schema:write',
	'doc:download',
	'doc:webhooks',
];

interface Row {
	re: RegExp;
	/** Scopes by method; `*` for any other method. Absent method: refused. */
	scopes: Partial<Record<string, string[] | 'anyDoc'>>;
}

// Patterns of paths (regex literals: matching a path, not building one).
const RULES: Row[] = [
	{
		re: /^\/api\/docs\/[^/]+\/tables\/?$/,
		scopes: { GET: ['doc:read'], '*': ['doc.schema:write'] },
	},
	{
		re: /^\/api\/docs\/[^/]+\/tables\/[^/]+\/columns(?:\/[^/]+)?\/?$/,
		scopes: { GET: ['doc:read'], '*': ['doc.schema:write'] },
	},
	{
		re: /^\/api\/docs\/[^/]+\/tables\/[^/]+\/records(?:\/delete)?\/?$/,
		scopes: { GET: ['doc:read'], '*': ['doc:write'] },
	},
	{
		re: /^\/api\/docs\/[^/]+\/attachments(?:\/[^/]+(?:\/download)?)?\/?$/,
		scopes: { GET: ['doc:read'], '*': ['doc:write'] },
	},
	{ re: /^\/api\/docs\/[^/]+\/download\/[^/]+\/?$/, scopes: { GET: ['doc:read'] } },
	{ re: /^\/api\/docs\/[^/]+\/download\/?$/, scopes: { GET: ['doc:download'] } },
	{ re: /^\/api\/docs\/[^/]+\/webhooks(?:\/[^/]+)?\/?$/, scopes: { '*': ['doc:webhooks'] } },
	{ re: /^\/api\/orgs\/?$/, scopes: { GET: 'anyDoc' } },
	{ re: /^\/api\/orgs\/[^/]+\/workspaces\/?$/, scopes: { GET: 'anyDoc' } },
	{
		re: /^\/api\/workspaces\/[^/]+\/docs\/?$/,
		scopes: { POST: ['doc:write', 'doc.schema:write'] },
	},
	{ re: /^\/api\/profile\/user\/?$/, scopes: { GET: ['user.profile:read'] } },
];

/** The rule for a request (`path` as built by the API layer, with or without a query string). */
export function oauthRule(method: string, path: string): OAuthRule {
	const bare = path.split('?')[0];
	const m = method.toUpperCase();
	for (const row of RULES) {
		if (!row.re.test(bare)) continue;
		const scopes = row.scopes[m] ?? row.scopes['*'];
		if (scopes === undefined) return { allowed: false };
		if (scopes === 'anyDoc') return { allowed: true, scopes: [], anyDocScope: true };
		return { allowed: true, scopes };
	}
	return { allowed: false };
}

/** The scopes of a token answer (`scope`: space-separated); undefined when not stated. */
export function grantedScopes(scope: unknown): string[] | undefined {
	if (typeof scope !== 'string' || scope.trim() === '') return undefined;
	return scope.trim().split(/\s+/);
}

/** The scopes a request needs that the token lacks ([] when it has them all). */
export function missingScopes(rule: OAuthRule, granted: string[]): string[] {
	if (!rule.allowed) return [];
	if (rule.anyDocScope) return granted.some((s) => DOC_SCOPES.includes(s)) ? [] : ['doc:read'];
	return rule.scopes.filter((s) => !granted.includes(s));
}

/** Message of a request Grist refuses to every OAuth token. */
export function oauthRefusedMessage(
	method: string,
	path: string,
): { message: string; hint: string } {
	return {
		message: `Grist does not allow OAuth apps to call ${method.toUpperCase()} ${path.split('?')[0]}`,
		hint: 'An OAuth2 connection can only read and write records, tables, columns and attachments, list sites and workspaces, and create documents. Access management, workspace and document administration (describe, rename, move, delete), SQL and the column-oriented /data routes need an API key: set Authentication to API Key and use a Grist Records & Documents (Community Node) API credential.',
	};
}

/** Message of a request whose scope the connection was not granted. */
export function oauthScopeMessage(missing: string[]): { message: string; hint: string } {
	const list = missing.join(', ');
	return {
		message: `This OAuth2 connection lacks the Grist scope ${list}`,
		hint: `Add ${list} under Additional Scopes in the OAuth2 credential (and allow it in your OAuth app in Grist), then reconnect the credential. Or use an API key credential.`,
	};
}

/** The hint of a 403 answered to an OAuth token. */
export const OAUTH_FORBIDDEN_HINT =
	'Grist refused this OAuth2 token (403). The connection may lack a scope for this operation (add it under Additional Scopes and reconnect), the document may be outside the documents granted when connecting (reconnect and grant it), or your role in Grist does not allow it. Operations Grist refuses to OAuth apps need an API key credential.';
