/**
 * Pure helpers that turn a Grist error answer into a message and a hint that says what to do,
 * and the one error type of bad input found before any request. The API key is never part of
 * any of these texts.
 */

/**
 * Input the node cannot use, found before any request: the message, the field it is about (as
 * the user sees it: `Filters`, `Columns (column 2): Type`) and what to do. errors/nodeErrors.ts
 * turns it into a NodeOperationError with the hint as description.
 */
export class InputError extends Error {
	constructor(
		message: string,
		readonly field?: string,
		readonly hint?: string,
	) {
		super(message);
	}
}

/** Runs `fn`, returning its value or the error it threw (so callers throw outside a catch). */
export function attempt<T>(fn: () => T): { value: T; error?: undefined } | { error: Error } {
	try {
		return { value: fn() };
	} catch (error) {
		return { error: error as Error };
	}
}

export interface GristErrorBody {
	error?: string;
	details?: {
		userError?: string;
		limit?: unknown;
		tips?: unknown;
		memos?: string[];
		code?: string;
	};
}

/** The request that failed: its method and its API path (`/api/docs/abc/tables/T/records`). */
export interface FailedRequest {
	method?: string;
	path?: string;
}

export type GristObjectKind =
	| 'organization'
	| 'workspace'
	| 'document'
	| 'table'
	| 'column'
	| 'row'
	| 'attachment'
	| 'webhook';

/** The objects a request path names, by kind, with their IDs decoded (`/api/docs/a%3Fb` → document `a?b`). */
export type PathObjects = Partial<Record<GristObjectKind, string>>;

/** Path segments that introduce an object ID, and sub-routes that are not IDs. */
const COLLECTIONS: Record<string, { kind: GristObjectKind; literals?: string[] }> = {
	orgs: { kind: 'organization' },
	workspaces: { kind: 'workspace' },
	docs: { kind: 'document' },
	tables: { kind: 'table' },
	columns: { kind: 'column' },
	attachments: {
		kind: 'attachment',
		literals: [
			'archive',
			'removeUnused',
			'store',
			'stores',
			'transferAll',
			'transferStatus',
			'updateFromArchive',
		],
	},
	webhooks: { kind: 'webhook', literals: ['queue'] },
};

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/**
 * The objects named by an API path: `/api/docs/abc/tables/Items/records` → `{ document: 'abc',
 * table: 'Items' }`. A `/o/<team>` prefix before `/api` is skipped; a query string is ignored.
 */
export function pathObjects(path: string | undefined): PathObjects {
	const out: PathObjects = {};
	if (!path) return out;
	const segments = path
		.split(/[?#]/)[0]
		.split('/')
		.filter((s) => s !== '');
	const start = segments.indexOf('api');
	for (let i = start + 1; i < segments.length; i++) {
		const collection = COLLECTIONS[segments[i]];
		const next = segments[i + 1];
		if (!collection || next === undefined || collection.literals?.includes(next)) continue;
		out[collection.kind] = decodeSegment(next);
		i++;
	}
	return out;
}

const WORDS: Record<GristObjectKind, string> = {
	organization: 'organization',
	workspace: 'workspace',
	document: 'document',
	table: 'table',
	column: 'column',
	row: 'row',
	attachment: 'attachment',
	webhook: 'webhook',
};

/** `document "abc"`, `workspace 12`; the bare word when the ID is unknown. */
function named(kind: GristObjectKind, id: string | undefined): string {
	if (id === undefined) return `the ${WORDS[kind]}`;
	return /^\d+$/.test(id) ? `${WORDS[kind]} ${id}` : `${WORDS[kind]} "${id}"`;
}

function capitalize(s: string): string {
	return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A note for an ID with characters Grist IDs never have (a name, a URL or a path pasted as ID). */
function oddIdNote(kind: GristObjectKind, id: string | undefined): string {
	if (id === undefined || /^[A-Za-z0-9_-]+$/.test(id)) return '';
	const what = kind === 'document' ? 'A document ID' : `A ${WORDS[kind]} ID`;
	const paste = kind === 'document' ? ' (or paste the whole document URL)' : '';
	return ` ${what} has only letters, digits, - and _: "${id}" looks like a name, a URL or a path. Pick it from the list or enter its ID${paste}.`;
}

/** What the message of a 404 says is missing, with the name Grist gives (if any). */
function missingFromMessage(
	message: string,
):
	| { kind: GristObjectKind | 'tableOrColumn' | 'route'; name?: string; name2?: string }
	| undefined {
	let m: RegExpExecArray | null;
	if (/organization not found/i.test(message)) return { kind: 'organization' };
	if (/workspace not found/i.test(message)) return { kind: 'workspace' };
	if (/document not found|document is deleted/i.test(message)) return { kind: 'document' };
	if ((m = /Table or column not found "([^"]*?)\.([^"]*)"/i.exec(message)))
		return { kind: 'tableOrColumn', name: m[1], name2: m[2] };
	if (
		(m = /Table not found "([^"]*)"/i.exec(message) ?? /Table (.+?) not found\.?$/i.exec(message))
	)
		return { kind: 'table', name: m[1] };
	if ((m = /Column not found "([^"]*)"/i.exec(message))) return { kind: 'column', name: m[1] };
	if ((m = /Attachment not found:?\s*(\S+)/i.exec(message)))
		return { kind: 'attachment', name: m[1] };
	if ((m = /Webhook not found "([^"]*)"/i.exec(message))) return { kind: 'webhook', name: m[1] };
	if (/^not found: \//i.test(message)) return { kind: 'route' };
	return undefined;
}

const FIND_HINT: Record<GristObjectKind, string> = {
	organization:
		'Check the organization (the Organization field lists the ones the key can see) and the Server URL.',
	workspace:
		'Check the workspace ID (the Workspace field lists them) and that it is on the team site of the Server URL.',
	document:
		'Check the document ID (the Document field lists them, or paste the document URL) and that the Server URL is the team site the document is on.',
	table:
		'Check the table ID (not its label); the Table field lists the tables in "From list" mode.',
	column: 'Check the column ID (not its label); the Column resource lists them.',
	row: 'Read the records first to get valid row IDs.',
	attachment: 'Check the attachment ID; Get Many attachments lists them.',
	webhook: "Check the webhook ID; the document's webhooks list them.",
};

/** The deepest object a path names: a row is never in a path, so it is not among them. */
const DEPTH: GristObjectKind[] = [
	'column',
	'attachment',
	'webhook',
	'table',
	'document',
	'workspace',
	'organization',
];

/** The hint of a 404: names what was missing, from Grist's message and the request path. */
export function notFoundHint(message: string, request: FailedRequest = {}): string {
	const objects = pathObjects(request.path);
	const inDoc = objects.document !== undefined ? ` in ${named('document', objects.document)}` : '';
	const missing = missingFromMessage(message);
	if (missing?.kind === 'route') {
		const odd = DEPTH.map((k) => oddIdNote(k, objects[k])).find((n) => n !== '') ?? '';
		return `This Grist server has no such endpoint (${request.method ?? 'request'} ${request.path ?? ''}): it may be an older Grist version, or a proxy in front of it changes the path. Check the Server URL.${odd}`;
	}
	if (missing?.kind === 'tableOrColumn') {
		return `Table "${missing.name}" or its column "${missing.name2}" was not found${inDoc}. Check both IDs (not labels); the Table field and the Column resource list them.`;
	}
	if (missing) {
		const kind = missing.kind;
		const id = missing.name ?? objects[kind];
		const where =
			kind === 'column' && objects.table !== undefined
				? ` in ${named('table', objects.table)}`
				: kind === 'table' || kind === 'attachment' || kind === 'webhook'
					? inDoc
					: '';
		let subject = named(kind, id);
		// "workspace not found" for a move names the destination, which is in the body, not the path.
		if (kind === 'workspace' && id === undefined && /\/move$/.test(request.path ?? ''))
			subject = 'the Destination Workspace';
		return `${capitalize(subject)} was not found${where}, or the user of this API key cannot see it. ${FIND_HINT[kind]}${oddIdNote(kind, id)}`;
	}
	const deepest = DEPTH.find((k) => objects[k] !== undefined);
	if (!deepest)
		return 'Grist found nothing at this address. Check the IDs and the Server URL (team site).';
	const id = objects[deepest];
	const where =
		deepest === 'document' || deepest === 'workspace' || deepest === 'organization' ? '' : inDoc;
	return `${capitalize(named(deepest, id))} was not found${where}, or the user of this API key cannot see it (access rules can hide it). ${FIND_HINT[deepest]}${oddIdNote(deepest, id)}`;
}

/** The organization, workspace or document whose role decides a 403 (roles are set on those). */
function roleTarget(objects: PathObjects): string {
	if (objects.document !== undefined) return named('document', objects.document);
	if (objects.workspace !== undefined) return named('workspace', objects.workspace);
	if (objects.organization !== undefined) return named('organization', objects.organization);
	return 'this object';
}

/** Grist's engine error for a column the table does not have: `[Sandbox] KeyError 'Nope'`. */
function keyErrorColumn(message: string): string | undefined {
	return /KeyError:?\s*u?['"]([^'"]+)['"]/.exec(message)?.[1];
}

/** Grist's own error text from a response body (JSON or plain text). */
export function gristErrorText(body: unknown, status: number): string {
	if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
		const b = body as GristErrorBody;
		if (typeof b.error === 'string' && b.error !== '') {
			// A doc worker's answer passed on by the home server: its JSON error inside the text.
			if (b.error.startsWith('{"error"')) {
				try {
					return gristErrorText(JSON.parse(b.error), status);
				} catch {
					// not JSON after all: keep the text
				}
			}
			const user = b.details?.userError;
			return user && !b.error.includes(user) ? `${b.error}: ${user}` : b.error;
		}
	}
	let text = '';
	if (typeof body === 'string') text = body;
	else if (Buffer.isBuffer(body)) text = body.toString('utf8');
	text = text.trim();
	if (text.startsWith('{')) {
		try {
			return gristErrorText(JSON.parse(text), status);
		} catch {
			// not JSON after all: fall through to the plain text
		}
	}
	if (text !== '' && text.length < 300 && !/<html|<!doctype/i.test(text)) return text;
	return `HTTP ${status}`;
}

/** Whether an answer carries Grist's JSON error shape (`{"error": "…"}`), as every Grist error does. */
export function isGristErrorBody(body: unknown): boolean {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			return false;
		}
	}
	return (
		!!value && typeof value === 'object' && typeof (value as GristErrorBody).error === 'string'
	);
}

/** Whether a body is an HTML page (what web servers, proxies and login pages answer; never Grist's API). */
export function isHtmlBody(body: unknown): boolean {
	const text = Buffer.isBuffer(body)
		? body.subarray(0, 200).toString('utf8')
		: typeof body === 'string'
			? body.slice(0, 200)
			: '';
	return /^\s*<(!doctype\s+html|html|head|body|\?xml)/i.test(text);
}

/**
 * The error of an answer that did not come from Grist's API: an HTML page (any status) or a
 * 404/405 without Grist's JSON error shape. Usually the Server URL points at another web server.
 */
export function notGristAnswer(
	status: number,
	body: unknown,
	origin: string,
): { message: string; hint: string } | undefined {
	const html = isHtmlBody(body);
	if (!html && !((status === 404 || status === 405) && !isGristErrorBody(body))) return undefined;
	// A proxy in front of Grist refusing a large body or failing: keep the 413/429/5xx hints.
	if (html && (status === 413 || status === 429 || status >= 500)) return undefined;
	return {
		message: `The server at ${origin} did not answer like Grist (HTTP ${status})`,
		hint: 'Check the Server URL of the Grist credential: use your Grist site address, e.g. https://docs.getgrist.com, https://TEAM.getgrist.com or https://HOST/o/TEAM (not a page of another web site).',
	};
}

const ROLE_FOR: Array<[RegExp, string]> = [
	[/No view access/i, 'at least the Viewer role'],
	[/No write access/i, 'the Editor or Owner role'],
	[/No owner access/i, 'the Owner role'],
	[
		/insufficient document access/i,
		'full read access to the document (Owner, or rules that allow reading everything)',
	],
];

/** A sentence that tells the user what to change, for a Grist error. */
export function errorHint(status: number, message: string, request: FailedRequest = {}): string {
	const objects = pathObjects(request.path);
	const inTable = objects.table !== undefined ? ` ${named('table', objects.table)}` : ' the table';
	if (/Domain not recognized/i.test(message)) {
		return 'The Grist server does not know the host name in the Server URL. Use the public URL of your Grist server, or set APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG on the server.';
	}
	if (/No organization chosen/i.test(message)) {
		return 'This server needs to know the team site: pick an organization in the node, or add /o/TEAM to the Server URL of the credential.';
	}
	if (/Wrong org for this domain/i.test(message)) {
		return 'The /o/TEAM part of the Server URL names another team than the host. Remove one of them.';
	}
	switch (status) {
		case 400:
			{
				const invalid = /Invalid column "([^"]*)"/i.exec(message)?.[1];
				if (invalid !== undefined) {
					return `${capitalize(inTable.trim())} has no column "${invalid}". Use column IDs (not labels) that exist in the table; the Column resource lists them.`;
				}
				const key = keyErrorColumn(message);
				if (key !== undefined) {
					const reading =
						(request.method ?? 'GET') === 'GET' && /\/(records|data)$/.test(request.path ?? '');
					return reading
						? `The filter or sort names the column "${key}", which${inTable} does not have. Use a column ID (not its label): the Column resource (Get Many) lists the table's columns.`
						: `${capitalize(inTable.trim())} has no column "${key}". Use a column ID (not its label): the Column resource (Get Many) lists the table's columns.`;
				}
				const row = /Invalid row id (\S+)/i.exec(message)?.[1];
				if (row !== undefined) {
					return `${capitalize(named('row', row))} does not exist in${inTable}. ${FIND_HINT.row}`;
				}
			}
			return 'Grist rejected the request; check the parameters named in the message.';
		case 401:
			return 'Grist rejected the API key. Copy it again from Account settings → Developer → API Key in Grist into the Grist credential.';
		case 402:
			return 'The Grist site is read-only (billing). An owner of the site must fix its plan.';
		case 403: {
			const role = ROLE_FOR.find(([re]) => re.test(message));
			if (role)
				return `The user of this API key needs ${role[1]} on ${roleTarget(objects)}. Ask an owner to share it with that role.`;
			if (/access rules/i.test(message))
				return 'A Grist access rule of the document blocks this change. Ask an owner to adjust the rules.';
			if (/No more (documents|workspaces) permitted/i.test(message))
				return 'The site has reached its plan limit.';
			return `The user of this API key is not allowed to do this on ${roleTarget(objects)} (usually the Owner role is needed).`;
		}
		case 404:
			return notFoundHint(message, request);
		case 410:
			return 'This Grist operation is no longer supported by the server.';
		case 413:
			return /Attachments/i.test(message)
				? 'The file is larger than the Grist server allows for attachments.'
				: 'The request is larger than Grist accepts (1 MB of JSON). Split large values or send fewer records per item.';
		case 429:
			if (isApiLimitAnswer(status, message)) return apiLimitHint(message);
			return 'Grist is rate-limiting this document: too many requests at once. The node already retried with backoff; run it again in a moment.';
		case 503:
			return 'The document is busy or reloading ("Document in flux"). The node already retried; run it again in a moment.';
		default:
			return status >= 500
				? 'The Grist server failed to handle the request.'
				: 'Check the parameters of the node.';
	}
}

/**
 * Whether an answer is Grist's refusal past the API limit of the site's plan (DocApiUsageTracker:
 * 429 `Exceeded daily limit for document <docId>`), as against its 429 for too many requests at
 * once (`Too many backlogged requests for document …`), which a pause cures. A limit refusal
 * is not retried: retries only meet it again, and a request that gets through counts.
 */
export function isApiLimitAnswer(status: number, message: string): boolean {
	return status === 429 && /^Exceeded \w+ limit for /i.test(message.trim());
}

/**
 * The hint of a limit refusal: whose limit, what it is and when it resets. Grist's answer does
 * not carry the figure; the site's plan sets it (grist-core: the product's
 * `baseMaxApiUnitsPerDocumentPerDay`, overridden by its billing account's features, shown by
 * GET /api/orgs/{org} as `billingAccount.product.features`). grist-core counts a document's
 * requests in periods of the UTC day, hour and minute (DocApi.ts, getDocApiUsageKeysToIncr):
 * once the day's allowance is spent, a 24th of it an hour and then a 1,440th a minute still get
 * through and count towards the next day; the day's allowance comes back at 00:00 UTC.
 */
export function apiLimitHint(
	message: string,
	advice = 'Run the workflow again after 00:00 UTC, make fewer calls (README, "API calls": what each operation costs), or raise the plan.',
): string {
	const site = /limit for (site|org|team)/i.test(message);
	const whose = site ? "The site's" : "The document's";
	return (
		`${whose} API limit of its Grist plan is reached: Grist refuses its API requests (not retried, since retries only meet the limit again and each request that gets through counts). ` +
		'The limit is set by the plan of the site: on getgrist.com, Free sites have 3,000 API calls a month for the whole site, Pro 40,000 and Business 60,000 per document per day; a self-hosted Grist has none unless its product sets baseMaxApiUnitsPerDocumentPerDay (Organization → Get shows it under billingAccount.product.features). ' +
		"Grist counts a document's requests by UTC day: its daily allowance comes back at 00:00 UTC; until then about one request a minute gets through (a 1,440th of the limit a minute), and it counts towards the next day. " +
		advice
	);
}

/** Replaces every occurrence of a secret in a text. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join('***');
}
