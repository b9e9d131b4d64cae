/**
 * §10 Webhooks: GET/POST /api/docs/{d}/webhooks, PATCH/DELETE /webhooks/{id}, DELETE
 * /webhooks/queue (and /webhooks/queue/{id}), owners only (403 `No owner access`). Checks and
 * their order follow grist-core's DocApiTriggers.ts: the table first (404 `Table not found "T"`),
 * a given url that is not allowed (403 `Provided url is forbidden`), empty eventTypes (400), a
 * missing url (403) or table (400 `tableId is required`). Bodies are checked like grist-core's
 * ts-interface-checker (`value.webhooks[0].fields.eventTypes[0] is none of "add", "update"`).
 * A `condition` with a syntax error is a 400 and changes nothing; `""` removes it. GET /webhooks
 * never shows it: GET /triggers does (one trigger per webhook, its id the webhook's position in
 * the document, a guess: Grist's are row ids of _grist_Triggers).
 * Registrations, events and delivery: webhooks.ts; conditions: webhook-conditions.ts.
 */
import type { Ctx, Route } from './context';
import { json } from './context';
import { docRoute } from './docworker';
import { ApiError } from './http';
import type { Doc, Table } from './model';
import type { Webhook } from './webhooks';
import { webhooksOf } from './webhooks';
import { conditionSyntaxError, storedCondition } from './webhook-conditions';

type Check = (v: unknown, path: string) => string[] | null;
const isObj = (v: unknown): v is Record<string, unknown> =>
	v !== null && typeof v === 'object' && !Array.isArray(v);
const str: Check = (v, p) => (typeof v === 'string' ? null : [`${p} is not a string`]);
const bool: Check = (v, p) => (typeof v === 'boolean' ? null : [`${p} is not a boolean`]);
const strOrNull: Check = (v, p) =>
	v === null || typeof v === 'string' ? null : [`${p} is neither a string nor null`];
const eventType: Check = (v, p) =>
	v === 'add' || v === 'update' ? null : [`${p} is none of "add", "update"`];
const arr =
	(item: Check): Check =>
	(v, p) => {
		if (!Array.isArray(v)) return [`${p} is not an array`];
		for (let i = 0; i < v.length; i++) {
			const e = item(v[i], `${p}[${i}]`);
			if (e) return e;
		}
		return null;
	};
function iface(name: string, props: Record<string, [Check, boolean?]>): Check {
	return (v, p) => {
		const inner = ((): string[] | null => {
			if (!isObj(v)) return [`${p} is not an object`];
			for (const [k, [check, opt]] of Object.entries(props)) {
				if (v[k] === undefined) {
					if (opt) continue;
					return [`${p}.${k} is missing`];
				}
				const e = check(v[k], `${p}.${k}`);
				if (e) return e;
			}
			return null;
		})();
		return inner ? (name ? [`${p} is not a ${name}`, ...inner] : inner) : null;
	};
}
const COMMON: Record<string, [Check, boolean?]> = {
	authorization: [str, true],
	watchedColIds: [arr(str), true],
	enabled: [bool, true],
	isReadyColumn: [strOrNull, true],
	condition: [str, true],
	name: [str, true],
	memo: [str, true],
};
const WebhookFields = iface('WebhookFields', {
	url: [str],
	eventTypes: [arr(eventType)],
	tableId: [str],
	...COMMON,
});
const Subscribe = iface('', {
	webhooks: [arr(iface('Webhook', { fields: [WebhookFields] }))],
});
const Patch = iface('', {
	url: [str, true],
	eventTypes: [arr(eventType), true],
	tableId: [str, true],
	...COMMON,
});

function validate(check: Check, body: unknown): void {
	const err = check(body, 'value');
	if (err) throw new ApiError(400, 'Invalid payload', { userError: `Error: ${err.join('; ')}` });
}

function tableByRef(doc: Doc, ref: number): Table | undefined {
	return doc.tables.find((t) => t.tableRef === ref);
}

function colOrThrow(t: Table, colId: string): string {
	if (!t.columns.some((c) => c.id === colId))
		throw new ApiError(404, `Column not found "${colId}"`);
	return colId;
}

/** grist-core's getWebhookSettings: what a POST or PATCH body sets, checked against the document. */
function settings(
	c: Ctx,
	doc: Doc,
	current: Webhook | undefined,
	body: Record<string, unknown>,
): Partial<Webhook> {
	const svc = webhooksOf(c.store);
	const out: Partial<Webhook> = {};
	let table = current ? tableByRef(doc, current.tableRef) : undefined;
	const tableId = body.tableId as string | undefined;
	let newTable: Table | undefined;
	if (tableId) {
		newTable = c.store.table(doc, tableId);
		if (!newTable) throw new ApiError(404, `Table not found "${tableId}"`);
	}
	const url = body.url as string | undefined;
	if (url && !svc.isUrlAllowed(url)) throw new ApiError(403, 'Provided url is forbidden');
	const eventTypes = body.eventTypes as Webhook['eventTypes'] | undefined;
	if (eventTypes) {
		if (!eventTypes.length) throw new ApiError(400, 'eventTypes must be a non-empty array');
		out.eventTypes = eventTypes;
	}
	if (newTable) {
		const watched = body.watchedColIds as string[] | undefined;
		if (watched && !(current && table && table !== newTable)) {
			out.watchedColIds = watched
				.filter((x) => x.trim() !== '')
				.map((x) => colOrThrow(newTable!, x.trim().replace(/^\$/, '')));
		} else out.watchedColIds = [];
		out.tableRef = newTable.tableRef;
		table = newTable;
	}
	const ready = body.isReadyColumn as string | null | undefined;
	if (ready !== undefined) {
		if (ready !== null && ready !== '') {
			if (!table)
				throw new ApiError(404, `Cannot find column "${ready}" because table is not known`);
			out.isReadyColumn = colOrThrow(table, ready);
		} else out.isReadyColumn = null;
	} else if (newTable) out.isReadyColumn = null;
	for (const k of ['enabled', 'memo'] as const)
		if (body[k] !== undefined) (out as Record<string, unknown>)[k] = body[k];
	if (typeof body.condition === 'string') {
		const syntax = conditionSyntaxError(body.condition);
		if (syntax) throw new ApiError(400, `Error manipulating data: [Sandbox] SyntaxError ${syntax}`);
		// measured: a removed condition reads null in GET /triggers ("" for one never set)
		out.condition = body.condition === '' ? null : body.condition;
	}
	if (body.name) out.name = body.name as string;
	if (url) out.url = url;
	if (body.authorization !== undefined) out.authorization = body.authorization as string;
	return out;
}

function hookOrThrow(c: Ctx, doc: Doc, id: string): Webhook {
	const h = webhooksOf(c.store).hooks.get(id);
	if (!h || h.docId !== doc.id) throw new ApiError(404, `Webhook not found "${id}"`);
	return h;
}

function summary(doc: Doc, h: Webhook): unknown {
	return {
		id: h.id,
		fields: {
			url: h.url,
			authorization: h.authorization ?? '', // measured: "" for a webhook created without one
			unsubscribeKey: h.unsubscribeKey,
			eventTypes: h.eventTypes,
			isReadyColumn: h.isReadyColumn,
			tableId: tableByRef(doc, h.tableRef)?.id ?? '',
			watchedColIds: h.watchedColIds,
			enabled: h.enabled,
			name: h.name,
			memo: h.memo,
		},
		// WebhookQueue.ts getUsage: once there are statistics, the last* keys are all there (NaN → null)
		usage: h.usage
			? {
					lastSuccessTime: null,
					lastFailureTime: null,
					lastErrorMessage: null,
					lastHttpStatus: null,
					...h.usage,
				}
			: { numWaiting: 0, status: 'idle', lastEventBatch: null },
	};
}

/** One GET /triggers record for a webhook (Grist's encodings: `["L", …]` lists, 0 for no column). */
function triggerRecord(doc: Doc, h: Webhook, index: number): unknown {
	const table = tableByRef(doc, h.tableRef);
	const ref = (colId: string) => table?.columns.find((col) => col.id === colId)?.colRef ?? 0;
	return {
		id: index + 1,
		fields: {
			tableRef: h.tableRef,
			label: h.name,
			memo: h.memo,
			enabled: h.enabled,
			actions: JSON.stringify([
				{
					type: 'webhook',
					id: h.id,
					url: h.url,
					...(h.authorization ? { authorization: h.authorization } : {}),
					unsubscribeKey: h.unsubscribeKey,
				},
			]),
			condition: h.condition === null ? null : storedCondition(h.condition),
			eventTypes: ['L', ...h.eventTypes],
			watchedColRefList: h.watchedColIds.length ? ['L', ...h.watchedColIds.map(ref)] : null,
			isReadyColRef: h.isReadyColumn ? ref(h.isReadyColumn) : 0,
		},
	};
}

export const webhooksRoutes: Route[] = [
	docRoute('GET', 'triggers', 'owners', (c, doc) => ({
		records: webhooksOf(c.store)
			.list(doc.id)
			.map((h, i) => triggerRecord(doc, h, i)),
	})),
	docRoute('GET', 'webhooks', 'owners', (c, doc) => ({
		webhooks: webhooksOf(c.store)
			.list(doc.id)
			.map((h) => summary(doc, h)),
	})),
	docRoute('POST', 'webhooks', 'owners', (c, doc) => {
		const body = json(c);
		validate(Subscribe, body);
		const svc = webhooksOf(c.store);
		const ids: Array<{ id: string }> = [];
		for (const w of (body as { webhooks: Array<{ fields: Record<string, unknown> }> }).webhooks) {
			const s = settings(c, doc, undefined, w.fields);
			if (!s.eventTypes?.length) throw new ApiError(400, 'eventTypes must be a non-empty array');
			if (!s.url || !svc.isUrlAllowed(s.url)) throw new ApiError(403, 'Provided url is forbidden');
			if (!s.tableRef) throw new ApiError(400, 'tableId is required');
			const h = svc.add({
				docId: doc.id,
				tableRef: s.tableRef,
				url: s.url,
				...(s.authorization !== undefined ? { authorization: s.authorization } : {}),
				eventTypes: s.eventTypes,
				isReadyColumn: s.isReadyColumn ?? null,
				watchedColIds: s.watchedColIds ?? [],
				enabled: s.enabled ?? true,
				name: s.name ?? '',
				memo: s.memo ?? '',
				...(s.condition ? { condition: s.condition } : {}),
			});
			ids.push({ id: h.id });
		}
		return { webhooks: ids };
	}),
	docRoute('DELETE', 'webhooks/queue', 'owners', (c, doc) => {
		webhooksOf(c.store).clearQueue(doc.id);
		return { success: true };
	}),
	docRoute('DELETE', 'webhooks/queue/([^/]+)', 'owners', (c, doc, m) => {
		const svc = webhooksOf(c.store);
		const h = svc.hooks.get(decodeURIComponent(m[2]));
		if (h && h.docId === doc.id) svc.clearHookQueue(h.id);
		return { success: true };
	}),
	docRoute('DELETE', 'webhooks/([^/]+)', 'owners', (c, doc, m) => {
		const h = hookOrThrow(c, doc, decodeURIComponent(m[2]));
		webhooksOf(c.store).remove(h.id);
		return { success: true };
	}),
	docRoute('PATCH', 'webhooks/([^/]+)', 'owners', (c, doc, m) => {
		const body = json(c);
		validate(Patch, body);
		const h = hookOrThrow(c, doc, decodeURIComponent(m[2]));
		const s = settings(c, doc, h, body as Record<string, unknown>);
		if (s.enabled === false) webhooksOf(c.store).clearHookQueue(h.id);
		Object.assign(h, s);
		return { success: true };
	}),
];
