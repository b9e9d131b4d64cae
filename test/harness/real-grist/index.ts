/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness (a loopback proxy to a real Grist, and its seeding helpers), not node code */
/**
 * The real-Grist facade: what `startEmulator()` returns when GRIST_TARGET=real (`npm run
 * test:real`). It has the emulator's interface as the tests use it, so the same test files run
 * against a real Grist server (GRIST_URL, GRIST_API_KEY, GRIST_ORG; optional
 * GRIST_VIEWER_API_KEY / GRIST_VIEWER_EMAIL for a second account):
 *
 * - `url` / `port`: an HTTP proxy on 127.0.0.1 that forwards every request to GRIST_URL and
 *   records the emulator's request log (`log`: method, path, apiPath, query, host, org, status,
 *   body, bodyBytes, hasAuthorization; no `rowsScanned`, the cost model is the emulator's).
 *   On the way it maps the test's fake API keys to real ones (the first user the test adds is
 *   the account of GRIST_API_KEY, the second the account of GRIST_VIEWER_API_KEY; other keys pass
 *   unchanged, so the server refuses them) and the test's sites (`/o/<domain>/` of an `addOrg`
 *   or of `seedDemo`, and `/api/orgs/<domain>`) to GRIST_ORG; through HTTP_PROXY, a test
 *   site's team host (`<domain>.getgrist.com`) goes to GRIST_ORG, any other host reaches the server
 *   with its own Host header (so it answers "Domain not recognized" as it would). Request and answer bodies pass unchanged. `fault()` works as
 *   in the emulator where a proxy can do it: a status answer (the emulator's default bodies), a
 *   delay, a dropped connection.
 * - Seeding helpers (`addWorkspace`, `addDoc`, `addTable`, `addRecords`, `records`, …) call the
 *   real server synchronously (./sync-http.ts) with the owner's key. Workspaces are created in
 *   GRIST_ORG, named `<run prefix> <name>`; a document is created empty (Grist's `Table1` is
 *   removed, as the emulator's `addDoc` makes no table). They return the real ids and names.
 * - Identities the test chose and a real server cannot have (more than two accounts, users'
 *   names and emails, team sites by domain, documents with a chosen id) are the real ones:
 *   `addUser` returns the real account's id and email; `addOrg` returns GRIST_ORG's id with the
 *   test's domain (the proxy maps it).
 * - `webhooks` answers `list`, `idle` and `configure({ allowedDomains: '*' })` through the real
 *   server's GET /webhooks; `setClock`, the webhook service's internals and `oauth` (the
 *   emulator's OAuth server) throw: tests that need them are `emulatorOnly` (../target.ts).
 * - `addTable(…, { summarySourceTable })` makes the summary table as Grist's UI does.
 * - `close()` deletes, for good, the workspaces and documents this instance made, and those the
 *   tests made through the proxy (creations it saw answered; service accounts too), and restores
 *   the site's sharing and name.
 *   Every creation is also appended to the run's ledger file (GRIST_REAL_LEDGER), which
 *   scripts/test-real.mjs sweeps at the end of the run with every workspace named with the run's
 *   prefix, so an interrupted run leaves nothing behind either.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

import type { DemoSite, EmulatorOptions, RequestLogEntry } from '../../emulator/index';
import { seedDemoSite } from '../../emulator/demo-seed';
import { parseJsonBody, parseMultipart } from '../../emulator/http';
import { closeSyncHttp, syncRequest, type SyncResponse } from './sync-http';
import { until } from '../until';

/** The real server, from the environment scripts/test-real.mjs passes on. */
export interface RealGristConfig {
	url: string;
	apiKey: string;
	org: string;
	viewerApiKey?: string;
	viewerEmail?: string;
	/** Names every workspace this run makes (`n8nt-<time>-<random>`); the sweep finds them by it. */
	runPrefix: string;
	ledger?: string;
}

export function realGristConfig(): RealGristConfig {
	const url = (process.env.GRIST_URL ?? '').replace(/\/+$/, '');
	const apiKey = process.env.GRIST_API_KEY ?? '';
	if (!url || !apiKey)
		throw new Error(
			'GRIST_TARGET=real needs GRIST_URL and GRIST_API_KEY (see docs/DEVELOPMENT.md)',
		);
	return {
		url,
		apiKey,
		org: process.env.GRIST_ORG || 'docs',
		viewerApiKey: process.env.GRIST_VIEWER_API_KEY || undefined,
		viewerEmail: process.env.GRIST_VIEWER_EMAIL || undefined,
		// kept in the environment: workspaceName() (../target.ts) names workspaces with it
		runPrefix: (process.env.GRIST_RUN_PREFIX ||= `n8nt-${Date.now()}-${process.pid}`),
		ledger: process.env.GRIST_REAL_LEDGER || undefined,
	};
}

/** GRIST_ORG's id and domain; `docs` (Grist's merged personal site, id 0) is the owner's personal site. */
export function realSite(cfg: RealGristConfig, ownerId: number): { id: number; domain: string } {
	const res = syncRequest({
		method: 'GET',
		url: `${cfg.url}/api/orgs`,
		headers: { Authorization: `Bearer ${cfg.apiKey}` },
	});
	const orgs = (res.json ?? []) as Array<{
		id: number;
		domain: string | null;
		owner?: { id: number } | null;
	}>;
	const org = orgs.find((o) =>
		cfg.org === 'docs' ? o.owner?.id === ownerId : o.domain === cfg.org || String(o.id) === cfg.org,
	);
	if (res.status !== 200 || !org?.domain)
		throw new Error(`real Grist: site ${cfg.org} not found among the key's sites (${res.status})`);
	return { id: org.id, domain: org.domain };
}

interface Account {
	key: string;
	id: number;
	email: string;
	name: string;
}

interface TestUser {
	/** The key the test uses (its own, or one made here like the emulator's). */
	key: string;
	email: string;
	account?: Account;
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

/** The emulator's answers to injected faults (index.ts), so fault tests read the same bodies. */
function defaultFaultBody(status: number, docId: string | undefined): unknown {
	if (status === 429)
		return {
			error: `Too many backlogged requests for document ${docId ?? 'unknown'} - try again later?`,
		};
	if (status === 503) return { error: 'Document in flux - try again later' };
	return { error: `Injected fault (${status})` };
}

/** Options that make the emulator behave unlike a default server; a real one cannot be told. */
const EMULATOR_SWITCHES = [
	'bodyLimitBytes',
	'attachmentMaxBytes',
	'singleOrg',
	'baseDomain',
] as const;

export class RealGrist {
	url = '';
	port = 0;
	readonly log: RequestLogEntry[] = [];
	private server: http.Server;
	private sockets = new Set<Socket>();
	private timers = new Set<ReturnType<typeof setTimeout>>();
	private faults: Fault[] = [];
	private readonly agent: http.Agent;
	private readonly upstream: URL;
	private readonly owner: Account;
	private readonly viewer?: Account;
	private readonly orgId: number;
	/**
	 * GRIST_ORG's own domain: `docs` (the merged personal site, id 0 in Grist's answers) is the
	 * owner's personal site, `docs-<userId>`, so that its id is the one `addOrg` returns.
	 */
	private readonly orgDomain: string;
	private users: TestUser[] = [];
	/** Test site domains the proxy maps to GRIST_ORG. */
	private sites = new Set<string>();
	private workspaces = new Set<number>();
	private docs = new Set<string>();
	/** Service accounts the tests created through the proxy, deleted on close. */
	private serviceAccounts = new Set<number>();
	/** The site's sharing when this instance started (email → role), restored on close. */
	private readonly orgAccessBefore: Map<string, string | null>;
	/** The site's name when this instance started, restored on close (tests rename the site). */
	private readonly orgNameBefore: string;
	private closed = false;

	constructor(private readonly cfg: RealGristConfig) {
		this.upstream = new URL(cfg.url);
		this.agent = new (this.upstream.protocol === 'https:' ? https : http).Agent({
			keepAlive: true,
		});
		this.owner = this.account(cfg.apiKey, 'GRIST_API_KEY');
		if (cfg.viewerApiKey) this.viewer = this.account(cfg.viewerApiKey, 'GRIST_VIEWER_API_KEY');
		const site = realSite(cfg, this.owner.id);
		this.orgId = site.id;
		this.orgDomain = site.domain;
		this.orgAccessBefore = this.orgAccess();
		this.orgNameBefore = (
			this.call('GET', `/api/orgs/${this.orgId}`).json as { name: string }
		).name;
		// The viewer cases need an account whose access comes from what each test shares with it.
		const inherited = this.viewer && this.orgAccessBefore.get(this.viewer.email.toLowerCase());
		if (inherited)
			throw new Error(
				`real Grist: GRIST_VIEWER_EMAIL has ${inherited} access to the whole site ${site.domain}; the viewer cases need an account that is not a member of the site`,
			);
		this.server = http.createServer({ keepAliveTimeout: 5000 });
		this.server.on('connection', (s: Socket) => {
			this.sockets.add(s);
			s.on('close', () => this.sockets.delete(s));
		});
		this.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
			this.handle(req, res).catch((e) => {
				if (!res.headersSent) {
					res.writeHead(502, { 'Content-Type': 'application/json' });
					res.end(JSON.stringify({ error: `real-Grist proxy: ${String(e?.message ?? e)}` }));
				} else res.destroy();
			});
		});
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(0, '127.0.0.1', () => resolve());
		});
		const addr = this.server.address();
		this.port = typeof addr === 'object' && addr ? addr.port : 0;
		this.url = `http://127.0.0.1:${this.port}`;
	}

	// ------------------------------------------------------------- calls to the real server
	/** A call with the owner's key (or `key`) under GRIST_ORG's `/o/<org>` prefix; throws unless 2xx. */
	private call(
		method: string,
		path: string,
		body?: { json?: unknown; raw?: Buffer; type?: string },
		key = this.cfg.apiKey,
		allow: number[] = [],
	): SyncResponse {
		const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
		if (body?.type) headers['Content-Type'] = body.type;
		const res = syncRequest({
			method,
			url: `${this.cfg.url}/o/${this.orgDomain ?? this.cfg.org}${path}`,
			headers,
			json: body?.json,
			body: body?.raw,
		});
		if ((res.status < 200 || res.status > 299) && !allow.includes(res.status))
			throw new Error(`real Grist: ${method} ${path} answered ${res.status} ${res.text}`);
		return res;
	}

	private account(key: string, name: string): Account {
		// The home server can answer 503 for a moment after it starts: retry a few times.
		for (let i = 0; ; i++) {
			const res = syncRequest({
				method: 'GET',
				url: `${this.cfg.url}/api/profile/user`,
				headers: { Authorization: `Bearer ${key}` },
			});
			if (res.status === 200) {
				const u = res.json as { id: number; email: string; name: string };
				return { key, id: u.id, email: u.email, name: u.name };
			}
			if (res.status !== 503 || i >= 10)
				throw new Error(`real Grist: ${name} is refused (${res.status} ${res.text})`);
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
		}
	}

	/** The site's members and their roles (emails in lower case), guests left out. */
	private orgAccess(): Map<string, string | null> {
		const users = (
			this.call('GET', `/api/orgs/${this.orgId}/access`).json as {
				users: Array<{ email: string; access: string | null }>;
			}
		).users;
		// `guests` is not a role one sets: it follows from a share inside the site
		return new Map(
			users.filter((u) => u.access !== 'guests').map((u) => [u.email.toLowerCase(), u.access]),
		);
	}

	private remember(kind: 'workspace' | 'doc' | 'service-account', id: number | string): void {
		if (kind === 'workspace') this.workspaces.add(Number(id));
		else if (kind === 'service-account') this.serviceAccounts.add(Number(id));
		else this.docs.add(String(id));
		if (this.cfg.ledger) appendFileSync(this.cfg.ledger, `${kind} ${id}\n`);
	}

	/** The real email of a test user's account (a user with no account keeps the test's email). */
	private realEmail(email: string): string {
		const u = this.users.find((x) => x.email.toLowerCase() === email.toLowerCase());
		return u?.account?.email ?? email;
	}

	// ------------------------------------------------------------- seeding (the emulator's interface)
	addUser(u: { email: string; name?: string; apiKey?: string }): {
		id: number;
		email: string;
		name: string;
		apiKey: string;
	} {
		// The same email again is the same user with a new key (the emulator replaces the key).
		let user = this.users.find((x) => x.email.toLowerCase() === u.email.toLowerCase());
		if (!user) {
			const bound = this.users.filter((x) => x.account).length;
			const account = bound === 0 ? this.owner : bound === 1 ? this.viewer : undefined;
			user = { key: '', email: u.email, account };
			this.users.push(user);
		}
		user.key = u.apiKey ?? randomBytes(20).toString('hex');
		const a = user.account;
		return {
			id: a?.id ?? -1,
			email: a?.email ?? u.email,
			name: a?.name ?? u.name ?? u.email.split('@')[0],
			apiKey: user.key,
		};
	}

	/** Any test site is GRIST_ORG (its id, the test's domain: the proxy maps `/o/<domain>/`). */
	addOrg(o: { name: string; domain: string; owner?: string; host?: string; personal?: boolean }): {
		id: number;
		domain: string;
		name: string;
	} {
		if (o.host) throw new Error('real Grist: an org with its own host is emulator-only');
		this.sites.add(o.domain);
		return { id: this.orgId, domain: o.domain, name: o.name };
	}

	addWorkspace(
		_org: number | string,
		name: string,
		opts?: { owner?: string },
	): { id: number; name: string } {
		const realName = `${this.cfg.runPrefix} ${name}`;
		const id = this.call('POST', `/api/orgs/${this.orgId}/workspaces`, { json: { name: realName } })
			.json as number;
		this.remember('workspace', id);
		if (opts?.owner) this.setAccess('workspace', id, opts.owner, 'owners');
		return { id, name: realName };
	}

	addDoc(
		workspaceId: number,
		d: { name: string; id?: string; urlId?: string; isPinned?: boolean; owner?: string },
	): { id: string; name: string; urlId: string | null } {
		if (d.id) throw new Error('real Grist: a document with a chosen id is emulator-only');
		const id = this.call('POST', `/api/workspaces/${workspaceId}/docs`, { json: { name: d.name } })
			.json as string;
		this.remember('doc', id);
		// Grist's new document has Table1; the emulator's addDoc makes an empty one.
		this.call('POST', `/api/docs/${id}/apply`, { json: [['RemoveTable', 'Table1']] });
		if (d.urlId) this.call('PATCH', `/api/docs/${id}`, { json: { urlId: d.urlId } });
		if (d.isPinned) this.call('PATCH', `/api/docs/${id}/pin`);
		if (d.owner) this.setAccess('doc', id, d.owner, 'owners');
		return { id, name: d.name, urlId: d.urlId ?? null };
	}

	setAccess(
		kind: 'org' | 'workspace' | 'doc',
		ref: number | string,
		email: string,
		role: 'owners' | 'editors' | 'viewers' | 'members' | null,
	): void {
		const who = this.realEmail(email);
		if (who.toLowerCase() === this.owner.email.toLowerCase()) return; // the owner owns it all already
		let path: string;
		if (kind === 'org') {
			path = `/api/orgs/${this.orgId}/access`;
		} else
			path = kind === 'workspace' ? `/api/workspaces/${ref}/access` : `/api/docs/${ref}/access`;
		this.call('PATCH', path, { json: { delta: { users: { [who]: role } } } });
	}

	/**
	 * The emulator's `restrictHistory`: an access rule that hides the first user table's first
	 * column from non-owners (so their /compare is 403 `insufficient access`).
	 */
	restrictHistory(docId: string): void {
		const tables = this.call('GET', `/api/docs/${docId}/tables`).json as {
			tables: Array<{ id: string }>;
		};
		const tableId = tables.tables[0].id;
		const cols = this.call('GET', `/api/docs/${docId}/tables/${tableId}/columns`).json as {
			columns: Array<{ id: string }>;
		};
		this.call('POST', `/api/docs/${docId}/apply`, {
			json: [
				['AddRecord', '_grist_ACLResources', -1, { tableId, colIds: cols.columns[0].id }],
				[
					'AddRecord',
					'_grist_ACLRules',
					null,
					{ resource: -1, aclFormula: 'user.Access != OWNER', permissionsText: '-R' },
				],
			],
		});
	}

	setMaxInheritedRole(
		kind: 'workspace' | 'doc',
		ref: number | string,
		role: 'owners' | 'editors' | 'viewers' | null,
	): void {
		const path = kind === 'workspace' ? `/api/workspaces/${ref}/access` : `/api/docs/${ref}/access`;
		this.call('PATCH', path, { json: { delta: { maxInheritedRole: role } } });
	}

	/** Column ids of a table with their colRefs (for `visibleCol` given as a column id). */
	private colRefs(docId: string, tableId: string): Map<string, number> {
		const cols = (
			this.call('GET', `/api/docs/${docId}/tables/${tableId}/columns?hidden=true`).json as {
				columns: Array<{ id: string; fields: { colRef: number } }>;
			}
		).columns;
		return new Map(cols.map((c) => [c.id, c.fields.colRef]));
	}

	/** POST /tables with the columns' type, label, formula, widgetOptions and visibleCol. */
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
		if (opts?.summarySourceTable) return this.addSummaryTable(docId, tableId, columns, opts);
		const cols = columns.map((c) => {
			const isFormula = c.isFormula ?? Boolean(c.formula);
			const fields: Record<string, unknown> = {
				type: c.type ?? (isFormula ? 'Any' : 'Text'),
				isFormula,
			};
			if (c.label !== undefined) fields.label = c.label;
			if (c.formula !== undefined) fields.formula = c.formula;
			if (c.widgetOptions !== undefined)
				fields.widgetOptions =
					typeof c.widgetOptions === 'string' ? c.widgetOptions : JSON.stringify(c.widgetOptions);
			if (typeof c.visibleCol === 'number') fields.visibleCol = c.visibleCol;
			else if (typeof c.visibleCol === 'string') {
				const target = (c.type ?? '').split(':')[1] ?? '';
				const ref = this.colRefs(docId, target).get(c.visibleCol);
				if (!ref) throw new Error(`real Grist: visibleCol ${c.visibleCol} not found`);
				fields.visibleCol = ref;
			}
			return { id: c.id, fields };
		});
		const made = this.call('POST', `/api/docs/${docId}/tables`, {
			json: { tables: [{ id: tableId, columns: cols }] },
		}).json as { tables: Array<{ id: string }> };
		if (made.tables[0]?.id !== tableId)
			throw new Error(`real Grist: table ${tableId} was created as ${made.tables[0]?.id}`);
		// POST /tables (AddTable) drops visibleCol (useractions.py doAddTable keeps only type,
		// isFormula, formula, label and widgetOptions; measured on grist-core 1.7.17), and Grist
		// parses a reference string by the column's visibleCol (ValueParser.ts), so set it with
		// ModifyColumn; then the display column, which Grist's UI sets with SetDisplayFormula.
		const shown = columns.filter((c) => c.visibleCol !== undefined);
		if (shown.length) {
			const refs = this.colRefs(docId, tableId);
			const actions = shown.flatMap((c) => {
				const target = (c.type ?? '').split(':')[1] ?? '';
				const visible =
					typeof c.visibleCol === 'string'
						? c.visibleCol
						: [...this.colRefs(docId, target)].find(([, ref]) => ref === c.visibleCol)?.[0];
				return [
					[
						'ModifyColumn',
						tableId,
						c.id,
						{ visibleCol: cols.find((x) => x.id === c.id)?.fields.visibleCol },
					],
					['SetDisplayFormula', tableId, null, refs.get(c.id), `$${c.id}.${visible}`],
				];
			});
			this.call('POST', `/api/docs/${docId}/apply`, { json: actions });
		}
		// AddTable drops recalcWhen too: a trigger formula is set on the made column, as Grist's
		// "Column behavior → Set trigger formula" does
		const triggers = columns.filter((c) => c.recalcWhen !== undefined);
		if (triggers.length)
			this.call('POST', `/api/docs/${docId}/apply`, {
				json: triggers.map((c) => ['ModifyColumn', tableId, c.id, { recalcWhen: c.recalcWhen }]),
			});
	}

	/**
	 * A summary table as Grist's UI makes one: CreateViewSection on the source table grouped by the
	 * given columns (Grist adds `group` and `count`, and names it `<Source>_summary_<cols>`).
	 */
	private addSummaryTable(
		docId: string,
		tableId: string,
		columns: Array<{ id: string }>,
		opts: { summarySourceTable?: string },
	): void {
		const source = opts.summarySourceTable ?? '';
		const tables = (
			this.call('GET', `/api/docs/${docId}/tables`).json as {
				tables: Array<{ id: string; fields: { tableRef: number } }>;
			}
		).tables;
		const tableRef = tables.find((t) => t.id === source)?.fields.tableRef;
		if (!tableRef) throw new Error(`real Grist: summary source table ${source} not found`);
		const refs = this.colRefs(docId, source);
		const groupBy = columns.map((c) => {
			const ref = refs.get(c.id);
			if (!ref) throw new Error(`real Grist: group-by column ${source}.${c.id} not found`);
			return ref;
		});
		this.call('POST', `/api/docs/${docId}/apply`, {
			json: [['CreateViewSection', tableRef, 0, 'record', groupBy, null]],
		});
		const after = (
			this.call('GET', `/api/docs/${docId}/tables`).json as { tables: Array<{ id: string }> }
		).tables;
		if (!after.some((t) => t.id === tableId))
			throw new Error(
				`real Grist: the summary table of ${source} is not ${tableId} (${after.map((t) => t.id).join(', ')})`,
			);
	}

	/** Rows in Grist's stored encoding (BulkAddRecord: no parsing), with their `id` when given. */
	addRecords(docId: string, tableId: string, rows: Array<Record<string, unknown>>): number[] {
		const out: number[] = [];
		// As the emulator's addRecords: a field a row does not name holds its column's default. A
		// BulkAddRecord gives null to a column that only other rows name, so each run of rows with
		// the same fields is one action; one /apply (one action bundle) per chunk.
		const fieldSet = (r: Record<string, unknown>) =>
			Object.keys(r)
				.filter((k) => k !== 'id')
				.sort()
				.join('\n');
		for (let i = 0; i < rows.length; i += 500) {
			const runs: Array<Array<Record<string, unknown>>> = [];
			for (const row of rows.slice(i, i + 500)) {
				const last = runs[runs.length - 1];
				if (last && fieldSet(last[0]) === fieldSet(row)) last.push(row);
				else runs.push([row]);
			}
			const actions = runs.map((run) => {
				const values: Record<string, unknown[]> = {};
				for (const c of Object.keys(run[0]).filter((k) => k !== 'id'))
					values[c] = run.map((r) => r[c]);
				return [
					'BulkAddRecord',
					tableId,
					run.map((r) => (typeof r.id === 'number' ? r.id : null)),
					values,
				];
			});
			const res = this.call('POST', `/api/docs/${docId}/apply`, { json: actions }).json as {
				retValues: number[][];
			};
			for (const ids of res.retValues) out.push(...ids);
		}
		return out;
	}

	records(docId: string, tableId: string): Array<{ id: number; fields: Record<string, unknown> }> {
		return (
			this.call('GET', `/api/docs/${docId}/tables/${tableId}/records`).json as {
				records: Array<{ id: number; fields: Record<string, unknown> }>;
			}
		).records;
	}

	removeRecords(docId: string, tableId: string, ids: number[]): void {
		this.call('POST', `/api/docs/${docId}/apply`, { json: [['BulkRemoveRecord', tableId, ids]] });
	}

	/** Uploads through POST /attachments (Grist sets timeUploaded itself: a given one is ignored). */
	addAttachment(
		docId: string,
		a: { fileName: string; data: Buffer; timeUploaded?: string },
	): number {
		const boundary = `----real-grist-${randomBytes(8).toString('hex')}`;
		const raw = Buffer.concat([
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="${a.fileName.replace(/"/g, '%22')}"\r\n` +
					'Content-Type: application/octet-stream\r\n\r\n',
			),
			Buffer.from(a.data),
			Buffer.from(`\r\n--${boundary}--\r\n`),
		]);
		const ids = this.call('POST', `/api/docs/${docId}/attachments`, {
			raw,
			type: `multipart/form-data; boundary=${boundary}`,
		}).json as number[];
		return ids[0];
	}

	attachmentData(docId: string, id: number): Buffer | undefined {
		const res = this.call(
			'GET',
			`/api/docs/${docId}/attachments/${id}/download`,
			undefined,
			undefined,
			[404],
		);
		return res.status === 404 ? undefined : res.body;
	}

	/**
	 * The emulator's demo site (../../emulator/demo-seed.ts) on the real server: two workspaces in
	 * GRIST_ORG with the same documents, tables and rows; the owner is GRIST_API_KEY's account, the
	 * viewer (viewer of both workspaces) GRIST_VIEWER_API_KEY's. The editor has no account: its key
	 * is refused.
	 */
	seedDemo(): DemoSite {
		return seedDemoSite(this, {
			// the second user binds the second account: the viewer, so it comes before the editor
			userOrder: ['owner', 'viewer', 'editor'],
			// Shared on the workspaces, not the site: a run must not change who may see the rest of it.
			shareOn: 'workspace',
			members: this.viewer ? ['viewer'] : [],
		});
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
	setClock(): never {
		throw new Error('real Grist: the clock is the server’s (setClock is emulator-only)');
	}
	/**
	 * What of the emulator's webhook service a real server can answer, through its API with the
	 * owner's key: `list` (GET /webhooks, each webhook's fields flattened with its id and usage),
	 * `idle` (until no document this instance knows has a delivery waiting), `configure` (only
	 * `allowedDomains: '*'`, which test:real's server has). Its internals (hooks, deliveries,
	 * queues) stay the emulator's.
	 */
	get webhooks(): {
		configure(c: { allowedDomains?: string }): void;
		list(docId: string): Array<Record<string, unknown> & { id: string }>;
		idle(timeoutMs?: number): Promise<void>;
	} {
		const list = (docId: string) =>
			(
				this.call('GET', `/api/docs/${docId}/webhooks`).json as {
					webhooks: Array<{
						id: string;
						fields: Record<string, unknown>;
						usage: { numWaiting?: number; status?: string } | null;
					}>;
				}
			).webhooks.map((w) => ({ ...w.fields, id: w.id, docId, usage: w.usage }));
		return {
			configure: (c) => {
				if (c.allowedDomains !== undefined && c.allowedDomains !== '*')
					throw new Error(
						'real Grist: ALLOWED_WEBHOOK_DOMAINS is the server’s own setting (emulator-only)',
					);
			},
			list,
			idle: async (timeoutMs = 20_000) => {
				const busy = () =>
					[...this.docs].some((d) => {
						const res = this.call(
							'GET',
							`/api/docs/${d}/webhooks`,
							undefined,
							undefined,
							[403, 404],
						);
						if (res.status !== 200) return false;
						return (
							res.json as { webhooks: Array<{ usage: { numWaiting?: number } | null }> }
						).webhooks.some((w) => (w.usage?.numWaiting ?? 0) > 0);
					});
				await until(
					'real Grist has no webhook delivery waiting (emu.webhooks.idle)',
					() => !busy(),
					{
						timeoutMs,
						intervalMs: 50,
					},
				);
			},
		};
	}
	get oauth(): never {
		throw new Error('real Grist: emu.oauth is the emulator’s OAuth server (emulator-only)');
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

	// ------------------------------------------------------------- the proxy
	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const rawUrl = req.url ?? '/';
		const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(rawUrl);
		const u = new URL(absolute ? rawUrl : `http://x${rawUrl.startsWith('/') ? '' : '/'}${rawUrl}`);
		const path = absolute ? u.pathname : rawUrl.split('?')[0];
		const query: Record<string, string> = {};
		for (const [k, v] of u.searchParams) query[k] = v;
		const prefix = path.match(/^\/o\/([^/]+)(\/.*)?$/);
		const pathOrg = prefix ? decodeURIComponent(prefix[1]) : undefined;
		const apiPath = prefix ? (prefix[2] ?? '/') : path;
		const host = req.headers.host ?? '';
		const entry: RequestLogEntry = {
			method,
			path,
			apiPath,
			query,
			host,
			status: 0,
			bodyBytes: 0,
			hasAuthorization: req.headers.authorization !== undefined,
		};
		const hostname = host.replace(/:\d+$/, '').toLowerCase();
		if (pathOrg && (!hostname || LOCAL_HOSTS.has(hostname))) entry.org = pathOrg;
		this.log.push(entry);

		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const buf = Buffer.concat(chunks);
		entry.bodyBytes = buf.length;
		const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
		try {
			if (buf.length > 0 && ctype.startsWith('multipart/form-data')) {
				const mp = parseMultipart(buf, String(req.headers['content-type']));
				entry.body = {
					files: mp.files.map((f) => ({
						field: f.field,
						fileName: f.fileName,
						size: f.data.length,
					})),
					fields: mp.fields,
				};
			} else if (buf.length > 0 && ctype.includes('json')) entry.body = parseJsonBody(buf);
		} catch {
			// a body the server will refuse: logged without `body`, as the emulator does
		}

		const fault = this.takeFault(method, apiPath);
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
			req.socket.destroy();
			return;
		}
		if (fault?.status) {
			const docId = apiPath.match(/^\/api\/docs\/([^/]+)/)?.[1];
			entry.status = fault.status;
			const body = fault.body !== undefined ? fault.body : defaultFaultBody(fault.status, docId);
			res.writeHead(fault.status, { 'Content-Type': 'application/json; charset=utf-8' });
			res.end(JSON.stringify(body));
			return;
		}

		// the test's site is GRIST_ORG (in /o/<domain>/ and in /api/orgs/<domain>); the test's
		// keys are the accounts' keys. A host reached through the proxy (HTTP_PROXY, a request in
		// absolute form): a test site's team host (`<domain>.<base>`) is GRIST_ORG too; any other
		// host is passed on as it is, so the server answers for it as it would ("Domain not
		// recognized" from a server that does not know it).
		const proxiedHost = absolute && !LOCAL_HOSTS.has(u.hostname) ? u.hostname : undefined;
		const teamHost =
			proxiedHost !== undefined &&
			proxiedHost.includes('.') &&
			this.sites.has(proxiedHost.split('.')[0]);
		const orgPart =
			pathOrg === undefined
				? teamHost
					? `/o/${this.orgDomain}`
					: ''
				: `/o/${this.sites.has(pathOrg) ? this.orgDomain : encodeURIComponent(pathOrg)}`;
		const forwardPath = (prefix ? apiPath : path).replace(/^\/api\/orgs\/([^/]+)/, (m, d) =>
			this.sites.has(decodeURIComponent(d)) ? `/api/orgs/${this.orgDomain}` : m,
		);
		const search = absolute
			? u.search
			: rawUrl.includes('?')
				? rawUrl.slice(rawUrl.indexOf('?'))
				: '';
		const headers: http.OutgoingHttpHeaders = {
			...req.headers,
			host:
				proxiedHost !== undefined && !teamHost ? (req.headers.host ?? u.host) : this.upstream.host,
		};
		delete headers.connection;
		delete headers['proxy-connection'];
		delete headers['transfer-encoding'];
		headers['content-length'] = String(buf.length);
		const auth = req.headers.authorization?.match(/^\s*bearer\s+(.*)$/i);
		if (auth) {
			const user = this.users.find((x) => x.key === auth[1].trim());
			if (user?.account) headers.authorization = `Bearer ${user.account.key}`;
		}
		const basePath = this.upstream.pathname.replace(/\/+$/, '');
		const upstream = await new Promise<{
			status: number;
			headers: http.IncomingHttpHeaders;
			body: Buffer;
		}>((resolve, reject) => {
			const out = (this.upstream.protocol === 'https:' ? https : http).request(
				{
					protocol: this.upstream.protocol,
					hostname: this.upstream.hostname,
					port: this.upstream.port,
					method,
					path: `${basePath}${orgPart}${forwardPath}${search}`,
					headers,
					agent: this.agent,
				},
				(r) => {
					const parts: Buffer[] = [];
					r.on('data', (c: Buffer) => parts.push(c));
					r.on('end', () =>
						resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(parts) }),
					);
					r.on('error', reject);
				},
			);
			out.on('error', reject);
			out.end(buf);
		});
		entry.status = upstream.status;
		this.noteCreation(method, apiPath, upstream.status, upstream.body);
		const outHeaders = { ...upstream.headers };
		delete outHeaders['transfer-encoding'];
		delete outHeaders.connection;
		delete outHeaders['keep-alive'];
		outHeaders['content-length'] = String(upstream.body.length);
		res.writeHead(upstream.status, outHeaders);
		res.end(upstream.body);
	}

	/** Workspaces and documents the tests create through the proxy, deleted on close. */
	private noteCreation(method: string, apiPath: string, status: number, body: Buffer): void {
		if (method !== 'POST' || status !== 200) return;
		let value: unknown;
		try {
			value = JSON.parse(body.toString('utf8'));
		} catch {
			return;
		}
		if (/^\/api\/orgs\/[^/]+\/workspaces\/?$/.test(apiPath) && typeof value === 'number')
			this.remember('workspace', value);
		else if (/^\/api\/service-accounts\/?$/.test(apiPath)) {
			const id = (value as { id?: unknown })?.id;
			if (typeof id === 'number') this.remember('service-account', id);
		} else if (
			/^\/api\/(workspaces\/[^/]+\/(docs|import)|docs|docs\/[^/]+\/copy)\/?$/.test(apiPath)
		) {
			const id = typeof value === 'string' ? value : (value as { id?: unknown })?.id;
			if (typeof id === 'string') this.remember('doc', id);
		}
	}

	/** Deletes what this instance made (documents, then workspaces) and restores the site's sharing. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		await new Promise<void>((resolve) => {
			for (const s of this.sockets) s.destroy();
			this.server.close(() => resolve());
		});
		this.agent.destroy();
		const problems: string[] = [];
		const attempt = (method: string, path: string, body?: unknown) => {
			try {
				this.call(method, path, body === undefined ? undefined : { json: body }, undefined, [404]);
			} catch (e) {
				problems.push((e as Error).message);
			}
		};
		for (const id of this.docs) attempt('DELETE', `/api/docs/${id}`);
		for (const id of this.workspaces) attempt('DELETE', `/api/workspaces/${id}`);
		for (const id of this.serviceAccounts) attempt('DELETE', `/api/service-accounts/${id}`);
		// the site's name as it was (an org rename test renames GRIST_ORG)
		try {
			const name = (this.call('GET', `/api/orgs/${this.orgId}`).json as { name: string }).name;
			if (name !== this.orgNameBefore)
				attempt('PATCH', `/api/orgs/${this.orgId}`, { name: this.orgNameBefore });
		} catch (e) {
			problems.push((e as Error).message);
		}
		// the site's sharing as it was (setAccess('org') and tests that share the site change it)
		try {
			const now = this.orgAccess();
			const emails = new Set([...now.keys(), ...this.orgAccessBefore.keys()]);
			const delta: Record<string, string | null> = {};
			for (const e of emails)
				if ((now.get(e) ?? null) !== (this.orgAccessBefore.get(e) ?? null))
					delta[e] = this.orgAccessBefore.get(e) ?? null;
			if (Object.keys(delta).length)
				attempt('PATCH', `/api/orgs/${this.orgId}/access`, { delta: { users: delta } });
		} catch (e) {
			problems.push((e as Error).message);
		}
		this.docs.clear();
		this.workspaces.clear();
		await closeSyncHttp();
		// what could not be deleted stays in the ledger for the run's sweep
		if (problems.length) process.stderr.write(`real Grist clean-up:\n${problems.join('\n')}\n`);
	}
}

/** startEmulator() in real mode: the facade, listening on 127.0.0.1. */
export async function startRealGrist(options: EmulatorOptions = {}): Promise<RealGrist> {
	for (const k of EMULATOR_SWITCHES)
		if (options[k] !== undefined) throw new Error(`real Grist: option ${k} is an emulator switch`);
	if (options.maxParallelPerDoc)
		throw new Error('real Grist: option maxParallelPerDoc is an emulator switch');
	// allowedWebhookDomains: the server's own ALLOWED_WEBHOOK_DOMAINS applies (the real-mode setup
	// needs `*`, README); webhookRetryDelaysMs: the server's own delays apply; logBodies, timing:
	// the proxy logs bodies always, and no timing.
	const g = new RealGrist(realGristConfig());
	await g.listen();
	return g;
}
