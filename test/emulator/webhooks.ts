/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * Grist's webhooks (reference §10 "Webhooks" and "Webhook delivery"; grist-core's
 * app/server/lib/Triggers.ts, DocApiTriggers.ts, requestUtils.ts isUrlAllowed): the registrations
 * of each document, the events that row writes produce, and their delivery.
 *
 * - Events: actions.ts reports every add and real update of rows (`noteRows`); the rows touched
 *   by one request are collected and turned into events once the request's handler has run
 *   (one "action bundle": one POST per webhook per request). A row is sent when it is ready
 *   (`isReadyColumn` true, or no ready column); it is an `add` when it was not ready before
 *   (new, or its ready cell just became true), else an `update`, which with `watchedColIds` needs
 *   one of those columns to have changed. Deleting rows sends nothing. Disabled webhooks get
 *   nothing. Then the webhook's `condition` (webhook-conditions.ts), on the rows with formula
 *   columns; the before-values of a request's rows past the first 10 are the current ones unless
 *   some webhook of the document watches columns (Grist keeps 10 per bulk action).
 * - Payload: a JSON array of flat records `{id, manualSort, <every column>}` (formula columns
 *   evaluated, `gristHelper_` columns left out), cells in the normal encoding of §9.
 * - Delivery: one sequential queue per document. Each batch is POSTed with
 *   `Content-Type: application/json` and, when set, `Authorization: <authorization>`. A non-2xx
 *   answer (or a network error) is retried after `retryDelaysMs[attempt-1]` (the last delay
 *   repeats) and the whole document's queue waits until it succeeds, is cleared
 *   (`DELETE /webhooks/queue`), or its webhook is removed or disabled.
 * - Idle documents (`activeDocTimeoutMs`, Grist's GRIST_ACTIVEDOC_TIMEOUT_SECONDS; off unless set):
 *   the queue lives in the open document (grist-core's ActiveDoc owns its WebhookQueue), and
 *   Grist closes a document no one used for that long (ActiveDoc's InactivityTimer). A request to
 *   a closed document opens it and starts the clock; on an open one, writes (user actions:
 *   `keepDocOpen`, the clock restarts when they end) and record reads (fetchQuery pings the timer)
 *   restart it, other requests (columns, tables, /sql, webhook lists, clearing the queue) do not,
 *   and deliveries never do. Closing aborts the delivery in flight and drops the document's queue
 *   and delivery statistics (WebhookQueue.shutdown: the in-memory queue is gone, `_stats.clear()`)
 *   — unless `redis` (REDIS_URL): then the queue's copy in Redis stays (the send loop trims it only
 *   after a delivery ends) and the next opening of the document loads it back in front of the
 *   queue and delivers it (WebhookQueue's constructor, `_getRedisQueue`), attempts counted anew.
 *   Each close is recorded in `closes`.
 * - URL rules (`allowedDomains`, Grist's ALLOWED_WEBHOOK_DOMAINS): `*` allows http and https to
 *   any host; otherwise https (http only for the host name `localhost`) and a host equal to a
 *   listed domain or under it (grist-core compares `url.host`, port included). Unset: every URL
 *   is forbidden.
 *
 * Guesses (grist-core too large to mirror): `numWaiting` and `lastEventBatch.size` count records;
 * a batch is never split; a failing batch is retried forever (status `retrying`); the queue of a
 * removed webhook's events is dropped when reached. Idle documents: the close delay does not grow
 * with the load time (Grist: the timeout times the load time in seconds, at least 1 s); which
 * requests restart the clock is read from grist-core's source (ActiveDoc.fetchQuery's ping,
 * `@keepDocOpen` on user actions), not measured per endpoint: downloads and attachment reads
 * count as not restarting it; a request answered 401, 403 or 404 does not open the document.
 */
import http from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import { RowEvaluator } from './formula';
import { compileCondition } from './webhook-conditions';
import type { Doc, Row, Store, Table } from './model';
import { valueKey } from './query';

export type WebhookStatus = 'idle' | 'sending' | 'retrying' | 'postponed' | 'error' | 'invalid';

export interface WebhookUsage {
	numWaiting: number;
	status: WebhookStatus;
	updatedTime?: number | null;
	lastSuccessTime?: number | null;
	lastFailureTime?: number | null;
	lastErrorMessage?: string | null;
	lastHttpStatus?: number | null;
	lastEventBatch: null | {
		size: number;
		errorMessage: string | null;
		httpStatus: number | null;
		status: 'success' | 'failure' | 'rejected';
		attempts: number;
	};
}

export interface Webhook {
	id: string;
	docId: string;
	tableRef: number;
	url: string;
	authorization?: string;
	unsubscribeKey: string;
	eventTypes: Array<'add' | 'update'>;
	isReadyColumn: string | null;
	watchedColIds: string[];
	enabled: boolean;
	name: string;
	memo: string;
	/** null: removed (PATCH with ""). */
	condition?: string | null;
	usage: WebhookUsage | null;
}

/** A batch of records waiting in (or at the head of) a document's queue. */
export interface QueuedBatch {
	webhookId: string;
	records: Array<Record<string, unknown>>;
	attempts: number;
}

/** One delivery attempt (tests read `emu.webhooks.deliveries`). */
export interface DeliveryAttempt {
	docId: string;
	webhookId: string;
	url: string;
	records: Array<Record<string, unknown>>;
	attempt: number;
	/** The receiver's HTTP status, or 0 for a network error. */
	status: number;
	error?: string;
	at: number;
}

interface RowDelta {
	existedBefore: boolean;
	/** The row's stored values before the request touched it (null for a new row). */
	before: Row | null;
}

interface DocQueue {
	batches: QueuedBatch[];
	running: boolean;
	timer?: ReturnType<typeof setTimeout>;
	/** Ends a retry's wait early (the queue was cleared or the webhook removed). */
	wake?: () => void;
	/** The delivery in flight (aborted when the document closes). */
	request?: http.ClientRequest;
	/** Set when the document closed: the loop ends without touching the queue again. */
	shut?: boolean;
}

/** An open document (only tracked with `activeDocTimeoutMs`). */
interface OpenDoc {
	/** When a request last restarted the document's idle clock (ms, Date.now()). */
	lastActivityAt: number;
	timer: ReturnType<typeof setTimeout>;
}

/** One closing of an idle document (tests read `emu.webhooks.closes`). */
export interface DocClose {
	docId: string;
	at: number;
	/** When the idle clock last started (the last request that restarted it). */
	lastActivityAt: number;
	/** Records whose delivery was waiting and are now lost (without `redis`). */
	droppedRecords: number;
	/** Records kept in "Redis" for the next opening (with `redis`). */
	keptRecords: number;
}

/**
 * How a request to a document acts on its idle clock (grist-core's ActiveDoc): every request that
 * reaches a document opens it when closed; `restart` also restarts the clock of an open one.
 * `subPath` is the path after `/api/docs/{doc}`.
 */
export function docActivity(method: string, subPath: string): 'open' | 'restart' {
	// record reads: ActiveDoc.fetchQuery pings the inactivity timer
	if (method === 'GET')
		return /^\/tables\/[^/]+\/(records|data)\/?$/.test(subPath) ? 'restart' : 'open';
	// no user action behind these: /sql reads the SQLite file, clearing a queue is the queue's own
	if (/^\/sql\/?$/.test(subPath) || /^\/webhooks\/queue(\/|$)/.test(subPath)) return 'open';
	// writes are user actions (@keepDocOpen: the clock restarts once they end)
	return 'restart';
}

export interface WebhookConfig {
	/** Grist's ALLOWED_WEBHOOK_DOMAINS (undefined: every URL is forbidden). */
	allowedDomains?: string;
	/** Delays between attempts (ms); the last repeats. Grist: about 1 s, 2 s, 4 s, … */
	retryDelaysMs?: number[];
	/** Timeout of one delivery request (ms). */
	timeoutMs?: number;
	/**
	 * Grist's GRIST_ACTIVEDOC_TIMEOUT_SECONDS, in ms: a document no request restarted the clock of
	 * for this long closes, and its waiting deliveries are dropped (kept with `redis`). 0: documents
	 * never close (the default, as before).
	 */
	activeDocTimeoutMs?: number;
	/** Grist with REDIS_URL: a closing document's queue is kept and resumes when it is opened again. */
	redis?: boolean;
}

export class WebhookService {
	allowedDomains: string | undefined;
	retryDelaysMs: number[] = [1000, 2000, 4000, 8000, 16000, 32000, 64000];
	timeoutMs = 10_000;
	activeDocTimeoutMs = 0;
	redis = false;
	readonly hooks = new Map<string, Webhook>();
	readonly deliveries: DeliveryAttempt[] = [];
	/** Every closing of an idle document (with `activeDocTimeoutMs`). */
	readonly closes: DocClose[] = [];
	private queues = new Map<string, DocQueue>();
	private openDocs = new Map<string, OpenDoc>();
	/** With `redis`: the queues of closed documents, delivered when they open again. */
	private redisQueues = new Map<string, QueuedBatch[]>();
	private pending = new Map<Table, Map<number, RowDelta>>();
	private flushScheduled = false;
	private closed = false;
	private inflight = new Set<http.ClientRequest>();
	private idleWaiters: Array<() => void> = [];

	constructor(private store: Store) {}

	configure(cfg: WebhookConfig): void {
		if ('allowedDomains' in cfg) this.allowedDomains = cfg.allowedDomains;
		if (cfg.retryDelaysMs?.length) this.retryDelaysMs = cfg.retryDelaysMs;
		if (cfg.timeoutMs) this.timeoutMs = cfg.timeoutMs;
		if (cfg.activeDocTimeoutMs !== undefined) {
			this.activeDocTimeoutMs = cfg.activeDocTimeoutMs;
			// a new timeout applies from now on: documents open now count as just used
			for (const docId of [...this.openDocs.keys()]) this.docRequest(docId, 'restart');
			if (!this.activeDocTimeoutMs) {
				for (const d of this.openDocs.values()) clearTimeout(d.timer);
				this.openDocs.clear();
			}
		}
		if (cfg.redis !== undefined) this.redis = cfg.redis;
	}

	// ------------------------------------------------------------- idle documents
	/** A request reached document `docId` (index.ts calls this once it is answered). */
	docRequest(docId: string, activity: 'open' | 'restart'): void {
		if (this.closed || !this.activeDocTimeoutMs) return;
		const open = this.openDocs.get(docId);
		if (open && activity === 'open') return;
		if (open) clearTimeout(open.timer);
		const timer = setTimeout(() => this.closeDoc(docId), this.activeDocTimeoutMs);
		timer.unref?.();
		this.openDocs.set(docId, { lastActivityAt: Date.now(), timer });
		if (!open) this.reopen(docId);
	}

	/** Whether document `docId` is open (always true without `activeDocTimeoutMs`). */
	isDocOpen(docId: string): boolean {
		return !this.activeDocTimeoutMs || this.openDocs.has(docId);
	}

	/** With `redis`: an opening document loads its kept queue in front of anything new. */
	private reopen(docId: string): void {
		const kept = this.redisQueues.get(docId);
		if (!kept) return;
		this.redisQueues.delete(docId);
		let q = this.queues.get(docId);
		if (!q) this.queues.set(docId, (q = { batches: [], running: false }));
		q.batches.unshift(...kept.map((b) => ({ ...b, attempts: 0 })));
		for (const h of this.list(docId)) this.noteWaiting(docId, h);
		if (!q.running) void this.run(docId, q);
	}

	/** The idle timeout of `docId` ran out: Grist's ActiveDoc.shutdown → WebhookQueue.shutdown. */
	private closeDoc(docId: string): void {
		const open = this.openDocs.get(docId);
		if (!open) return;
		this.openDocs.delete(docId);
		const q = this.queues.get(docId);
		const records = (q?.batches ?? []).reduce((n, b) => n + b.records.length, 0);
		if (q) {
			q.shut = true;
			q.request?.destroy();
			q.wake?.();
			this.queues.delete(docId);
			if (this.redis && q.batches.length)
				this.redisQueues.set(docId, [...(this.redisQueues.get(docId) ?? []), ...q.batches]);
		}
		// the statistics go with the document (kept in memory, or cleared in Redis)
		for (const h of this.list(docId)) h.usage = null;
		this.closes.push({
			docId,
			at: Date.now(),
			lastActivityAt: open.lastActivityAt,
			droppedRecords: this.redis ? 0 : records,
			keptRecords: this.redis ? records : 0,
		});
		this.settle();
	}

	/** Grist's isUrlAllowed(ALLOWED_WEBHOOK_DOMAINS, url). */
	isUrlAllowed(urlString: string): boolean {
		let url: URL;
		try {
			url = new URL(urlString);
		} catch {
			return false;
		}
		if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
		if (this.allowedDomains === '*') return true;
		if (url.protocol !== 'https:' && url.hostname !== 'localhost') return false;
		return (this.allowedDomains ?? '')
			.split(',')
			.some((d) => d && (url.host === d || url.host.endsWith(`.${d}`)));
	}

	// ------------------------------------------------------------- registrations
	add(w: Omit<Webhook, 'id' | 'unsubscribeKey' | 'usage'>): Webhook {
		const hook: Webhook = { ...w, id: randomUUID(), unsubscribeKey: randomUUID(), usage: null };
		this.hooks.set(hook.id, hook);
		return hook;
	}

	remove(id: string): void {
		this.clearHookQueue(id);
		this.hooks.delete(id);
	}

	/** Drops the waiting events of one webhook (DELETE /webhooks/queue/{id}, PATCH enabled false). */
	clearHookQueue(id: string): void {
		for (const q of this.queues.values()) {
			q.batches = q.batches.filter((b) => b.webhookId !== id);
			q.wake?.();
		}
		const h = this.hooks.get(id);
		if (h?.usage) h.usage = { ...h.usage, numWaiting: 0, status: 'idle' };
	}

	/** The webhooks of a document, in creation order. */
	list(docId: string): Webhook[] {
		return [...this.hooks.values()].filter((h) => h.docId === docId);
	}

	/** What waits in a document's queue (the head first; it may be in flight). */
	queue(docId: string): QueuedBatch[] {
		return [...(this.queues.get(docId)?.batches ?? [])];
	}

	/** DELETE /webhooks/queue: drops every waiting batch of the document (one in flight ends unanswered). */
	clearQueue(docId: string): void {
		const q = this.queues.get(docId);
		if (q) {
			q.batches = [];
			q.wake?.();
		}
		for (const h of this.list(docId))
			if (h.usage) h.usage = { ...h.usage, numWaiting: 0, status: 'idle' };
	}

	/** Resolves once no document has anything queued or pending. */
	idle(): Promise<void> {
		if (this.isIdle()) return Promise.resolve();
		return new Promise((r) => this.idleWaiters.push(r));
	}

	close(): void {
		this.closed = true;
		for (const d of this.openDocs.values()) clearTimeout(d.timer);
		this.openDocs.clear();
		for (const q of this.queues.values()) q.wake?.();
		this.queues.clear();
		for (const r of this.inflight) r.destroy();
		this.inflight.clear();
		this.pending.clear();
	}

	// ------------------------------------------------------------- events
	/**
	 * Called by actions.ts before an add (`before` null) or a real update (`before` the stored
	 * row) of row `id` of `t`; the first call of a request for a row wins.
	 */
	noteRow(t: Table, id: number, before: Row | null): void {
		if (this.closed || this.hooks.size === 0) return; // nothing to do without webhooks (bench)
		let rows = this.pending.get(t);
		if (!rows) this.pending.set(t, (rows = new Map()));
		if (!rows.has(id))
			rows.set(id, { existedBefore: before !== null, before: before ? { ...before } : null });
		if (!this.flushScheduled) {
			this.flushScheduled = true;
			setImmediate(() => this.flush());
		}
	}

	private docOf(t: Table): Doc | undefined {
		for (const d of this.store.docs.values()) if (d.tables.includes(t)) return d;
		return undefined;
	}

	private flush(): void {
		this.flushScheduled = false;
		const pending = this.pending;
		this.pending = new Map();
		for (const [t, rows] of pending) {
			const doc = this.docOf(t);
			if (!doc) continue;
			const hooks = this.list(doc.id).filter((h) => h.tableRef === t.tableRef && h.enabled);
			if (!hooks.length) continue;
			const ev = new RowEvaluator(t, this.store.clock());
			// Grist keeps the before-values of 10 rows per bulk action, or of all of them when some
			// trigger of the document has watched columns (Triggers.ts handle()).
			const keepAllBefore = this.list(doc.id).some((h) => h.watchedColIds.length > 0);
			const updated = [...rows].filter(([, d]) => d.existedBefore).map(([id]) => id);
			const keptBefore = new Set(keepAllBefore ? updated : updated.slice(0, 10));
			const fullRows = new Map<number, { now: Row; old: Row | null }>();
			const full = (id: number, delta: RowDelta) => {
				let f = fullRows.get(id);
				if (!f) {
					const stored = t.rows.get(id)!;
					const now = ev.full(stored, id);
					const old = !delta.existedBefore
						? null
						: keptBefore.has(id) && delta.before
							? ev.full(delta.before, id)
							: now;
					fullRows.set(id, (f = { now, old }));
				}
				return f;
			};
			const payloads = new Map<number, Record<string, unknown>>();
			const payload = (id: number): Record<string, unknown> => {
				let p = payloads.get(id);
				if (!p) {
					const full = ev.full(t.rows.get(id)!, id);
					p = { id };
					for (const c of t.columns)
						if (!c.id.startsWith('gristHelper_')) p[c.id] = full[c.id] ?? null;
					payloads.set(id, p);
				}
				return p;
			};
			for (const h of hooks) {
				const records: Array<Record<string, unknown>> = [];
				const condition = compileCondition(h.condition, t.columns);
				for (const [id, delta] of rows) {
					const stored = t.rows.get(id);
					if (!stored) continue; // removed since
					if (!shouldSend(h, stored, delta)) continue;
					if (condition) {
						const { now, old } = full(id, delta);
						if (!condition.matches(now, old)) continue;
					}
					records.push(payload(id));
				}
				if (records.length) this.enqueue(doc.id, { webhookId: h.id, records, attempts: 0 });
			}
		}
		this.settle();
	}

	private enqueue(docId: string, b: QueuedBatch): void {
		// events come from a write, which opened the document (it may predate the timeout setting)
		if (this.activeDocTimeoutMs && !this.openDocs.has(docId)) this.docRequest(docId, 'open');
		let q = this.queues.get(docId);
		if (!q) this.queues.set(docId, (q = { batches: [], running: false }));
		q.batches.push(b);
		const h = this.hooks.get(b.webhookId);
		if (h) this.noteWaiting(docId, h);
		if (!q.running) void this.run(docId, q);
	}

	private noteWaiting(docId: string, h: Webhook): void {
		h.usage = {
			...(h.usage ?? { lastEventBatch: null, status: 'idle' }),
			numWaiting: this.waiting(docId, h.id),
			updatedTime: Date.now(),
		};
	}

	private waiting(docId: string, webhookId: string): number {
		return (this.queues.get(docId)?.batches ?? [])
			.filter((b) => b.webhookId === webhookId)
			.reduce((n, b) => n + b.records.length, 0);
	}

	private async run(docId: string, q: DocQueue): Promise<void> {
		q.running = true;
		while (!this.closed && !q.shut && q.batches.length) {
			const b = q.batches[0];
			const h = this.hooks.get(b.webhookId);
			if (!h || !h.enabled) {
				q.batches.shift();
				continue;
			}
			b.attempts++;
			h.usage = { ...h.usage!, status: 'sending', updatedTime: Date.now() };
			const { status, error } = await this.post(h, b.records, (req) => (q.request = req));
			q.request = undefined;
			if (this.closed || q.shut) return; // closed meanwhile: the attempt's end is not recorded
			this.deliveries.push({
				docId,
				webhookId: h.id,
				url: h.url,
				records: b.records,
				attempt: b.attempts,
				status,
				...(error ? { error } : {}),
				at: Date.now(),
			});
			if (q.batches[0] !== b) continue; // cleared or removed meanwhile
			const ok = status >= 200 && status < 300;
			const now = Date.now();
			if (ok) {
				q.batches.shift();
				h.usage = {
					...h.usage!,
					numWaiting: this.waiting(docId, h.id),
					status: 'idle',
					updatedTime: now,
					lastSuccessTime: now,
					lastHttpStatus: status,
					lastEventBatch: {
						size: b.records.length,
						errorMessage: null,
						httpStatus: status,
						status: 'success',
						attempts: b.attempts,
					},
				};
				continue;
			}
			const message = error ?? `Failed to send webhook: ${status}`;
			h.usage = {
				...h.usage!,
				numWaiting: this.waiting(docId, h.id),
				status: 'retrying',
				updatedTime: now,
				lastFailureTime: now,
				lastErrorMessage: message,
				lastHttpStatus: status || null,
				lastEventBatch: {
					size: b.records.length,
					errorMessage: message,
					httpStatus: status || null,
					status: 'failure',
					attempts: b.attempts,
				},
			};
			const delay = this.retryDelaysMs[Math.min(b.attempts - 1, this.retryDelaysMs.length - 1)];
			await new Promise<void>((r) => {
				q.wake = () => {
					if (q.timer) clearTimeout(q.timer);
					q.timer = undefined;
					q.wake = undefined;
					r();
				};
				q.timer = setTimeout(() => q.wake?.(), delay);
			});
		}
		q.running = false;
		if (q.shut) return;
		if (!q.batches.length) this.queues.delete(docId);
		this.settle();
	}

	private post(
		h: Webhook,
		records: unknown[],
		started: (req: http.ClientRequest) => void,
	): Promise<{ status: number; error?: string }> {
		return new Promise((resolve) => {
			let url: URL;
			try {
				url = new URL(h.url);
			} catch {
				resolve({ status: 0, error: 'Invalid URL' });
				return;
			}
			const body = Buffer.from(JSON.stringify(records));
			const headers: Record<string, string | number> = {
				'Content-Type': 'application/json',
				'Content-Length': body.length,
			};
			if (h.authorization) headers.Authorization = h.authorization;
			const lib = url.protocol === 'https:' ? https : http;
			const req = lib.request(url, { method: 'POST', headers, timeout: this.timeoutMs }, (res) => {
				res.resume();
				res.on('end', () => {
					this.inflight.delete(req);
					resolve({ status: res.statusCode ?? 0 });
				});
			});
			this.inflight.add(req);
			started(req);
			req.on('timeout', () => req.destroy(new Error('timeout')));
			req.on('error', (e) => {
				this.inflight.delete(req);
				resolve({ status: 0, error: e.message });
			});
			req.end(body);
		});
	}

	private isIdle(): boolean {
		return !this.flushScheduled && this.pending.size === 0 && this.queues.size === 0;
	}

	private settle(): void {
		if (!this.isIdle()) return;
		const w = this.idleWaiters;
		this.idleWaiters = [];
		for (const r of w) r();
	}
}

/** grist-core's Triggers._shouldTriggerActions for one row and webhook. */
function shouldSend(h: Webhook, now: Row, delta: RowDelta): boolean {
	let readyBefore: boolean;
	if (!h.isReadyColumn) {
		readyBefore = delta.existedBefore;
	} else {
		if (now[h.isReadyColumn] !== true) return false;
		readyBefore = delta.existedBefore && delta.before?.[h.isReadyColumn] === true;
	}
	let eventType: 'add' | 'update';
	if (readyBefore) {
		if (
			h.watchedColIds.length &&
			!h.watchedColIds.some((c) => valueKey(delta.before?.[c]) !== valueKey(now[c]))
		)
			return false;
		eventType = 'update';
	} else {
		eventType = 'add';
	}
	return h.eventTypes.includes(eventType);
}

const services = new WeakMap<Store, WebhookService>();

/** The webhook registry and queues of an emulator's store. */
export function webhooksOf(store: Store): WebhookService {
	let s = services.get(store);
	if (!s) services.set(store, (s = new WebhookService(store)));
	return s;
}
