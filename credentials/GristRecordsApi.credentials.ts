import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The Server URL rule of `normalizeServerUrl` as an n8n expression over a credential field (the
 * credential test and the OAuth2 endpoints run no node code): the stored address (empty means
 * https://docs.getgrist.com), `https://` added when there is no scheme, then the origin and an
 * optional `/o/<team>` right after it; null when the text is not an http(s) URL. `[0]` is the
 * base (origin + team), `[1]` the origin alone.
 */
export function serverUrlMatch(field: string): string {
	return `("" + (${field} || "https://docs.getgrist.com")).trim().replace(/^(?![a-z][a-z0-9+.-]*:\\/\\/)/i, "https://").match(/^(https?:\\/\\/[^\\/?#\\s]+)(\\/o\\/[^\\/?#\\s]+)?(?=[\\/?#]|$)(?=\\S*$)/i)`;
}

const SERVER_URL_MATCH = serverUrlMatch('$credentials.url');

/** Where the credential test "sends" a malformed Server URL: answered by axios itself, never sent. */
export const INVALID_URL_BASE = 'data:,invalid-server-url';

/** What the credential test says when the Server URL is malformed. */
export const INVALID_URL_MESSAGE =
	'The Server URL is not a valid Grist address. Enter your site address starting with https://, e.g. https://docs.getgrist.com, https://TEAM.getgrist.com or https://HOST/o/TEAM.';

/**
 * What the credential test says when the server answers 200 without a Grist site: any web server
 * that answers every path with a page (a company site, n8n's own editor address).
 */
export const NOT_GRIST_MESSAGE =
	'This server did not answer like Grist: it returned no Grist site for /api/orgs/current. Check the Server URL: use your Grist site address, e.g. https://docs.getgrist.com, https://TEAM.getgrist.com or https://HOST/o/TEAM, not the address of another web site (or of n8n itself).';

/** What the credential test says when Grist rejects the API key (401). */
export const KEY_MESSAGE =
	'Grist rejected the API key. Copy it again from Account settings → Developer → API Key in Grist and paste it into the API Key field.';

/**
 * What the credential test says when the Server URL names no site and the server needs one (a
 * self-hosted Grist without `/o/<team>`): every node operation that works in the site fails so.
 */
export const NO_TEAM_MESSAGE =
	'This Grist server needs the site in the Server URL (it answered "No organization chosen"): add /o/TEAM to the address, e.g. https://HOST/o/docs for your personal site or https://HOST/o/TEAM for a team site. Addresses on getgrist.com need no /o/: https://docs.getgrist.com, https://TEAM.getgrist.com.';

/** What the credential test says when the site the Server URL names does not exist. */
export const UNKNOWN_TEAM_MESSAGE =
	'Grist has no site by the name in the Server URL (it answered "organization not found"): check TEAM in https://HOST/o/TEAM or https://TEAM.getgrist.com (your personal site on a self-hosted server is /o/docs).';

/** What the credential test says when the key's user may not open the site (403). */
export const NO_ACCESS_MESSAGE =
	'The user of this API key is not a member of the site in the Server URL (Grist answered "access denied"): use a key of a member, have the site\'s owner add that user, or put the site the user belongs to in the Server URL.';

/** What the credential test says when Grist answers with another error for this Server URL. */
export const GRIST_REFUSED_MESSAGE =
	'Grist refused this Server URL. A team host with another team in /o/TEAM (https://TEAM.getgrist.com/o/OTHER) names two different team sites: keep only one of them. A self-hosted server that says "Domain not recognized" needs its public URL, APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG.';

/**
 * The first thing both credential forms say: which nodes use them, and which Grist credential is
 * n8n's own (its built-in Grist node's).
 */
export const credentialNotice: INodeProperties = {
	displayName:
		"For the Grist Records & Documents node and the Grist Trigger and Grist Instant Trigger (community package n8n-nodes-grist). n8n's built-in Grist node uses its own Grist API credential instead.",
	name: 'forNodes',
	type: 'notice',
	default: '',
};

/**
 * Grist API key + one Server URL. The URL accepts whatever a user pastes (a site URL, a team
 * site, `https://host/o/team`, with or without `/api`, even a document URL); nodes normalise it
 * with `normalizeServerUrl` (nodes/Grist/api/url.ts). The credential test uses the same rule,
 * written as an expression: keep the origin and an optional `/o/<team>` right after it.
 *
 * Its name is this package's own: n8n keys credential types by name across all packages, and
 * n8n-nodes-base already has `gristRecordsApi` and `gristOAuth2Api` (its built-in Grist node). A package
 * class of the same name would replace n8n's for the built-in node too.
 */
export class GristRecordsApi implements ICredentialType {
	name = 'gristRecordsApi';

	// n8n's Add Credential list shows the name alone, beside n8n's own "Grist API" and "Grist OAuth2
	// API" (its built-in Grist node's): the name says which node it is for.
	displayName = 'Grist Records & Documents (Community Node) API';

	icon = { light: 'file:../icons/grist.svg', dark: 'file:../icons/grist.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#credential-setup';

	properties: INodeProperties[] = [
		credentialNotice,
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Your Grist API key, from Account settings → Developer → API Key in Grist',
		},
		{
			displayName: 'Server URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'https://docs.getgrist.com',
			description:
				'Address of your Grist site: https://docs.getgrist.com (used when empty) for your personal site, https://TEAM.getgrist.com for a team site, or https://HOST/o/TEAM for a self-hosted server. A pasted document URL works too.',
		},
	];

	/**
	 * `Authorization: Bearer <API key>` on every request. A function, not n8n's generic form
	 * (`'=Bearer {{$credentials.apiKey}}'`): n8n 2.x evaluates a generic header's expression in
	 * its expression sandbox on every request (docs/PERFORMANCE.md has its cost). Same header,
	 * same value.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const apiKey = credentials.apiKey ?? '';
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(apiKey)}` },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{ (${SERVER_URL_MATCH} || ["${INVALID_URL_BASE}"])[0] }}`,
			// The site the Server URL names, as every node operation in it sees it: Grist refuses a
			// URL without a site where the server needs one, a site that does not exist and one the
			// key's user may not open; its answer has a shape a web page never has.
			url: '/api/orgs/current',
			// A Server URL that is not a valid http(s) URL goes to a `data:` URL with POST, which
			// axios answers itself with 405 and no body (no network, the key goes nowhere). A valid
			// URL gets the real `GET /api/orgs/current`.
			method: `={{ ${SERVER_URL_MATCH} ? "GET" : "POST" }}` as IHttpRequestMethods,
			// Every answer comes back as a body and the rules below judge it by its body. n8n 1.x
			// drops the HTTP error before checking `responseCode` rules (its NodeApiError keeps no
			// `cause`), so rules on status codes would say "Authorization failed" there; body rules
			// say the same on n8n 1.x and 2.x.
			ignoreHttpStatusErrors: true,
		},
		// n8n checks the rules in order on the answer's body, the first match wins:
		// `get(body, key) === value` (lodash get, so a key may be a path).
		rules: [
			{
				// No body at all: only the 405 that axios gives the data: URL (any server's answer has
				// one, an empty one is '').
				type: 'responseSuccessBody',
				properties: { key: 'constructor', value: undefined, message: INVALID_URL_MESSAGE },
			},
			{
				// Grist's 401 for a key it does not know, an empty one included.
				type: 'responseSuccessBody',
				properties: { key: 'error', value: 'Bad request: invalid API key', message: KEY_MESSAGE },
			},
			{
				// 400 on a server that needs a site in the URL (a self-hosted Grist without /o/TEAM).
				type: 'responseSuccessBody',
				properties: { key: 'error', value: 'No organization chosen', message: NO_TEAM_MESSAGE },
			},
			{
				// 404 for /o/TEAM or a TEAM host that names no site.
				type: 'responseSuccessBody',
				properties: {
					key: 'error',
					value: 'organization not found',
					message: UNKNOWN_TEAM_MESSAGE,
				},
			},
			{
				// 403 for a site the key's user is not a member of.
				type: 'responseSuccessBody',
				properties: { key: 'error', value: 'access denied', message: NO_ACCESS_MESSAGE },
			},
			{
				// Any other Grist error (`{"error": "<text>"}`): for this URL, 400 "Wrong org for this
				// domain" or 404 "Domain not recognized".
				type: 'responseSuccessBody',
				properties: {
					key: 'error.constructor.name',
					value: 'String',
					message: GRIST_REFUSED_MESSAGE,
				},
			},
			{
				// Grist's site object always has an `id` (0 for the personal site); an HTML page or
				// another JSON API does not.
				type: 'responseSuccessBody',
				properties: { key: 'id', value: undefined, message: NOT_GRIST_MESSAGE },
			},
		],
	};
}
