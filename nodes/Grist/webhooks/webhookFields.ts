/**
 * Pure helpers for Grist webhooks: the fields a
 * registration is made of, matching an existing registration, reading `usage`, the deliveries'
 * bodies, and what to tell a user whose n8n URL Grist cannot reach or may not call.
 */
import type { IDataObject } from 'n8n-workflow';

import { simplifyRecord } from '../cells/cellValues';
import { isSaasHost } from '../api/url';

export type WebhookEventType = 'add' | 'update';
/** Trigger On; `anyChange` (deletions too) only with Changes: Exact, from the document's history. */
export type TriggerOn = 'add' | 'update' | 'addOrUpdate' | 'anyChange';

/** What a registration watches and where it sends (without its secret). */
export interface WebhookSettings {
	url: string;
	tableId: string;
	eventTypes: WebhookEventType[];
	/** A Bool column: only rows whose box is ticked are sent. */
	isReadyColumn: string | null;
	/** Updates fire only when one of these columns changed (empty: any column). */
	watchedColIds: string[];
	/** Grist's `condition` (a JSON string); absent or null: none. */
	condition?: string | null;
}

/** The writable fields of a webhook (POST /webhooks `fields`, PATCH body). */
export interface WebhookFields {
	url?: string;
	authorization?: string;
	eventTypes?: WebhookEventType[];
	tableId?: string;
	watchedColIds?: string[];
	enabled?: boolean;
	isReadyColumn?: string | null;
	name?: string;
	memo?: string;
	/** Only rows matching it are sent (webhookConditions.ts); "" removes it. */
	condition?: string;
}

export interface WebhookUsage {
	numWaiting?: number;
	status?: string;
	updatedTime?: number | null;
	lastSuccessTime?: number | null;
	lastFailureTime?: number | null;
	lastErrorMessage?: string | null;
	lastHttpStatus?: number | null;
	lastEventBatch?: null | {
		size?: number;
		errorMessage?: string | null;
		httpStatus?: number | null;
		status?: string;
		attempts?: number;
	};
}

/** One entry of GET /webhooks. */
export interface WebhookSummary {
	id: string;
	fields: WebhookFields & { unsubscribeKey?: string };
	usage?: WebhookUsage | null;
}

export function eventTypesFor(on: TriggerOn): WebhookEventType[] {
	if (on === 'add') return ['add'];
	if (on === 'update') return ['update'];
	return ['add', 'update'];
}

/** Column ids from a list or a comma-separated text, trimmed, without empties or duplicates. */
export function columnIdList(value: unknown): string[] {
	const raw = Array.isArray(value)
		? value.map(String)
		: typeof value === 'string'
			? value.split(',')
			: [];
	return [...new Set(raw.map((s) => s.trim()).filter((s) => s !== ''))];
}

/** The Authorization header value Grist will send for a secret. */
export function bearer(secret: string): string {
	return `Bearer ${secret}`;
}

/** The secret of an `authorization` field of the form `Bearer <secret>`, if it is one. */
export function secretOf(authorization: unknown): string | undefined {
	if (typeof authorization !== 'string') return undefined;
	const m = /^Bearer (\S+)$/.exec(authorization);
	return m ? m[1] : undefined;
}

/** POST /webhooks fields for settings and a secret. */
export function webhookFields(
	s: WebhookSettings,
	secret: string,
	extra: { name?: string; memo?: string } = {},
): WebhookFields {
	const fields: WebhookFields = {
		url: s.url,
		authorization: bearer(secret),
		eventTypes: [...s.eventTypes],
		tableId: s.tableId,
		enabled: true,
		isReadyColumn: s.isReadyColumn,
		watchedColIds: [...s.watchedColIds],
	};
	if (s.condition) fields.condition = s.condition;
	if (extra.name) fields.name = extra.name;
	if (extra.memo) fields.memo = extra.memo;
	return fields;
}

const sortedKey = (xs: readonly string[] | undefined) => JSON.stringify([...(xs ?? [])].sort());

/** Whether a registration (GET /webhooks entry) has exactly these settings and is enabled. */
export function sameSettings(existing: WebhookSummary, wanted: WebhookSettings): boolean {
	const f = existing.fields ?? {};
	return (
		f.url === wanted.url &&
		f.tableId === wanted.tableId &&
		f.enabled !== false &&
		sortedKey(f.eventTypes) === sortedKey(wanted.eventTypes) &&
		(f.isReadyColumn || null) === (wanted.isReadyColumn || null) &&
		sortedKey(f.watchedColIds) === sortedKey(wanted.watchedColIds)
	);
}

/**
 * Of a document's webhooks, the registration to keep for `wanted` (same URL and settings, a
 * `Bearer` secret; the one already known by `knownId` first) and every other one with the same URL
 * (duplicates or stale settings) to remove.
 */
export function matchRegistration(
	list: WebhookSummary[],
	wanted: WebhookSettings,
	knownId?: string,
	sameCondition: (w: WebhookSummary) => boolean = () => true,
): { keep?: WebhookSummary & { secret: string }; remove: WebhookSummary[] } {
	const sameUrl = list.filter((w) => w.fields?.url === wanted.url);
	const candidates = sameUrl.filter(
		(w) =>
			sameSettings(w, wanted) && secretOf(w.fields.authorization) !== undefined && sameCondition(w),
	);
	const keep = candidates.find((w) => w.id === knownId) ?? candidates[0];
	return {
		keep: keep ? { ...keep, secret: secretOf(keep.fields.authorization)! } : undefined,
		remove: sameUrl.filter((w) => w !== keep),
	};
}

/** A short health text of a webhook's `usage` ("idle", "3 waiting, retrying: HTTP 500 …"). */
export function usageSummary(usage: WebhookUsage | null | undefined): string {
	if (!usage) return 'idle';
	const parts: string[] = [];
	if (usage.numWaiting) parts.push(`${usage.numWaiting} waiting`);
	parts.push(usage.status ?? 'idle');
	const last = usage.lastEventBatch;
	if (last && last.status && last.status !== 'success') {
		const http = last.httpStatus ? `HTTP ${last.httpStatus}` : '';
		const msg = [http, last.errorMessage ?? ''].filter(Boolean).join(' ');
		if (msg) parts[parts.length - 1] += `: ${msg}`;
	}
	return parts.join(', ');
}

/** Whether a webhook's deliveries are failing (its document's queue waits for it). */
export function isFailing(usage: WebhookUsage | null | undefined): boolean {
	if (!usage) return false;
	return (
		['retrying', 'postponed', 'error', 'invalid'].includes(usage.status ?? '') ||
		usage.lastEventBatch?.status === 'failure'
	);
}

/**
 * Why a Grist server could never deliver to `webhookUrl`, before asking it: a local or plain-http
 * n8n URL while the Grist is getgrist.com. Undefined when it may work.
 */
export function unreachableUrlProblem(
	webhookUrl: string,
	gristHostname: string,
): { message: string; hint: string } | undefined {
	let url: URL;
	try {
		url = new URL(webhookUrl);
	} catch {
		return {
			message: `n8n gave the webhook URL "${webhookUrl}", which is not a valid URL`,
			hint: "Set n8n's WEBHOOK_URL to the public https address of this n8n.",
		};
	}
	if (!isSaasHost(gristHostname.toLowerCase())) return undefined;
	const host = url.hostname.toLowerCase();
	const local =
		host === 'localhost' ||
		host.endsWith('.localhost') ||
		host === '[::1]' ||
		/^127\./.test(host) ||
		/^10\./.test(host) ||
		/^192\.168\./.test(host) ||
		/^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
		host === '0.0.0.0' ||
		!host.includes('.');
	if (!local && url.protocol === 'https:') return undefined;
	const why = local ? 'a local address' : 'not https';
	return {
		message: `getgrist.com cannot reach this n8n: its webhook URL ${url.origin} is ${why}`,
		hint: "Set n8n's WEBHOOK_URL to a public https address of this n8n (e.g. through a tunnel or reverse proxy) and activate again, or use the Grist Trigger (polling), which works without Grist reaching n8n.",
	};
}

/**
 * A webhook delivery's body: a JSON array of flat records `{id, manualSort?, <columns>}`.
 * Returns the records, or a reason when the body is not that.
 */
export function deliveredRecords(
	body: unknown,
): { records: Array<Record<string, unknown> & { id: number }> } | { problem: string } {
	if (!Array.isArray(body)) return { problem: 'the body is not a JSON array of records' };
	for (let i = 0; i < body.length; i++) {
		const r = body[i] as Record<string, unknown> | null;
		if (r === null || typeof r !== 'object' || Array.isArray(r))
			return { problem: `record ${i + 1} is not an object` };
		if (typeof r.id !== 'number') return { problem: `record ${i + 1} has no numeric id` };
	}
	return { records: body as Array<Record<string, unknown> & { id: number }> };
}

/**
 * One delivered record as output: simplified (`{ id, ...fields }`, dates as ISO text, lists as
 * arrays, like the polling trigger and Get Many) or as Grist sent it; `manualSort` is dropped
 * from the simplified form (Get Many does not show it).
 */
export function deliveredItem(
	record: Record<string, unknown> & { id: number },
	simplify: boolean,
	columnTypes: Record<string, string>,
): IDataObject {
	if (!simplify) return { ...record } as IDataObject;
	const fields: Record<string, unknown> = { ...record };
	delete fields.id;
	delete fields.manualSort;
	return simplifyRecord({ id: record.id, fields }, columnTypes);
}

/** Columns of delivered records that `columnTypes` does not know (a new column since activation). */
export function unknownColumns(
	records: Array<Record<string, unknown>>,
	columnTypes: Record<string, string>,
): string[] {
	const out = new Set<string>();
	for (const r of records)
		for (const k of Object.keys(r))
			if (k !== 'id' && k !== 'manualSort' && !k.startsWith('gristHelper_') && !(k in columnTypes))
				out.add(k);
	return [...out];
}

/** Compares two secrets in time independent of where they differ. */
export function secretsEqual(a: string, b: string): boolean {
	let diff = a.length ^ b.length;
	for (let i = 0; i < Math.max(a.length, b.length); i++)
		diff |= (a.charCodeAt(i % (a.length || 1)) || 0) ^ (b.charCodeAt(i % (b.length || 1)) || 0);
	return diff === 0;
}
