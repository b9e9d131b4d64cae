/**
 * Pure helpers that turn a Grist error answer into a message and a hint that says what to do.
 * The API key is never part of any of these texts.
 */

export interface GristErrorBody {
	error?: string;
	details?: { userError?: string; limit?: unknown; tips?: unknown; memos?: string[]; code?: string };
}

export interface ErrorContext {
	/** What the request was about, e.g. `document "abc"` or `table "People"`. */
	what?: string;
}

/** Grist's own error text from a response body (JSON or plain text). */
export function gristErrorText(body: unknown, status: number): string {
	if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
		const b = body as GristErrorBody;
		if (typeof b.error === 'string' && b.error !== '') {
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
	return !!value && typeof value === 'object' && typeof (value as GristErrorBody).error === 'string';
}

/** Whether a body is an HTML page (what web servers, proxies and login pages answer; never Grist's API). */
export function isHtmlBody(body: unknown): boolean {
	const text = Buffer.isBuffer(body) ? body.subarray(0, 200).toString('utf8') : typeof body === 'string' ? body.slice(0, 200) : '';
	return /^\s*<(!doctype\s+html|html|head|body|\?xml)/i.test(text);
}

/**
 * The error of an answer that did not come from Grist's API: an HTML page (any status) or a
 * 404/405 without Grist's JSON error shape. Usually the Server URL points at another web server.
 */
export function notGristAnswer(status: number, body: unknown, origin: string): { message: string; hint: string } | undefined {
	const html = isHtmlBody(body);
	if (!html && !((status === 404 || status === 405) && !isGristErrorBody(body))) return undefined;
	// A proxy in front of Grist refusing a large body or failing: keep the 413/429/5xx hints.
	if (html && (status === 413 || status === 429 || status >= 500)) return undefined;
	return {
		message: `The server at ${origin} did not answer like Grist (HTTP ${status})`,
		hint: 'Check the Server URL of the Grist credential: use your Grist site address, e.g. https://docs.getgrist.com, https://<team>.getgrist.com or https://<host>/o/<team> (not a page of another web site).',
	};
}

const ROLE_FOR: Array<[RegExp, string]> = [
	[/No view access/i, 'at least the Viewer role'],
	[/No write access/i, 'the Editor or Owner role'],
	[/No owner access/i, 'the Owner role'],
	[/insufficient document access/i, 'full read access to the document (Owner, or rules that allow reading everything)'],
];

/** A sentence that tells the user what to change, for a Grist error. */
export function errorHint(status: number, message: string, ctx: ErrorContext = {}): string {
	if (/Domain not recognized/i.test(message)) {
		return 'The Grist server does not know the host name in the Server URL. Use the public URL of your Grist server, or set APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG on the server.';
	}
	if (/No organization chosen/i.test(message)) {
		return 'This server needs to know the team site: pick an organization in the node, or add /o/<team> to the Server URL of the credential.';
	}
	if (/Wrong org for this domain/i.test(message)) {
		return 'The /o/<team> part of the Server URL names another team than the host. Remove one of them.';
	}
	switch (status) {
		case 400:
			if (/Invalid column/i.test(message)) {
				return 'Use column IDs (not labels) that exist in the table; the Column resource lists them.';
			}
			if (/Invalid row id/i.test(message)) {
				return 'The row ID does not exist in the table. Read the records first to get valid IDs.';
			}
			return 'Grist rejected the request; check the parameters named in the message.';
		case 401:
			return 'Grist rejected the API key. Copy it again from Profile Settings → API in Grist into the Grist credential.';
		case 402:
			return 'The Grist site is read-only (billing). An owner of the site must fix its plan.';
		case 403: {
			const role = ROLE_FOR.find(([re]) => re.test(message));
			if (role) return `The user of this API key needs ${role[1]} on ${ctx.what ?? 'this object'}. Ask an owner to share it with that role.`;
			if (/access rules/i.test(message)) return 'A Grist access rule of the document blocks this change. Ask an owner to adjust the rules.';
			if (/No more (documents|workspaces) permitted/i.test(message)) return 'The site has reached its plan limit.';
			return `The user of this API key is not allowed to do this on ${ctx.what ?? 'this object'} (usually the Owner role is needed).`;
		}
		case 404:
			if (/Table not found/i.test(message)) return 'Check the table ID (not its label). Tables are listed by the Table field in "From list" mode.';
			if (/Column not found|Table or column not found/i.test(message)) return 'Check the column ID; the Column resource lists them.';
			if (/Attachment not found/i.test(message)) return 'Check the attachment ID; Get Many attachments lists them.';
			return `${ctx.what ? capitalize(ctx.what) : 'The object'} was not found, or the user of this API key cannot see it. Check the ID and the Server URL (team site).`;
		case 410:
			return 'This Grist operation is no longer supported by the server.';
		case 413:
			return /Attachments/i.test(message)
				? 'The file is larger than the Grist server allows for attachments.'
				: 'The request is larger than Grist accepts (1 MB of JSON). Split large values or send fewer records per item.';
		case 429:
			return 'Grist is rate-limiting this document (too many requests at once, or the daily API limit of the plan). The node already retried with backoff; run it again later.';
		case 503:
			return 'The document is busy or reloading ("Document in flux"). The node already retried; run it again in a moment.';
		default:
			return status >= 500 ? 'The Grist server failed to handle the request.' : 'Check the parameters of the node.';
	}
}

function capitalize(s: string): string {
	return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Replaces every occurrence of a secret in a text. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join('***');
}
