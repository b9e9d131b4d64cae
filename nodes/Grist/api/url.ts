/**
 * Pure URL helpers: the Server URL a user pastes, API paths built from encoded segments,
 * the org key the server can resolve, and the regexes of the pickers' By URL modes.
 */
import { InputError } from '../errors/gristAnswers';

export interface GristServer {
	/** `https://host` (scheme + host + port), no trailing slash. */
	origin: string;
	/** The team named by an `/o/<team>` prefix, if the URL had one. */
	orgInPath?: string;
	/** `origin` + `/o/<team>` when present: every API path is appended to this. */
	base: string;
	/** The host name, lower case, without port. */
	hostname: string;
}

const SAAS_DOMAIN = 'getgrist.com';

export const DEFAULT_SERVER_URL = 'https://docs.getgrist.com';

/** The Server URL field of this package's credentials: empty means the hosted personal site. */
export function credentialServerUrl(credentials: { url?: unknown }): string {
	const url = typeof credentials.url === 'string' ? credentials.url.trim() : '';
	return url || DEFAULT_SERVER_URL;
}

/**
 * Normalises whatever a user pastes as Server URL: strips a trailing `/` or `/api`, any document
 * or page path (`/<docId>/<slug>`, `/doc/<id>`, `/p/…`), query and hash; keeps `/o/<team>`.
 */
export function normalizeServerUrl(raw: unknown): GristServer {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (text === '') {
		throw new InputError(
			'The Server URL in the Grist credential is empty. Enter your site address, e.g. https://docs.getgrist.com',
			'Server URL',
		);
	}
	const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
	const url = parseUrl(withScheme);
	if (!url) {
		throw new InputError(
			`The Server URL "${text}" is not a valid URL. Use your site address, e.g. https://docs.getgrist.com, https://TEAM.getgrist.com or https://HOST/o/TEAM`,
			'Server URL',
		);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new InputError(
			`The Server URL must start with https:// (or http:// for a local server), not "${url.protocol}"`,
			'Server URL',
		);
	}
	if (url.username || url.password) {
		throw new InputError(
			'The Server URL must not contain a user name or password: put the API key in the API Key field',
			'Server URL',
		);
	}
	const origin = `${url.protocol}//${url.host}`.toLowerCase();
	const segments = url.pathname.split('/').filter((s) => s !== '');
	let orgInPath: string | undefined;
	if (segments[0] === 'o' && segments[1]) {
		orgInPath = decodeURIComponent(segments[1]);
	}
	const base = orgInPath ? `${origin}/o/${encodeURIComponent(orgInPath)}` : origin;
	return { origin, orgInPath, base, hostname: url.hostname.toLowerCase() };
}

/**
 * The org key to use for "this site": the `/o/<team>` domain, `current` where the host itself
 * names the site (getgrist.com personal or team sites), or undefined where the server cannot
 * resolve `current` (a self-hosted URL without `/o/<team>`): then the caller must use the org the
 * user picked or the only one there is.
 */
export function siteOrgKey(server: GristServer): string | undefined {
	if (server.orgInPath) return server.orgInPath;
	if (isSaasHost(server.hostname)) return 'current';
	return undefined;
}

export function isSaasHost(hostname: string): boolean {
	return hostname === SAAS_DOMAIN || hostname.endsWith(`.${SAAS_DOMAIN}`);
}

/** The team of a `https://<team>.getgrist.com` host (undefined for docs/api/www or other hosts). */
export function saasTeamFromHost(hostname: string): string | undefined {
	if (!hostname.endsWith(`.${SAAS_DOMAIN}`)) return undefined;
	const sub = hostname.slice(0, -(SAAS_DOMAIN.length + 1));
	if (sub.includes('.') || ['docs', 'www', 'api', 'login'].includes(sub)) return undefined;
	return sub;
}

/** What to do about an ID that cannot be a path segment. */
const PICK_ID = 'Pick the value from the list, or enter a valid ID.';

/**
 * Encodes one path segment. `/`, `?`, `#` and `%` are percent-encoded; `.` and `..` (also written
 * `%2e`) are rejected because URL parsers resolve them as dot segments, which would change the
 * endpoint. Empty values are rejected too.
 */
export function encodeSegment(value: string | number, label = 'value'): string {
	const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
	if (text === '') {
		throw new InputError(`The ${label} is empty`, label, PICK_ID);
	}
	if (/^(\.|%2e){1,2}$/i.test(text)) {
		throw new InputError(`The ${label} "${text}" is not valid`, label, PICK_ID);
	}
	return encodeURIComponent(text);
}

/** Builds `/api/<seg>/<seg>…` from literal parts (strings starting with `:` are not special). */
export function apiPath(
	...parts: Array<string | number | { value: string | number; label: string }>
): string {
	return (
		'/api/' +
		parts
			.map((p) => (typeof p === 'object' ? encodeSegment(p.value, p.label) : encodeSegment(p)))
			.join('/')
	);
}

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

/** Regex (as a string) that takes the document id out of a pasted Grist document URL. */
export const DOCUMENT_URL_REGEX =
	'^https?://[^/]+(?:/o/[^/]+)?(?:/doc)?/([A-Za-z0-9_-]{12,}(?:~[A-Za-z0-9_-]+){0,2})(?:[/?#].*)?$';

/**
 * Regex (as a string) that takes the team out of a pasted team-site URL:
 * `https://<team>.getgrist.com/…` or `https://<host>/o/<team>/…`.
 */
export const ORG_URL_REGEX =
	'^https?://(?:[^/?#]+/o/|(?!(?:docs|www|api|login)\\.)(?=[^/?#]+\\.getgrist\\.com(?:[:/?#]|$)))([A-Za-z0-9_-]+)(?:[.:/?#].*)?$';

/** Regex (as a string) that takes the workspace id out of a pasted workspace URL (`…/ws/17/`). */
export const WORKSPACE_URL_REGEX = '^https?://[^/?#]+(?:/o/[^/?#]+)?/ws/(\\d+)(?:[/?#].*)?$';
