/**
 * The one table of hints for Grist's error answers: where an operation or a trigger knows better
 * than the client's general hint (errorHint) what the user should change, an entry matches
 * Grist's message (and status) and gives the sentence. Every entry has a scope, the place whose
 * request it is about, because the same Grist text means another fix elsewhere: Grist answers
 * "insufficient document access" to SQL whether the user typed the query (SQL → Query) or the
 * node chose SQL for Get Many's conditions, and the two fixes differ.
 */
import { isSaasHost } from '../api/url';
import { apiLimitHint } from './gristAnswers';

/** The hint for Grist's 403 `Provided url is forbidden`. */
export function forbiddenUrlHint(webhookUrl: string, gristHostname: string): string {
	let origin = webhookUrl;
	let host = '';
	try {
		const u = new URL(webhookUrl);
		origin = u.origin;
		host = u.hostname;
	} catch {
		// keep the text as given
	}
	if (isSaasHost(gristHostname.toLowerCase()))
		return `getgrist.com only calls public https URLs; n8n's webhook URL is ${origin}. Set n8n's WEBHOOK_URL to a public https address, or use the Grist Trigger (polling).`;
	return `Your Grist server does not allow webhooks to ${origin}. On the Grist server, set ALLOWED_WEBHOOK_DOMAINS to include ${host || 'the n8n host'} (Grist then needs an https URL; only ALLOWED_WEBHOOK_DOMAINS=* also allows http) and restart Grist, or set n8n's WEBHOOK_URL to an https address under an allowed domain.`;
}

/** The hint for Grist's 403 `No owner access` on /webhooks. */
export const OWNER_NEEDED_HINT =
	'Grist lets only owners of a document manage its webhooks. Use a credential of a document owner, or ask an owner to make you one; the Grist Trigger (polling) needs only view access.';

/** The request an entry is about. */
export type HintScope =
	/** PATCH …/access (Update Access of an organization, workspace or document). */
	| 'access.update'
	/** POST …/sql from SQL → Query: the user's own statement. */
	| 'sql.query'
	/** POST …/sql from Record → Get Many: conditions Grist's filter cannot express. */
	| 'record.conditions'
	| 'document.move'
	| 'document.copy'
	/** GET the workspace and POST …/import of Document → Import File. */
	| 'document.importFile'
	| 'webhook.create'
	/** Update and Delete of the webhook in the Webhook field. */
	| 'webhook.id'
	| 'attachment.upload'
	/** POST …/attachments/archive of Attachment → Restore From Archive. */
	| 'attachment.restore'
	/** The Grist Trigger's polls (GET …/records of the watched table). */
	| 'trigger.poll'
	/** The Grist Instant Trigger's registration (…/webhooks, …/columns). */
	| 'trigger.webhook'
	| 'document.fork'
	/** …/compare and …/compare/{other} of Document → Compare. */
	| 'document.compare'
	| 'document.replaceContent'
	/** …/snapshots of Get Snapshots and Delete Snapshots. */
	| 'document.snapshots'
	/** …/proposals of Get Proposals and Apply Proposal. */
	| 'document.proposals'
	/** The Service Account operations (/api/service-accounts…). */
	| 'serviceAccount'
	/** Organization → Get Usage. */
	| 'org.usage'
	/** Document → Start, Get and Stop Timing. */
	| 'document.timing';

/** What the item or the trigger was about, for the hints that name it. */
export interface HintValues {
	itemIndex?: number;
	docId?: string;
	tableId?: string;
	/** The workspace of the Workspace / Destination Workspace field. */
	workspace?: string | number;
	webhookId?: string;
	/** The address Grist should call (a webhook's URL). */
	url?: string;
	/** The host name of the Grist server. */
	gristHost?: string;
	fileName?: string;
	binaryProperty?: string;
	/** The size of what was sent, as text (`2.5 MB`). */
	size?: string;
	/** Whether the connection is an OAuth2 one. */
	oauth?: boolean;
	/** The second document (Other Document, Source Document). */
	otherDocId?: string;
	snapshotId?: string;
}

export interface GristHint {
	scope: HintScope;
	/** Grist's message (the client's error message). */
	match: RegExp;
	/** The HTTP status it must have; any (also none, for an error raised before the request) if absent. */
	status?: number;
	/** Only for OAuth2 connections. */
	oauthOnly?: boolean;
	/** Added after the description the error has (the client's hint) instead of replacing it. */
	append?: boolean;
	hint: string | ((v: HintValues) => string);
}

const ANY = /(?:)/;
/** Grist's refusal at the plan's API limit (`isApiLimitAnswer`). */
const API_LIMIT = /^Exceeded \w+ limit for /i;

/** The entries of one scope, in the order of their checks. */
function scoped(scope: HintScope, entries: Array<Omit<GristHint, 'scope'>>): GristHint[] {
	return entries.map((entry) => ({ scope, ...entry }));
}

/** The first entry of a scope that matches wins: the order below is the order of the checks. */
export const GRIST_HINTS: GristHint[] = [
	// PATCH …/access
	...scoped('access.update', [
		{
			match: /cannot update own permissions/i,
			hint: 'The API key belongs to one of the users listed: Grist does not let an owner change or remove their own access (only a user who is not an owner may remove themselves). Remove that row, or use the key of another owner.',
		},
		{ match: /Invalid email/i, hint: 'Check the Email of every user row.' },
		{
			match: /Invalid user role/i,
			hint: 'Check the Role of every user row: Member is for organizations only.',
		},
		{
			match: /Invalid maxInheritedRole/i,
			hint: 'Choose Owners, Editors, Viewers or None for Max Inherited Role.',
		},
		{
			match: /too many pending invitations/i,
			hint: 'Wait until invited users accept, or remove pending invitations in Grist.',
		},
	]),

	// SQL → Query: the user wrote the statement.
	...scoped('sql.query', [
		{
			match: /insufficient document access/i,
			hint: 'SQL needs read access to the whole document: the user of the API key must be allowed to read every table and column (access rules that hide any part of the document refuse SQL). Use Record → Get Many instead.',
		},
		{
			match: /only select statements/i,
			hint: 'Grist runs only SELECT statements (SQL is read-only). To change data, use the Record operations.',
		},
		{
			match: /slow statement|database interrupt/i,
			hint: "The statement ran longer than the timeout (Grist allows at most GRIST_SQL_TIMEOUT_MSEC, 1000 ms by default). Narrow it with WHERE or LIMIT, or raise the server's limit.",
		},
		{
			match: /SQLITE_|no such|syntax error/i,
			hint: 'SQLite rejected the statement. Table and column IDs are case-sensitive (Table → Get Many with Include Columns lists them); Grist stores dates as epoch seconds, toggles as 0/1 and lists as JSON text.',
		},
	]),

	// Record → Get Many: the node wrote the statement from the conditions, so SQLite's own
	// rejections are not the user's to fix and get no entry here.
	...scoped('record.conditions', [
		{
			match: /insufficient document access/i,
			hint: "These conditions run as an SQL query, and Grist runs SQL only for users who may read the whole document (access rules hide part of it from this API key). Use only Is One Of and Is Empty conditions combined with AND (Grist's record filter), or ask an owner for full read access.",
		},
		{
			match: /slow statement|database interrupt/i,
			hint: 'The search took longer than Grist allows SQL (GRIST_SQL_TIMEOUT_MSEC, 1 s by default). Narrow it with more conditions or a Limit.',
		},
	]),

	// Documents
	...scoped('document.move', [
		{
			match: /already in destination workspace/i,
			hint: (v) =>
				`The Destination Workspace (${v.workspace}) is the workspace the document is already in. Pick another workspace.`,
		},
	]),
	...scoped('document.copy', [
		{
			match: /access denied|workspace not found/i,
			hint: (v) =>
				`Check the Destination Workspace (${v.workspace}): it must exist and you need the Editor or Owner role there.`,
		},
		{
			match: /Insufficient access to document/i,
			hint: 'Copying needs the right to read the whole document (access rules may hide parts of it from you).',
		},
	]),
	...scoped('document.fork', [
		{
			match: /Insufficient access to document to copy it entirely/i,
			hint: 'A fork copies the whole document: the user of this API key must be allowed to read all of it (access rules hide part of it). Use the key of an owner, or of a user no rule restricts.',
		},
		{
			match: /already a fork/i,
			hint: "The Document is a fork, and Grist does not fork a fork. Fork its trunk (the fork's trunkId) instead, or copy the fork with Document → Copy.",
		},
		{
			match: /Anonymous document creation is disabled/i,
			hint: 'Grist lets only signed-in users fork documents. Use an API key of a Grist user.',
		},
	]),
	...scoped('document.compare', [
		{
			match: /insufficient access/i,
			status: 403,
			hint: 'Compare needs the right to read the whole Document: an access rule hides part of it from the user of this API key. Use the key of an owner, or of a user no rule restricts.',
		},
		{
			match: /document not found|fork not found/i,
			status: 404,
			hint: (v) =>
				v.otherDocId === undefined
					? `Check the Document (${v.docId}): it must exist and be shared with the user of this API key.`
					: `Check both documents: the Document (${v.docId}) and the Other Document (${v.otherDocId}) must exist and be shared with the user of this API key. A fork's ID is the trunk's ID, ~, the fork's ID, ~ and its creator's user ID (Fork outputs it as docId).`,
		},
		{
			match: /Cannot read hash/i,
			hint: "From State or To State names a state that is not in the document's history: Grist keeps about the last 1,000 actions, and Replace Content replaces the history. Use HEAD~N, or a hash from a recent comparison's left or right.",
		},
		{
			match: /cannot parse hash/i,
			hint: 'Enter HEAD, HEAD~N (N actions ago) or a full state hash (64 characters) in From State and To State.',
		},
		{
			match: /left to be an ancestor of right/i,
			hint: 'From State must be the earlier state and To State the later one: swap them.',
		},
	]),
	...scoped('document.replaceContent', [
		{
			match: /Only owners can replace|No write access/i,
			status: 403,
			hint: (v) =>
				`Replace Content needs the Owner role on the Document (${v.docId}). Ask an owner to make the user of this API key an owner, or run it with an owner's key.`,
		},
		{
			match: /snapshots not supported/i,
			hint: 'This Grist server keeps no snapshots (it has no external storage such as S3 or MinIO), so there is nothing to restore. To go back to an earlier version, replace with a fork or copy made before the changes.',
		},
		{
			match: /not authorized to download/i,
			status: 403,
			hint: (v) =>
				`Grist copies the Source Document (${v.otherDocId}) whole, and the user of this API key may not download it (access rules or its download setting). Use a source that user may download fully.`,
		},
		{
			match: /document not found|fork not found/i,
			status: 404,
			hint: (v) =>
				v.otherDocId === undefined
					? `Check the Document (${v.docId}): it must exist and be shared with the user of this API key.`
					: `Check the Source Document (${v.otherDocId}) and the Document (${v.docId}): both must exist and be shared with the user of this API key.`,
		},
		{
			match: /Snapshots cannot be replaced/i,
			hint: 'The Document is a snapshot (its ID contains ~v=). Pick the document itself.',
		},
		{
			match: /snapshot/i,
			status: 404,
			hint: (v) =>
				`The document has no snapshot "${v.snapshotId}". Document → Get Snapshots lists its snapshots.`,
		},
	]),
	...scoped('document.snapshots', [
		{
			match: /cannot confirm access to snapshots because of access rules/i,
			hint: 'Grist shows snapshots only to users who may read the whole document, and an access rule hides part of it from the user of this API key. Use the key of an owner, or of a user no rule restricts.',
		},
		{
			match: /No owner access|access denied/i,
			status: 403,
			hint: (v) =>
				`Deleting snapshots needs the Owner role on the document (${v.docId}). Run it with an owner's key.`,
		},
	]),
	...scoped('document.proposals', [
		{
			match: /Only owners can apply proposals|No write access/i,
			hint: (v) =>
				`Apply Proposal needs the Owner role on the Document (${v.docId}). Run it with an owner's key.`,
		},
		{
			match: /access denied/i,
			status: 400,
			hint: 'Grist lists proposals only to users who may read the whole document, and an access rule hides part of it from the user of this API key. Use the key of an owner, or of a user no rule restricts.',
		},
		{
			match: /Proposal not found/i,
			hint: 'Get Proposals (Made to This Document) lists the proposals of this document and their numbers.',
		},
	]),
	...scoped('document.importFile', [
		{
			match: /Failed to parse|not supported|could not be/i,
			hint: (v) =>
				`Grist could not read the file "${v.fileName}" of the binary field "${v.binaryProperty}". It reads CSV, TSV, XLSX, JSON and .grist files; check the file and its extension.`,
		},
		{
			match: /access denied|workspace not found/i,
			hint: (v) =>
				`Check the Workspace (${v.workspace}): it must exist and you need the Editor or Owner role there.`,
		},
	]),

	// Webhook operations
	...scoped('webhook.create', [
		{
			match: /Provided url is forbidden/i,
			hint: (v) =>
				`Grist may not call "${v.url}": on getgrist.com it must be a public https address; a self-hosted Grist must list its host in ALLOWED_WEBHOOK_DOMAINS.`,
		},
		{
			match: /No owner access/i,
			hint: 'Managing webhooks needs the Owner role on the document.',
		},
	]),
	...scoped('webhook.id', [
		{
			match: /Webhook not found/i,
			hint: (v) =>
				`The Webhook "${v.webhookId}" of item ${v.itemIndex} does not exist in this document (deleted, or the ID of another document). Pick one from the list.`,
		},
	]),

	// Attachment → Upload
	...scoped('attachment.upload', [
		{
			status: 413,
			match: /Exceeded attachments limit/i,
			hint: 'The document has reached the total size of attachments its plan allows. Remove unused attachments in Grist (Raw Data → attachments) or upgrade the plan.',
		},
		{
			status: 413,
			match: ANY,
			hint: (v) =>
				`The files of this item (${v.size}) are larger than the Grist server accepts for attachments. Self-hosted Grist sets the limit with GRIST_MAX_UPLOAD_ATTACHMENT_MB (a proxy in front of it, e.g. nginx client_max_body_size, may set a lower one); on getgrist.com it depends on the plan. Upload smaller files or ask the server's admin to raise the limit.`,
		},
		{
			status: 403,
			match: ANY,
			append: true,
			hint: 'Uploading attachments needs the Editor or Owner role; a Viewer can only read and download them.',
		},
		{
			match: /is not a valid and available store/i,
			hint: 'The document keeps new attachments in an external store that this Grist server does not have. Set it back with Attachment → Set Store → Internal (an owner can), or ask the server admin to set up the external store.',
		},
	]),

	// Attachment → Restore From Archive
	...scoped('attachment.restore', [
		{
			status: 400,
			match: /No \.tar file found/i,
			hint: (v) =>
				`Grist restores attachments only from a .tar archive, and "${v.fileName}" (binary field "${v.binaryProperty}") is not one. Use the file Attachment → Download All makes with Format: TAR; a ZIP archive cannot be restored.`,
		},
		{
			match: /not a valid \.tar|Invalid tar header/i,
			hint: (v) =>
				`"${v.fileName}" (binary field "${v.binaryProperty}") is named .tar but is not a complete tar archive (cut short, or another kind of file renamed). Use the file Attachment → Download All made with Format: TAR, unchanged.`,
		},
		{
			status: 403,
			match: ANY,
			append: true,
			hint: 'Restoring attachments needs the Owner role on the document.',
		},
	]),

	// Grist Trigger (polling): the table was there when the workflow was activated.
	...scoped('trigger.poll', [
		{
			status: 429,
			match: API_LIMIT,
			hint: (v) =>
				apiLimitHint(
					'Exceeded daily limit for document',
					`While it lasts, each poll makes one request to document "${v.docId}" (to learn when Grist answers again) and emits nothing; the trigger keeps its position, and what is due is emitted once Grist answers. Poll less often (README, "API calls") or raise the plan.`,
				),
		},
		{
			status: 404,
			match: /Table not found/i,
			hint: (v) =>
				`The table "${v.tableId}" of document "${v.docId}" does not exist any more (deleted or renamed after the workflow was activated). Pick the table again in the trigger and save the workflow. Nothing was emitted and the position of the trigger is kept.`,
		},
		{
			status: 404,
			match: ANY,
			hint: (v) =>
				`The document "${v.docId}" was not found, or the API key can no longer see it. Check that the document still exists and is shared with the user of the API key.`,
		},
		{
			status: 401,
			match: ANY,
			hint: 'Grist rejected the API key: update the Grist credential with a valid key (Account settings → Developer → API Key in Grist).',
		},
		{
			status: 403,
			match: ANY,
			hint: (v) =>
				`The user of the API key lost access to the table "${v.tableId}" of document "${v.docId}". Ask an owner of the document to share it again (Viewer role or higher), or use another credential.`,
		},
	]),

	// Grist Instant Trigger: registering the webhook.
	...scoped('trigger.webhook', [
		{
			status: 403,
			match: /Provided url is forbidden/i,
			hint: (v) => forbiddenUrlHint(v.url ?? '', v.gristHost ?? ''),
		},
		{
			status: 403,
			match: /No owner access/i,
			hint: OWNER_NEEDED_HINT,
		},
		{
			status: 403,
			match: ANY,
			oauthOnly: true,
			hint: 'Grist refused the OAuth2 token for webhooks. Add doc:webhooks under Additional Scopes in the Grist OAuth2 credential (and allow it in your OAuth app in Grist), reconnect, and make sure the connected user owns the document. Or use an API key credential of a document owner.',
		},
		{
			status: 404,
			match: /Table not found/i,
			hint: (v) =>
				`The table "${v.tableId}" is not in document "${v.docId}" any more. Pick the table again.`,
		},
		{
			status: 404,
			match: /Column not found|Cannot find column/i,
			hint: 'A column under Options (Ready Column or Watched Columns) is not in the table any more. Pick it again.',
		},
	]),

	// Service accounts: only their owner (the user who created them) sees and manages them.
	...scoped('serviceAccount', [
		{
			status: 404,
			match: /Service Account does not exist|No such service account|non existing service account/i,
			hint: (v) =>
				`The Service Account of item ${v.itemIndex} does not exist (deleted, or a wrong ID). Pick one from the list.`,
		},
		{
			status: 403,
			match: /non-owned service account/i,
			hint: "Only the user who created a service account can see and manage it: use a credential with that user's API key.",
		},
		{
			status: 403,
			match: /Only regular users/i,
			hint: 'The API key of this credential belongs to a service account, and a service account cannot manage service accounts: use the API key of a user.',
		},
		{
			status: 400,
			match: /Invalid expiresAt/i,
			hint: 'Grist could not read Expires At as a date. Enter a date such as 2027-01-31.',
		},
	]),

	// Organization → Get Usage
	...scoped('org.usage', [
		{
			status: 403,
			match: ANY,
			hint: 'Grist shows the usage of an organization only to its owners: use a credential of an owner of the organization.',
		},
	]),

	// Document → formula timing
	...scoped('document.timing', [
		{
			status: 400,
			match: /Timing already started/i,
			hint: 'Formula timing is already running for this document. Read it with Get Timing, or end it with Stop Timing (which returns the times).',
		},
		{
			status: 400,
			match: /Timing not started/i,
			hint: 'Formula timing is not running for this document: start it with Start Timing, let the document calculate (e.g. reload it or change data), then stop it.',
		},
		{
			status: 403,
			match: /No owner access/i,
			hint: 'Formula timing needs the Owner role on the document.',
		},
	]),
];

/** The entry of `scope` for an error's message and HTTP status (`undefined` for none). */
export function findHint(
	scope: HintScope,
	message: string,
	status?: number,
	values: HintValues = {},
): GristHint | undefined {
	return GRIST_HINTS.find(
		(h) =>
			h.scope === scope &&
			(h.status === undefined || h.status === status) &&
			(!h.oauthOnly || values.oauth === true) &&
			h.match.test(message),
	);
}

/** The hint of `scope` for an error's message and HTTP status, its values filled in. */
export function gristHint(
	scope: HintScope,
	message: string,
	status?: number,
	values: HintValues = {},
): string | undefined {
	const entry = findHint(scope, message, status, values);
	if (!entry) return undefined;
	return typeof entry.hint === 'string' ? entry.hint : entry.hint(values);
}

/**
 * Sets the description (hint) of an error (the client's NodeApiError, with its `httpCode`)
 * when an entry of `scope` matches it, keeping Grist's own message; returns the error to re-throw.
 */
export function withHint(error: unknown, scope: HintScope, values: HintValues = {}): unknown {
	if (!error || typeof error !== 'object') return error;
	const e = error as { message?: unknown; description?: string | null; httpCode?: unknown };
	const message = typeof e.message === 'string' ? e.message : '';
	const status = e.httpCode === undefined || e.httpCode === null ? undefined : Number(e.httpCode);
	const entry = findHint(scope, message, status, values);
	if (!entry) return error;
	const hint = typeof entry.hint === 'string' ? entry.hint : entry.hint(values);
	e.description = entry.append ? `${e.description ?? ''} ${hint}`.trim() : hint;
	return error;
}
