/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * Grist emulator: an in-memory HTTP server on 127.0.0.1 (random port) that behaves like the real
 * Grist server as described in the project's Grist API reference (grist-api.md §0–§9, kept beside
 * the repository in shared/reference/).
 *
 * ```ts
 * const emu = await startEmulator();
 * const demo = emu.seedDemo();           // user + API key, team org "demo", docs with data
 * // point the credential at emu.url, or at `http://demo.getgrist.com` through HTTP_PROXY=emu.url
 * emu.fault({ path: /\/records$/, status: 429, times: 2 });
 * ...
 * expect(emu.log.map((e) => `${e.method} ${e.apiPath}`)).toEqual([...]);
 * await emu.close();
 * ```
 * Host rules: 127.0.0.1/localhost (and the bare base domain) are a self-hosted server with
 * GRIST_ORG_IN_PATH (`/o/<org>/api/...`); `docs.<baseDomain>` is the merged personal org;
 * `<team>.<baseDomain>` is org `<team>`; an org's custom `host` selects it; anything else is
 * 404 `Domain not recognized`. Proxy-form request lines (`GET http://team.getgrist.com/api/...`)
 * are accepted. Seeding helpers take values in Grist's stored encoding (no parsing).
 *
 * Users: `addUser` also creates the user's personal org (`docs-<id>`, workspace "Home"); user ids
 * 1 and 2 are everyone@/anon@getgrist.com. Faults match `method` and `path` (string: exact
 * apiPath; RegExp: tested against apiPath), each use consumes one of `times`; a delayed request
 * holds its per-document concurrency slot. The log records every request on arrival (status 0
 * until answered, and for dropped ones); for proxy-form requests `path` is the URL's path.
 *
 * Routes: orgs (list/get/patch/access/workspaces), workspaces (create/get/patch/delete/access/
 * docs), docs (get/patch/move/delete/access/pin/unpin, download csv|tsv|xlsx), tables, columns,
 * records (+ /list, /delete), /data (+ /delete), attachments (upload/list/get/download), /apply
 * (AddRecord, BulkAddRecord, [Bulk]UpdateRecord, [Bulk]RemoveRecord, AddTable, RemoveTable,
 * RenameTable, AddColumn, AddVisibleColumn, ModifyColumn, RemoveColumn, RenameColumn),
 * /api/profile/user, /sql (SQLite via sql.js: routes-sql.ts), /states and /compare (history.ts), trash/restore of docs and
 * workspaces, copy, `.grist` download, import of CSV/XLSX/.grist (routes-lifecycle.ts), GET
 * /orgs/{org}/usage, service accounts (routes-service-accounts.ts, with the `serviceAccounts`
 * option) and formula timing (routes-timing.ts). routes.ts lists the route files, one per section of the reference.
 *
 * Data semantics (checked in grist-core's source, see each module): a new document (POST
 * /workspaces/{ws}/docs) holds `Table1` with empty columns A, B, C (type Any, isFormula true);
 * `addDoc` (seeding) makes an empty document. Writes run Grist's ValueParser on strings unless
 * `noparse`, then the data engine's conversion (usertypes.py) in every case, so "7" is 7 in a
 * Numeric column even with `noparse`, "$7" only without it, and what neither understands stays
 * text (an AltText cell). POST /tables and AddTable make data columns unless a formula is given
 * (type Text by default) and keep only type, isFormula, formula, label and widgetOptions
 * (visibleCol and recalcWhen are dropped); POST/PUT /columns and AddColumn make empty formula
 * columns (type Any by default) that become data columns when written. POST /records writes the
 * union of the records' fields: a field another record names is null where missing. GET
 * /columns lists columns in the open document's metadata order (model.ts `columnSlots`).
 * Sorting is grist-core's typedCompare (null after numbers). Deleting ids that do not exist is a no-op.
 * Trigger formulas (data columns with a formula): computed for added rows that were not given
 * a value (recalcWhen 0 or 2) and, after an update that really changes a row, for recalcWhen 2,
 * or recalcWhen 0 when a recalcDeps column changed, unless the update set the column itself.
 * Seeding helpers (`addTable`, `addRecords`) store values as given: no parsing, no conversion,
 * no trigger formulas. Bodies of the schema-checked endpoints get ts-interface-checker's texts
 * (payload.ts).
 *
 * Cost model: the log's `rowsScanned` counts rows a request read. A records or /data read counts
 * the whole table (the data engine loads, filters and sorts it); /sql counts per SQLite's query
 * plan (a SCAN of a table its rows, a SEARCH 1), since Grist answers /sql from the .grist file
 * without loading the document: `max(id)` is O(1). A modelling choice: relative cost, not time.
 *
 * A write request to a document (and a seeding write) moves its `updatedAt` at once, always
 * later than before; grist-core pushes it to the home database at most once a minute (not
 * emulated: the delay). Document history: history.ts.
 *
 * The site plan's daily API limit per document (`dailyApiLimit`, `setDailyApiLimit`): grist-core's
 * periods (UTC day, hour, minute) and its 429 `Exceeded daily limit for document …`, on the
 * doc worker's routes; the limit is the same for every document of the emulator.
 *
 * Not emulated: copies without a workspace (unsaved copies), getgrist.com's monthly API quota of
 * a Free site, CONNECT (https through a proxy), access rules inside documents, type conversion of
 * existing values when a column's type changes, the type guess when an empty column gets its
 * first values (it keeps its type, Any by default), reference/RefList cleanup when rows or tables
 * are removed, user actions other than those listed, cascades between trigger formulas (one
 * trigger column feeding another's recalcDeps), document settings (locale, currency: parsing is
 * en-US, `$`/`€`/`£`), the home server's doc-auth cache unless `docAuthCacheMs` is set
 * (HomeDBManager, 5 s: /unremove does not flush it, so real Grist can answer a restored
 * document's API 404 `Document is deleted` for up to 5 s; without the option the emulator answers
 * 200 at once; doc-auth.ts).
 *
 * Known approximations and guesses (the reference and grist-core were silent or too large to
 * mirror): formulas are a small Python subset (arithmetic, $col, NOW, TODAY, len, str, int,
 * float, round, UPPER, LOWER), NOW() is the emulator clock; parsing follows ValueParser loosely
 * (numbers with `,` grouping, `(1)`, `%`, a currency sign; dates YYYY-MM-DD, and M/D/YYYY or
 * D/M/YYYY when the column's dateFormat has that order); Python's float("inf"/"nan") is kept as text (JSON cannot carry it);
 * values compare with JSON equality where Python would say 1 == 1.0 == True; the billing account
 * in GET /orgs/{id} has grist-core's keys but guessed values (product "Free", the org's owners
 * are its managers); GET /docs/{id} lists the urlId as the only alias and the caller's forks
 * (forks, /compare/{doc2}, /replace, snapshots and proposals: routes-forks.ts; workspace listings
 * have empty `forks` arrays for signed-in callers);
 * /apply errors are 500 `[Sandbox] …`; a non-number id in a delete body is 400 `… AssertionError ` (measured);
 * POST /columns' defaults follow grist-core's AddColumn source (isFormula true) — not measured.
 *
 * Lifecycle (routes-lifecycle.ts, from grist-core's source, not measured): GET /workspaces/{wid} of
 * a workspace in the trash (or, with showRemoved, of one holding no trashed doc) is 404 `workspace
 * not found`; PATCH/move/access of a doc in the trash are 404 `document not found` like GET; the
 * `.grist` file has Grist's metadata tables for what the emulator keeps (no views, no history:
 * `nohistory` changes nothing) and schemaVersion 44; an import that fails leaves no document
 * (grist-core registers it first); imports guess types for plain cases only (ValueGuesser's order:
 * Bool, Numeric, Date YYYY-MM-DD, Text; typed XLSX cells keep their type; no delimiter sniffing,
 * `,` for .csv/.txt and tab for .tsv; an all-empty column is an Any data column), CSV is read as
 * Python's csv.reader reads it (measured on 1.7.17: blank lines are rows, `"ab"c` is `abc`, a
 * quote left open runs to the end of the file), the first row is the header when it is all
 * non-numeric text, and the new document holds only the imported tables; a `.grist` import keeps tables, columns,
 * rows and attachments (a file in an external store stays there: unavailable, as on a server
 * without that store); JSON imports are not emulated (400 `File format is not supported.`).
 *
 * Attachment archive and stores (routes-attachments.ts, from grist-core's source and measured on
 * 1.7.17): the server has no external store, as grist-core without S3 or MinIO; a file's ident is
 * its SHA-1 and its name's extension (grist-core may take the extension from the MIME type
 * instead); only Remove Unused marks attachments unused (grist-core also does it in the
 * background); a Transfer All is over by the next request.
 *
 * Webhooks (routes-webhooks.ts, delivery in webhooks.ts, `emu.webhooks`: registrations, `queue(docId)`,
 * `deliveries`, `idle()`, `configure`): events, payload, per-document queue, retries and the URL
 * rules follow grist-core's Triggers.ts / DocApiTriggers.ts; options `allowedWebhookDomains`
 * (ALLOWED_WEBHOOK_DOMAINS; unset forbids every URL, as in Grist), `webhookRetryDelaysMs`, and
 * `activeDocTimeoutMs` / `redisWebhookQueue` (an idle document closes and drops its queue, or
 * keeps it "in Redis"; off by default, see webhooks.ts).
 * Guesses: the rows one request touched make one bundle (one POST per webhook per request);
 * `numWaiting` counts records; a failing batch is retried forever; an unknown watched or ready
 * column is 404 `Column not found "X"`; a null ready column in a body is `is neither a string
 * nor null`; webhook `condition`s are evaluated (webhook-conditions.ts) and GET /triggers lists
 * the webhooks (no other /triggers routes, no email actions); no `_subscribe`.
 *
 * OAuth server (routes-oauth.ts, `emu.oauth`; not in grist-core, so beyond the facts of reference
 * §10 all guessed): the endpoints live on every host's origin (`/oidc/auth`, `/oidc/token`,
 * discovery at `/.well-known/oauth-authorization-server`, revocation announced but not served);
 * consent is automatic for the first real user (`consent = 'deny'`, `grantDocs`, `consentUserId`
 * are test hooks); codes live 60 s; client auth by HTTP Basic or client_secret_post; every refresh
 * rotates the refresh token (Grist rotates only late in its life); token errors are
 * `{error, error_description}` with 400 (401 for a bad client); an unknown or expired access token
 * gets 401 `Bad request: invalid access token` / `… access token expired`; a refused endpoint,
 * a missing scope or a document outside the grant get 403 with texts of our own; a partial grant
 * does not filter `GET /orgs/{org}/workspaces`; the endpoint table applies to the paths as the
 * emulator routes them (after `/o/<org>`), and `/api/docs/{d}/tables/{t}/records` accepts any
 * write method with doc:write.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Ctx, Scope } from './context';
import { RAW } from './context';
import type { ParsedBody } from './http';
import {
	ApiError,
	attachmentsTooLarge,
	parseJsonBody,
	parseMultipart,
	readBody,
	sendError,
	sendJson,
} from './http';
import type { Doc, Role, Table, User } from './model';
import { EVERYONE_EMAIL, Store, isHiddenCol } from './model';
import { RowEvaluator } from './formula';
import { ROUTES } from './routes';
import { fillNewRowTriggers } from './actions';
import { OAuthServer } from './routes-oauth';
import type { WebhookService } from './webhooks';
import { docActivity, webhooksOf } from './webhooks';
import type { HistoryService } from './history';
import { historyOf, isWriteRequest } from './history';
import { seedDemoSite } from './demo-seed';
import { checkServiceAccountKey } from './routes-service-accounts';
import { noteTimedWrite } from './routes-timing';

export interface EmulatorOptions {
	maxParallelPerDoc?: number;
	/**
	 * The site plan's `baseMaxApiUnitsPerDocumentPerDay` (grist-core: DocApiUsageTracker with
	 * DocApi.ts's getDocApiUsageKeysToIncr), for every document; unset: no limit, as a
	 * self-hosted Grist. `setDailyApiLimit` changes it while running.
	 */
	dailyApiLimit?: number;
	bodyLimitBytes?: number;
	singleOrg?: string;
	baseDomain?: string;
	logBodies?: boolean;
	attachmentMaxBytes?: number;
	/** Log each request's handling time (`ms`: arrival to the last byte of the answer); the bench uses it. */
	timing?: boolean;
	/** Grist's ALLOWED_WEBHOOK_DOMAINS (`*`, or domains separated by commas); unset forbids every webhook URL. */
	allowedWebhookDomains?: string;
	/** Delays between webhook delivery attempts in ms (the last repeats); Grist's are 1 s, 2 s, 4 s… */
	webhookRetryDelaysMs?: number[];
	/**
	 * Grist's GRIST_ACTIVEDOC_TIMEOUT_SECONDS in ms (webhooks.ts): a document left idle this long
	 * closes and drops its waiting webhook deliveries. Unset: documents never close.
	 */
	activeDocTimeoutMs?: number;
	/** Grist with REDIS_URL: a closing document keeps its webhook queue for its next opening. */
	redisWebhookQueue?: boolean;
	/**
	 * The home server's doc-auth cache in ms (grist-core's GRIST_TEST_DOC_AUTH_CACHE_TTL, 5000 by
	 * default there): see doc-auth.ts. Unset or 0: no cache, every request reads the current state.
	 */
	docAuthCacheMs?: number;
	/** Grist's GRIST_ENABLE_SERVICE_ACCOUNTS (routes-service-accounts.ts); off, as in Grist, by default. */
	serviceAccounts?: boolean;
}

export interface RequestLogEntry {
	method: string;
	path: string;
	apiPath: string;
	query: Record<string, string>;
	host: string;
	org?: string;
	status: number;
	body?: unknown;
	bodyBytes: number;
	hasAuthorization: boolean;
	/** Cost model: rows the request read (records/data reads: the whole table; /sql: SQLite's plan). */
	rowsScanned?: number;
	/** With the `timing` option: ms from the request's arrival to the end of the answer. */
	ms?: number;
	/** With the `timing` option: the request's arrival (its headers), epoch ms. */
	at?: number;
}

export interface DemoSite {
	apiKey: string;
	email: string;
	userId: number;
	orgId: number;
	orgDomain: string;
	workspaceId: number;
	docId: string;
	/** Second workspace and doc ("Projects" / "Tasks"). */
	workspace2Id: number;
	doc2Id: string;
	/** A second user (editor on the team org). */
	editorApiKey: string;
	editorEmail: string;
	/** A viewer on the team org. */
	viewerApiKey: string;
	viewerEmail: string;
	customerIds: number[];
	orderIds: number[];
	attachmentId: number;
	/** Every demo document in seeding order: its workspace's name, its name, id and table ids. */
	docs: Array<{ workspace: string; name: string; id: string; tables: string[] }>;
}

interface Fault {
	method?: string;
	path?: string | RegExp;
	times: number;
	status?: number;
	body?: unknown;
	drop?: boolean;
	delayMs?: number;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

function defaultFaultBody(status: number, docId: string | undefined): unknown {
	if (status === 429)
		return {
			error: `Too many backlogged requests for document ${docId ?? 'unknown'} - try again later?`,
		};
	if (status === 503) return { error: 'Document in flux - try again later' };
	return { error: `Injected fault (${status})` };
}

export class GristEmulator {
	readonly url: string;
	readonly port: number;
	readonly log: RequestLogEntry[] = [];
	private readonly store = new Store();
	private faults: Fault[] = [];
	private inflight = new Map<string, number>();
	private dailyApiLimit: number | undefined;
	/** Requests counted per document and period key (grist-core's `_dailyUsage`). */
	private apiUsage = new Map<string, number>();
	private sockets = new Set<Socket>();
	private timers = new Set<ReturnType<typeof setTimeout>>();
	private closed = false;
	private readonly opts: Ctx['opts'];
	/** Grist's OAuth server (routes-oauth.ts): register apps, consent hooks, token lifetimes. */
	readonly oauth = new OAuthServer(
		() => Date.now(),
		() => [...this.store.users.values()].find((u) => u.id > 2)?.id,
	);

	constructor(
		private server: http.Server,
		options: EmulatorOptions,
	) {
		const addr = server.address();
		this.port = typeof addr === 'object' && addr ? addr.port : 0;
		this.url = `http://127.0.0.1:${this.port}`;
		this.dailyApiLimit = options.dailyApiLimit;
		this.opts = {
			maxParallelPerDoc: options.maxParallelPerDoc ?? 10,
			bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
			singleOrg: options.singleOrg,
			baseDomain: (options.baseDomain ?? 'getgrist.com').toLowerCase(),
			logBodies: options.logBodies ?? true,
			attachmentMaxBytes: options.attachmentMaxBytes ?? 50 * 1024 * 1024,
			timing: options.timing ?? false,
			docAuthCacheMs: options.docAuthCacheMs ?? 0,
			serviceAccounts: options.serviceAccounts ?? false,
		};
		webhooksOf(this.store).configure({
			allowedDomains: options.allowedWebhookDomains,
			retryDelaysMs: options.webhookRetryDelaysMs,
			activeDocTimeoutMs: options.activeDocTimeoutMs,
			redis: options.redisWebhookQueue,
		});
		server.on('connection', (s: Socket) => {
			this.sockets.add(s);
			s.on('close', () => this.sockets.delete(s));
		});
		server.on('request', (req: IncomingMessage, res: ServerResponse) => {
			this.handle(req, res).catch((e) => {
				if (!res.headersSent) sendJson(res, 500, { error: String(e?.message ?? e) });
			});
		});
	}

	/** Document history (history.ts): `maxRows` is GRIST_ACTION_HISTORY_MAX_ROWS. */
	get history(): HistoryService {
		return historyOf(this.store);
	}

	/** An access rule of `docId` hides something from non-owners: their /compare is 403 (history.ts). */
	restrictHistory(docId: string): void {
		const doc = this.store.docByKey(docId);
		if (!doc) throw new Error(`no document ${docId}`);
		historyOf(this.store).restrict(doc);
	}

	/** Webhook registrations, queues and delivery attempts (webhooks.ts); `configure` changes ALLOWED_WEBHOOK_DOMAINS or retry delays. */
	get webhooks(): WebhookService {
		return webhooksOf(this.store);
	}

	close(): Promise<void> {
		this.closed = true;
		webhooksOf(this.store).close();
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		return new Promise((resolve) => {
			for (const s of this.sockets) s.destroy();
			this.server.close(() => resolve());
		});
	}

	// ------------------------------------------------------------- seeding
	addUser(u: { email: string; name?: string; apiKey?: string }): {
		id: number;
		email: string;
		name: string;
		apiKey: string;
	} {
		const user = this.store.ensureUser(u.email, u.name ?? u.email.split('@')[0]);
		if (u.name !== undefined) user.name = u.name;
		else if (!user.name) user.name = u.email.split('@')[0];
		user.apiKey = u.apiKey ?? user.apiKey ?? randomBytes(20).toString('hex'); // like Grist's generator
		return { id: user.id, email: user.email, name: user.name, apiKey: user.apiKey };
	}

	private userOrThrow(email: string): User {
		const u = this.store.userByEmail(email);
		if (!u) throw new Error(`emulator: unknown user ${email}`);
		return u;
	}

	addOrg(o: { name: string; domain: string; owner?: string; host?: string; personal?: boolean }): {
		id: number;
		domain: string;
		name: string;
	} {
		if (this.store.orgByKey(o.domain))
			throw new Error(`emulator: org domain ${o.domain} already exists`);
		const owner = o.owner ? this.userOrThrow(o.owner) : undefined;
		const org = this.store.createOrg({
			name: o.name,
			domain: o.domain,
			host: o.host?.toLowerCase() ?? null,
			personalOwner: o.personal && owner ? owner.id : null,
		});
		if (owner) org.acl.set(owner.id, 'owners');
		return { id: org.id, domain: org.domain, name: org.name };
	}

	addWorkspace(
		org: number | string,
		name: string,
		opts?: { owner?: string },
	): { id: number; name: string } {
		const o = this.store.orgByKey(org);
		if (!o) throw new Error(`emulator: unknown org ${org}`);
		const ws = this.store.createWorkspace(o.id, name);
		if (opts?.owner) ws.acl.set(this.userOrThrow(opts.owner).id, 'owners');
		return { id: ws.id, name: ws.name };
	}

	addDoc(
		workspaceId: number,
		d: { name: string; id?: string; urlId?: string; isPinned?: boolean; owner?: string },
	): { id: string; name: string; urlId: string | null } {
		if (!this.store.workspaces.has(workspaceId))
			throw new Error(`emulator: unknown workspace ${workspaceId}`);
		const doc = this.store.createDoc(workspaceId, d);
		if (d.owner) doc.acl.set(this.userOrThrow(d.owner).id, 'owners');
		return { id: doc.id, name: doc.name, urlId: doc.urlId };
	}

	setAccess(
		kind: 'org' | 'workspace' | 'doc',
		ref: number | string,
		email: string,
		role: 'owners' | 'editors' | 'viewers' | 'members' | null,
	): void {
		const entity = this.entity(kind, ref);
		const u = this.store.ensureUser(email, '', email.toLowerCase() !== EVERYONE_EMAIL);
		if (role === null) entity.acl.delete(u.id);
		else entity.acl.set(u.id, role as Role);
	}

	setMaxInheritedRole(
		kind: 'workspace' | 'doc',
		ref: number | string,
		role: 'owners' | 'editors' | 'viewers' | null,
	): void {
		const e = this.entity(kind, ref) as unknown as { maxInherited: Role | null };
		e.maxInherited = role;
	}

	private entity(
		kind: 'org' | 'workspace' | 'doc',
		ref: number | string,
	): { acl: Map<number, Role> } {
		const e =
			kind === 'org'
				? this.store.orgByKey(ref)
				: kind === 'workspace'
					? this.store.workspaces.get(Number(ref))
					: this.store.docByKey(String(ref));
		if (!e) throw new Error(`emulator: unknown ${kind} ${ref}`);
		return e;
	}

	private doc(docId: string): Doc {
		const d = this.store.docByKey(docId);
		if (!d) throw new Error(`emulator: unknown doc ${docId}`);
		return d;
	}
	private table(docId: string, tableId: string): Table {
		const t = this.store.table(this.doc(docId), tableId);
		if (!t) throw new Error(`emulator: unknown table ${tableId}`);
		return t;
	}

	/**
	 * Adds a table. Column `type` defaults to `Text` (`Any` for formula columns); `isFormula`
	 * defaults to whether a `formula` is given. `visibleCol` may be a colRef or a column id of
	 * the referenced table. A data column (`isFormula: false`) with a `formula` and `recalcWhen`
	 * has a trigger formula (2: on any change; 0: on new records only), as Grist's column
	 * settings make one.
	 * `opts.summarySourceTable` (a table id) makes it a summary table of that table (only the
	 * `summarySourceTable` field; its data is whatever you add).
	 */
	addTable(
		docId: string,
		tableId: string,
		columns: Array<{
			id: string;
			type?: string;
			label?: string;
			formula?: string;
			isFormula?: boolean;
			widgetOptions?: object | string;
			visibleCol?: number | string;
			recalcWhen?: number;
		}>,
		opts?: { summarySourceTable?: string },
	): void {
		const doc = this.doc(docId);
		if (this.store.table(doc, tableId)) throw new Error(`emulator: table ${tableId} exists`);
		const source = opts?.summarySourceTable
			? this.table(docId, opts.summarySourceTable)
			: undefined;
		const t = this.store.addTable(doc, tableId);
		if (source) t.summarySourceTable = source.tableRef;
		for (const c of columns) {
			const isFormula = c.isFormula ?? Boolean(c.formula);
			let visibleCol = 0;
			if (typeof c.visibleCol === 'number') visibleCol = c.visibleCol;
			else if (typeof c.visibleCol === 'string') {
				const target = this.store.table(doc, (c.type ?? '').split(':')[1] ?? '');
				const vc = target?.columns.find((x) => x.id === c.visibleCol);
				if (!vc) throw new Error(`emulator: visibleCol ${c.visibleCol} not found`);
				visibleCol = vc.colRef;
			}
			this.store.addColumn(doc, t, {
				id: c.id,
				type: c.type ?? (isFormula ? 'Any' : 'Text'),
				label: c.label,
				formula: c.formula ?? '',
				isFormula,
				widgetOptions: c.widgetOptions,
				visibleCol,
				recalcWhen: c.recalcWhen,
			});
		}
	}

	/** Adds rows as BulkAddRecord does: a trigger formula fills the cells a row does not name. */
	addRecords(docId: string, tableId: string, rows: Array<Record<string, unknown>>): number[] {
		const t = this.table(docId, tableId);
		const known = new Set(t.columns.filter((c) => !c.isFormula).map((c) => c.id));
		const ids: Array<number | undefined> = [];
		const clean = rows.map((r) => {
			const { id, ...rest } = r;
			for (const k of Object.keys(rest))
				if (!known.has(k)) throw new Error(`emulator: Invalid column "${k}"`);
			ids.push(typeof id === 'number' ? id : undefined);
			return rest;
		});
		const out = this.store.insertRows(t, clean, ids);
		fillNewRowTriggers(t, clean, out, this.store.clock());
		this.seedWrite(docId);
		return out;
	}

	/** A seeding write stands for a user's write: `updatedAt` moves, the history gets a state. */
	private seedWrite(docId: string): void {
		const doc = this.doc(docId);
		doc.updatedAt = this.store.now();
		historyOf(this.store).note(doc, true);
	}

	records(docId: string, tableId: string): Array<{ id: number; fields: Record<string, unknown> }> {
		const t = this.table(docId, tableId);
		const ev = new RowEvaluator(t, this.store.clock());
		const cols = t.columns.filter((c) => !isHiddenCol(c.id));
		return this.store.rowIds(t).map((id) => {
			const full = ev.full(t.rows.get(id)!, id);
			const fields: Record<string, unknown> = {};
			for (const c of cols) fields[c.id] = full[c.id] ?? null;
			return { id, fields };
		});
	}

	removeRecords(docId: string, tableId: string, ids: number[]): void {
		this.store.removeRows(this.table(docId, tableId), ids);
		this.seedWrite(docId);
	}

	addAttachment(
		docId: string,
		a: { fileName: string; data: Buffer; timeUploaded?: string },
	): number {
		return this.store.addAttachment(
			this.doc(docId),
			a.fileName,
			Buffer.from(a.data),
			a.timeUploaded,
		);
	}

	attachmentData(docId: string, id: number): Buffer | undefined {
		return this.doc(docId).attachments.get(id)?.data;
	}

	/** The demo site of ./demo-seed.ts (users, team site, workspaces, documents, rows). */
	seedDemo(): DemoSite {
		return seedDemoSite(this);
	}

	// ------------------------------------------------------------- test hooks
	fault(f: {
		method?: string;
		path?: string | RegExp;
		times?: number;
		status?: number;
		body?: unknown;
		drop?: boolean;
		delayMs?: number;
	}): void {
		this.faults.push({ ...f, times: f.times ?? 1 });
	}
	clearFaults(): void {
		this.faults = [];
	}
	clearLog(): void {
		this.log.length = 0;
	}
	setClock(fn: () => number): void {
		this.store.clock = fn;
	}
	/** The plan's daily API limit per document from now on (undefined: none); counts start again. */
	setDailyApiLimit(limit: number | undefined): void {
		this.dailyApiLimit = limit;
		this.apiUsage.clear();
	}

	/**
	 * grist-core's check: periods of the UTC day, hour and minute (on the emulator's clock). A
	 * request is let through while the current day's count is under the limit (it counts for the
	 * current day, hour and minute), else while the hour's is under a 24th of it (counting for the
	 * next day), else while the minute's is under a 1,440th (counting for the next day and hour);
	 * otherwise it is refused and counts nowhere.
	 */
	private dailyLimitExceeded(docId: string): boolean {
		const max = this.dailyApiLimit;
		if (max === undefined || max <= 0) return false;
		const now = this.store.clock();
		const periods = [
			{ length: 10, ms: 86_400_000, perDay: 1 },
			{ length: 13, ms: 3_600_000, perDay: 24 },
			{ length: 16, ms: 60_000, perDay: 1440 },
		];
		const key = (at: number, length: number) =>
			`${docId}|${new Date(at).toISOString().slice(0, length)}`;
		const keys = periods.map((p) => key(now, p.length));
		for (let i = 0; i < periods.length; i++) {
			const p = periods[i];
			if ((this.apiUsage.get(keys[i]) ?? 0) < Math.ceil(max / p.perDay)) {
				for (const k of keys) this.apiUsage.set(k, (this.apiUsage.get(k) ?? 0) + 1);
				return false;
			}
			keys[i] = key(now + p.ms, p.length);
		}
		return true;
	}

	private takeFault(method: string, apiPath: string): Fault | undefined {
		for (const f of this.faults) {
			if (f.times <= 0) continue;
			if (f.method && f.method.toUpperCase() !== method) continue;
			if (f.path !== undefined) {
				if (typeof f.path === 'string' ? f.path !== apiPath : !f.path.test(apiPath)) continue;
			}
			f.times--;
			this.faults = this.faults.filter((x) => x.times > 0);
			return f;
		}
		return undefined;
	}

	// ------------------------------------------------------------- request handling
	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const rawUrl = req.url ?? '/';
		const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(rawUrl);
		const u = new URL(absolute ? rawUrl : `http://x${rawUrl.startsWith('/') ? '' : '/'}${rawUrl}`);
		const hostHeader = (req.headers.host ?? (absolute ? u.host : '')).toLowerCase();
		const path = absolute ? u.pathname : rawUrl.split('?')[0];
		const query: Record<string, string> = {};
		for (const [k, v] of u.searchParams) query[k] = v;
		const prefix = path.match(/^\/o\/([^/]+)(\/.*)?$/);
		const pathOrg = prefix ? decodeURIComponent(prefix[1]) : undefined;
		const apiPath = prefix ? (prefix[2] ?? '/') : path;
		const entry: RequestLogEntry = {
			method,
			path,
			apiPath,
			query,
			host: req.headers.host ?? '',
			status: 0,
			bodyBytes: 0,
			hasAuthorization: req.headers.authorization !== undefined,
		};
		this.log.push(entry);
		if (this.opts.timing) {
			entry.at = Date.now();
			const arrived = performance.now();
			res.on('finish', () => (entry.ms = performance.now() - arrived));
		}
		let release: (() => void) | undefined;
		const respondError = (err: ApiError) => {
			entry.status = err.status;
			sendError(res, err);
		};
		try {
			// body (drained fully; stored up to the limit)
			const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
			const isMultipart = ctype.startsWith('multipart/form-data');
			const limit = isMultipart
				? this.opts.attachmentMaxBytes * 2 + 1024 * 1024
				: this.opts.bodyLimitBytes;
			const { buf, bytes } = await readBody(req, limit);
			entry.bodyBytes = bytes;
			// Grist's OAuth server: form bodies and client authentication of its own, never logged
			const oauth = this.oauth.handle({
				method,
				path: apiPath,
				query,
				authorization: req.headers.authorization,
				contentType: ctype,
				body: buf ?? undefined,
				origin: `http://${req.headers.host ?? hostHeader}`,
			});
			if (oauth) {
				entry.status = oauth.status;
				res.writeHead(oauth.status, oauth.headers);
				res.end(oauth.body);
				return;
			}
			let body: ParsedBody = { kind: 'none', json: {}, bytes }; // like body-parser: req.body defaults to {}
			let bodyError: ApiError | undefined;
			if (!buf) {
				bodyError = isMultipart
					? attachmentsTooLarge(this.opts.attachmentMaxBytes)
					: new ApiError(413, 'request entity too large');
			} else if (bytes > 0) {
				try {
					if (isMultipart) {
						const mp = parseMultipart(buf, String(req.headers['content-type']));
						body = { kind: 'multipart', files: mp.files, fields: mp.fields, bytes };
						if (this.opts.logBodies)
							entry.body = {
								files: mp.files.map((f) => ({
									field: f.field,
									fileName: f.fileName,
									size: f.data.length,
								})),
								fields: mp.fields,
							};
					} else if (ctype.includes('json') || ctype === '' || ctype.startsWith('text/plain')) {
						if (ctype.includes('json')) {
							body = { kind: 'json', json: parseJsonBody(buf), bytes };
							if (this.opts.logBodies) entry.body = body.json;
						} else {
							body = { kind: 'other', json: {}, bytes };
						}
					} else {
						body = { kind: 'other', json: {}, bytes };
					}
				} catch (e) {
					bodyError = e instanceof ApiError ? e : new ApiError(400, String(e));
				}
			}

			// faults and per-doc concurrency
			const fault = this.takeFault(method, apiPath);
			const docMatch = /^\/api\/docs\/[^/]+\/(access|move)$/.test(apiPath)
				? null // home-DB routes are not throttled
				: (apiPath.match(/^\/api\/docs\/([^/]+)\/./) ??
					(method === 'DELETE' ? apiPath.match(/^\/api\/docs\/([^/]+)\/?$/) : null));
			const docKey = docMatch ? decodeURIComponent(docMatch[1]) : undefined;
			if (docKey !== undefined) {
				const n = this.inflight.get(docKey) ?? 0;
				if (this.opts.maxParallelPerDoc > 0 && n >= this.opts.maxParallelPerDoc) {
					throw new ApiError(
						429,
						`Too many backlogged requests for document ${docKey} - try again later?`,
					);
				}
				this.inflight.set(docKey, n + 1);
				if (this.dailyLimitExceeded(docKey)) {
					this.inflight.set(docKey, n);
					throw new ApiError(429, `Exceeded daily limit for document ${docKey}`);
				}
				let released = false;
				release = () => {
					if (released) return;
					released = true;
					const left = (this.inflight.get(docKey) ?? 1) - 1;
					if (left <= 0) this.inflight.delete(docKey);
					else this.inflight.set(docKey, left);
				};
				res.on('close', release);
			}
			if (fault?.delayMs) {
				await new Promise<void>((r) => {
					const timer = setTimeout(() => {
						this.timers.delete(timer);
						r();
					}, fault.delayMs);
					this.timers.add(timer);
				});
				if (this.closed) return;
			}
			if (fault?.drop) {
				entry.status = 0;
				release?.();
				req.socket.destroy();
				return;
			}
			if (fault?.status) {
				entry.status = fault.status;
				sendJson(
					res,
					fault.status,
					fault.body !== undefined ? fault.body : defaultFaultBody(fault.status, docKey),
				);
				return;
			}

			// a request that reaches a document opens it, some restart its idle clock (webhooks.ts)
			const docSub = docKey !== undefined ? apiPath.match(/^\/api\/docs\/[^/]+(\/.+)$/) : null;
			if (docSub) {
				res.on('finish', () => {
					const doc = this.store.docByKey(docKey!);
					if (doc && ![401, 403, 404].includes(entry.status))
						webhooksOf(this.store).docRequest(doc.id, docActivity(method, docSub[1]));
				});
			}

			// host / org
			const scope = this.resolveScope(hostHeader, pathOrg);
			if (scope.kind === 'org') entry.org = scope.key;
			else if (scope.kind === 'merged') entry.org = 'docs';

			// auth
			const user = this.authenticate(req, method, apiPath);
			if (bodyError) throw bodyError;

			const ctx: Ctx = {
				req,
				res,
				method,
				apiPath,
				query,
				scope,
				user: user ?? this.store.anon,
				isAnon: !user,
				body,
				store: this.store,
				log: entry,
				opts: this.opts,
			};
			// Express routing is not strict: one trailing slash is ignored
			const routePath =
				apiPath.length > 1 && apiPath.endsWith('/') ? apiPath.slice(0, -1) : apiPath;
			for (const r of ROUTES) {
				if (r.method !== method) continue;
				const m = routePath.match(r.re);
				if (!m) continue;
				const out = await r.handler(ctx, m);
				if (out === RAW) {
					entry.status = res.statusCode;
					return;
				}
				entry.status = 200;
				// document history (history.ts): a write adds a state
				if (docKey !== undefined && method !== 'GET') {
					const doc = this.store.docByKey(docKey);
					if (doc) historyOf(this.store).note(doc, isWriteRequest(method, apiPath));
					if (doc && isWriteRequest(method, apiPath)) noteTimedWrite(this.store, doc, apiPath);
				}
				sendJson(res, 200, out);
				return;
			}
			throw new ApiError(404, `not found: ${apiPath}`);
		} catch (e) {
			if (e instanceof ApiError) respondError(e);
			else respondError(new ApiError(500, String((e as Error)?.message ?? e)));
		}
	}

	private resolveScope(hostHeader: string, pathOrg: string | undefined): Scope {
		if (this.opts.singleOrg) return { kind: 'org', key: this.opts.singleOrg };
		let hostname = hostHeader;
		if (hostname.startsWith('[')) hostname = hostname.slice(0, hostname.indexOf(']') + 1);
		else hostname = hostname.replace(/:\d+$/, '');
		const base = this.opts.baseDomain;
		if (!hostname || LOCAL_HOSTS.has(hostname) || hostname === base) {
			// `/o/docs` is the merged personal site, as `docs.<base>` (grist-core's mergedOrgDomain)
			if (pathOrg === 'docs' && !this.store.orgByKey('docs')) return { kind: 'merged' };
			return pathOrg ? { kind: 'org', key: pathOrg } : { kind: 'none' };
		}
		if (hostname.endsWith(`.${base}`)) {
			const sub = hostname.slice(0, -(base.length + 1));
			if (!sub.includes('.')) {
				if (pathOrg && pathOrg !== sub)
					throw new ApiError(
						400,
						`Wrong org for this domain: '${pathOrg}' does not match '${sub}'`,
					);
				return sub === 'docs' ? { kind: 'merged' } : { kind: 'org', key: sub };
			}
		}
		const org = this.store.orgByHost(hostname);
		if (!org) throw new ApiError(404, `Domain not recognized: ${hostname}`);
		if (pathOrg && pathOrg !== org.domain)
			throw new ApiError(
				400,
				`Wrong org for this domain: '${pathOrg}' does not match '${org.domain}'`,
			);
		return { kind: 'org', key: org.domain };
	}

	private authenticate(req: IncomingMessage, method: string, apiPath: string): User | undefined {
		const auth = req.headers.authorization;
		if (auth !== undefined) {
			const m = auth.match(/^\s*(\S+)(?:\s+(.*))?$/);
			if (!m || m[1].toLowerCase() !== 'bearer')
				throw new ApiError(401, "Bad request: unsupported Authorization scheme, expected 'Bearer'");
			const key = (m[2] ?? '').trim();
			if (key.startsWith('grist_at_')) {
				const grant = this.oauth.authenticate(key);
				this.oauth.checkRequest(grant, method, apiPath);
				const owner = this.store.users.get(grant.userId);
				if (!owner) throw new ApiError(401, 'Bad request: invalid access token');
				return owner;
			}
			const user = this.store.userByKey(key);
			if (!user) throw new ApiError(401, 'Bad request: invalid API key');
			checkServiceAccountKey(this.store, user);
			return user;
		}
		if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) {
			const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
			const xrw = String(req.headers['x-requested-with'] ?? '');
			if (!ctype.startsWith('application/json') && xrw.toLowerCase() !== 'xmlhttprequest')
				throw new ApiError(
					401,
					"Unauthenticated requests require one of the headers'Content-Type: application/json' or 'X-Requested-With: XMLHttpRequest'",
				);
		}
		return undefined;
	}
}

/**
 * Starts an emulator on 127.0.0.1 with a random port. With GRIST_TARGET=real (`npm run
 * test:real`) it returns instead the real-Grist facade (../harness/real-grist): the same
 * interface, a proxy to the real server at GRIST_URL and seeding helpers that call it.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<GristEmulator> {
	// loaded only in that mode: the emulator's CLI (cli.test.ts, `npm start`) is built without it
	if (process.env.GRIST_TARGET === 'real') {
		const { startRealGrist } = await import('../harness/real-grist');
		return (await startRealGrist(options)) as unknown as GristEmulator;
	}
	return await startEmulatorOn('127.0.0.1', 0, options);
}

/** Starts an emulator on a given host/port (used by the CLI). */
export async function startEmulatorOn(
	host: string,
	port: number,
	options: EmulatorOptions = {},
): Promise<GristEmulator> {
	const server = http.createServer({ keepAliveTimeout: 5000 });
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve());
	});
	return new GristEmulator(server, options);
}
