/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: a local receiver for Grist's deliveries */
/**
 * Webhook resource (Get Many with delivery health, Create, Update, Delete, Clear Queue) run
 * through n8n-core (test harness level b) against the emulator's webhooks, or a real Grist's
 * (`npm run test:real`: its ALLOWED_WEBHOOK_DOMAINS is `*`, it delivers to the local receiver).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { DemoSite, GristEmulator } from '../emulator';
import { loadOptions } from '../harness/inprocess';
import { Grist } from '../../nodes/Grist/Grist.node';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { emulatorOnly, realGrist } from '../harness/target';
import { until } from '../harness/until';

/** Waits for Grist's deliveries: up to 5 s, checked every 20 ms. */
const WAIT = { timeoutMs: 5000, intervalMs: 20 };

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let receiver: http.Server;
let receiverUrl: string;
let answer = 200;
/** Deliveries the receiver got (what Grist sent, whichever Grist it is). */
let received = 0;
beforeAll(async () => {
	({ emu, demo } = fx);
	// a real Grist's own settings apply (ALLOWED_WEBHOOK_DOMAINS='*', its retry delays)
	if (!realGrist) emu.webhooks.configure({ allowedDomains: '*', retryDelaysMs: [60_000] });
	receiver = http.createServer((req, res) => {
		received++;
		req.resume();
		req.on('end', () => {
			res.writeHead(answer, { 'Content-Type': 'text/plain' });
			res.end(answer === 200 ? 'ok' : 'nope');
		});
	});
	await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
	await new Promise<void>((r) => receiver?.close(() => r()) ?? r());
});
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const run = resourceRunner(fx, 'webhook');

async function addRow(docId: string, tableId: string, fields: Record<string, unknown>) {
	await fetch(`${emu.url}/api/docs/${docId}/tables/${tableId}/records`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ records: [{ fields }] }),
	});
}

/** The delivery health Grist reports for a webhook (GET /webhooks, as any client reads it). */
async function usageOf(
	docId: string,
	id: string,
): Promise<{ status?: string; numWaiting?: number }> {
	const res = await fetch(`${emu.url}/api/docs/${docId}/webhooks`, {
		headers: { Authorization: `Bearer ${demo.apiKey}` },
	});
	const body = (await res.json()) as {
		webhooks: Array<{ id: string; usage: { status?: string; numWaiting?: number } | null }>;
	};
	return body.webhooks.find((w) => w.id === id)?.usage ?? {};
}

describe('webhook create / getAll / update / delete / clearQueue', () => {
	let webhookId: string;

	it("creates a webhook with the Instant Trigger's options and returns it without its secret", async () => {
		const { items, error } = await run({
			operation: 'create',
			document: rl('id', demo.docId),
			table: rl('id', 'Customers'),
			url: receiverUrl,
			event: 'addOrUpdate',
			options: {
				name: 'CRM feed',
				authorization: 'Bearer s3cret',
				watchedColumns: ['Name'],
			},
		});
		expect(error).toBeUndefined();
		const w = items[0].json;
		webhookId = String(w.id);
		expect(w).toMatchObject({
			name: 'CRM feed',
			url: receiverUrl,
			tableId: 'Customers',
			event: 'addOrUpdate',
			eventTypes: ['add', 'update'],
			enabled: true,
			readyColumn: null,
			watchedColumns: ['Name'],
			hasAuthorization: true,
			status: 'idle',
			waiting: 0,
			failing: false,
		});
		expect(JSON.stringify(items)).not.toContain('s3cret');
		expect(requests()).toEqual([
			`POST /o/demo/api/docs/${demo.docId}/webhooks`,
			`GET /o/demo/api/docs/${demo.docId}/webhooks`,
		]);
		expect(emu.log[0].body).toEqual({
			webhooks: [
				{
					fields: {
						url: receiverUrl,
						tableId: 'Customers',
						eventTypes: ['add', 'update'],
						enabled: true,
						isReadyColumn: null,
						watchedColIds: ['Name'],
						name: 'CRM feed',
						authorization: 'Bearer s3cret',
					},
				},
			],
		});
	});

	it('lists the webhooks with delivery health once deliveries fail (one item per webhook)', async () => {
		answer = 500;
		await addRow(demo.docId, 'Customers', { Name: 'Zed' });
		await until('the receiver got a delivery', () => received > 0, WAIT);
		await until(
			"the webhook's health says retrying",
			async () => (await usageOf(demo.docId, webhookId)).status === 'retrying',
			WAIT,
		);
		emu.clearLog();
		const { items, error } = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: webhookId,
			status: 'retrying',
			waiting: 1,
			failing: true,
			lastHttpStatus: 500,
		});
		expect(String(items[0].json.health)).toContain('1 waiting');
		expect(JSON.stringify(items)).not.toContain('s3cret');
		expect(requests()).toEqual([`GET /o/demo/api/docs/${demo.docId}/webhooks`]);
		const raw = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			returnAll: true,
			simplify: false,
		});
		expect(raw.items[0].json).toMatchObject({
			id: webhookId,
			fields: { url: receiverUrl, hasAuthorization: true },
			usage: { status: 'retrying', numWaiting: 1 },
		});
		expect(raw.items[0].json.fields).not.toHaveProperty('authorization');
		expect(raw.items[0].json.fields).not.toHaveProperty('unsubscribeKey');
		const filtered = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			returnAll: true,
			filters: { tableId: 'Orders' },
		});
		expect(filtered.items).toHaveLength(0);
	});

	it('Clear Queue empties the waiting events', async () => {
		const { items, error } = await run({ operation: 'clearQueue', document: rl('id', demo.docId) });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ documentId: demo.docId, queueCleared: true });
		expect(requests()).toEqual([`DELETE /o/demo/api/docs/${demo.docId}/webhooks/queue`]);
		expect((await usageOf(demo.docId, webhookId)).numWaiting).toBe(0);
		answer = 200;
	});

	it('Update disables the webhook and changes its watched columns', async () => {
		const { items, error } = await run({
			operation: 'update',
			document: rl('id', demo.docId),
			webhookId,
			updateFields: { enabled: false, watchedColumns: 'Name, Email', readyColumn: '' },
		});
		expect(error).toBeUndefined();
		// Grist takes watchedColIds only with tableId: the current table is read and sent
		expect(requests()).toEqual([
			`GET /o/demo/api/docs/${demo.docId}/webhooks`,
			`PATCH /o/demo/api/docs/${demo.docId}/webhooks/${webhookId}`,
			`GET /o/demo/api/docs/${demo.docId}/webhooks`,
		]);
		expect(emu.log[1].body).toEqual({
			enabled: false,
			isReadyColumn: null,
			watchedColIds: ['Name', 'Email'],
			tableId: 'Customers',
		});
		expect(items[0].json).toMatchObject({
			id: webhookId,
			enabled: false,
			watchedColumns: ['Name', 'Email'],
		});
	});

	it('Update without fields, or with an empty URL, is refused before any request', async () => {
		const none = await run({
			operation: 'update',
			document: rl('id', demo.docId),
			webhookId,
			updateFields: {},
		});
		expect(none.error?.message).toBe('No field to update was given (item 0)');
		const empty = await run({
			operation: 'update',
			document: rl('id', demo.docId),
			webhookId,
			updateFields: { url: ' ' },
		});
		expect(empty.error?.message).toBe('Update Fields in item 0: the URL is empty');
		expect(emu.log).toHaveLength(0);
	});

	it("the webhook picker lists the document's webhooks", async () => {
		const options = await loadOptions({
			node: new Grist(),
			method: 'getWebhooks',
			kind: 'loadOptions',
			parameters: { resource: 'webhook', operation: 'update', document: rl('id', demo.docId) },
			credentials: { apiKey: demo.apiKey, url: fx.site },
		});
		expect(options).toEqual([
			expect.objectContaining({ value: webhookId, name: `CRM feed → ${receiverUrl}` }),
		]);
	});

	it("Delete removes it; a webhook ID that does not exist gives Grist's 404 with a hint naming the item", async () => {
		const { items, error } = await run({
			operation: 'delete',
			document: rl('id', demo.docId),
			webhookId,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: webhookId, deleted: true });
		const again = await run(
			{ operation: 'delete', document: rl('id', demo.docId), webhookId: '={{ $json.id }}' },
			{ input: [{ json: { id: webhookId } }] },
		);
		expect(again.error?.httpCode).toBe('404');
		expect(again.error?.message).toContain(`Webhook not found "${webhookId}"`);
		expect(again.error?.description).toContain(
			`The Webhook "${webhookId}" of item 0 does not exist`,
		);
		const upd = await run(
			{
				operation: 'update',
				document: rl('id', demo.docId),
				webhookId: 'nope',
				updateFields: { enabled: true },
			},
			{ continueOnFail: true },
		);
		expect(upd.items[0].json).toMatchObject({ httpCode: '404' });
	});

	emulatorOnly(
		'ALLOWED_WEBHOOK_DOMAINS is the real server’s own setting (`*` for test:real); the emulator’s is a switch',
	).it('a URL Grist may not call: its 403 with a hint', async () => {
		emu.webhooks.configure({ allowedDomains: 'example.com' });
		try {
			const forbidden = await run({
				operation: 'create',
				document: rl('id', demo.docId),
				table: rl('id', 'Customers'),
				url: 'https://elsewhere.test/x',
			});
			expect(forbidden.error?.httpCode).toBe('403');
			expect(forbidden.error?.description).toContain('ALLOWED_WEBHOOK_DOMAINS');
		} finally {
			emu.webhooks.configure({ allowedDomains: '*' });
		}
	});

	it('a non-http URL is refused before the request', async () => {
		const bad = await run({
			operation: 'create',
			document: rl('id', demo.docId),
			table: rl('id', 'Customers'),
			url: 'ftp://x',
		});
		expect(bad.error?.message).toBe('The URL "ftp://x" is not an http(s) address (item 0)');
		expect(emu.log).toHaveLength(0);
	});

	it('a viewer cannot list webhooks: Grist\'s "No owner access"', async () => {
		const { error } = await run(
			{ operation: 'getAll', document: rl('id', demo.docId), returnAll: true },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toContain('No owner access');
	});
});
