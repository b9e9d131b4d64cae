/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test of the emulator (a local receiver, waits for retries), not node code */
/** Emulator: §10 Webhooks (routes-webhooks.ts) and their delivery (webhooks.ts). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { emulatorOnly } from '../harness/target';
import { until, waitFor } from '../harness/until';
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';
import { docActivity } from './webhooks';

// Every test of this file resets and reads the emulator's webhook registry, queues and deliveries
// (emu.webhooks: configure, list, idle, deliveries), which a test cannot reach on a real server:
// `test` here is the emulator-only one.
const { test } = emulatorOnly(
	'reads and resets the emulator’s webhook registry, queues and delivery log (emu.webhooks)',
);

interface Received {
	headers: http.IncomingHttpHeaders;
	body: Array<Record<string, unknown>>;
}
interface Receiver {
	url: string;
	got: Received[];
	/** Status to answer (a function of the request's index). */
	status: (i: number) => number;
	close: () => Promise<void>;
}

async function receiver(host = 'localhost'): Promise<Receiver> {
	const r: Receiver = { url: '', got: [], status: () => 200, close: async () => {} };
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const i = r.got.length;
			r.got.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
			res.writeHead(r.status(i)).end('ok');
		});
	});
	await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
	r.url = `http://${host}:${(server.address() as AddressInfo).port}/hook`;
	r.close = () => new Promise((ok) => server.close(() => ok()));
	return r;
}

let emu: GristEmulator;
let docId: string;
let doc2Id: string;
let api: ReturnType<typeof client>;
let rx: Receiver;
const OWNER = 'wh-owner-key-0123456789';
const EDITOR = 'wh-editor-key-0123456789';

interface HookList {
	webhooks: Array<{
		id: string;
		fields: Record<string, unknown>;
		usage: { numWaiting: number; status: string; lastEventBatch: null | Record<string, unknown> };
	}>;
}

beforeAll(async () => {
	emu = await startEmulator({ allowedWebhookDomains: '*', webhookRetryDelaysMs: [20, 40, 80] });
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	emu.addUser({ email: 'e@example.com', name: 'E', apiKey: EDITOR });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	emu.setAccess('org', org.id, 'e@example.com', 'editors');
	const ws = emu.addWorkspace(org.id, 'W');
	docId = emu.addDoc(ws.id, { name: 'D' }).id;
	doc2Id = emu.addDoc(ws.id, { name: 'D2' }).id;
	emu.addTable(docId, 'People', [
		{ id: 'Name', type: 'Text' },
		{ id: 'N', type: 'Numeric' },
		{ id: 'When', type: 'Date' },
		{ id: 'Ready', type: 'Bool' },
		{ id: 'Tags', type: 'ChoiceList' },
		{ id: 'Twice', type: 'Numeric', formula: '$N * 2', isFormula: true },
	]);
	emu.addTable(docId, 'Other', [{ id: 'X', type: 'Text' }]);
	emu.addTable(doc2Id, 'Things', [{ id: 'X', type: 'Text' }]);
	api = client(emu, OWNER, '/o/t');
});
afterAll(() => emu.close());
beforeEach(async () => {
	rx = await receiver();
	emu.webhooks.configure({ allowedDomains: '*' });
});
afterEach(async () => {
	for (const d of [docId, doc2Id]) {
		for (const h of emu.webhooks.list(d)) await api.del(`/api/docs/${d}/webhooks/${h.id}`);
		await api.del(`/api/docs/${d}/webhooks/queue`);
	}
	await emu.webhooks.idle();
	await rx.close();
});

const hooks = (d = docId) => `/api/docs/${d}/webhooks`;
async function register(fields: Record<string, unknown>, d = docId): Promise<string> {
	const r = await api.post<{ webhooks: Array<{ id: string }> }>(hooks(d), {
		webhooks: [
			{ fields: { url: rx.url, eventTypes: ['add', 'update'], tableId: 'People', ...fields } },
		],
	});
	expect(r.status).toBe(200);
	return r.json.webhooks[0].id;
}
const add = (records: Array<Record<string, unknown>>, table = 'People', d = docId) =>
	api.post<{ records: Array<{ id: number }> }>(`/api/docs/${d}/tables/${table}/records`, {
		records: records.map((fields) => ({ fields })),
	});
const update = (records: Array<{ id: number } & Record<string, unknown>>, table = 'People') =>
	api.patch(`/api/docs/${docId}/tables/${table}/records`, {
		records: records.map(({ id, ...fields }) => ({ id, fields })),
	});

test('POST, GET with fields and usage, PATCH, DELETE; owners only', async () => {
	const id = await register({ authorization: 'Bearer s3cret', name: 'n', memo: 'm' });
	expect(id).toMatch(/^[0-9a-f-]{36}$/);
	const list = await api.get<HookList>(hooks());
	expect(list.json.webhooks).toEqual([
		{
			id,
			fields: {
				url: rx.url,
				authorization: 'Bearer s3cret',
				unsubscribeKey: expect.any(String),
				eventTypes: ['add', 'update'],
				isReadyColumn: null,
				tableId: 'People',
				watchedColIds: [],
				enabled: true,
				name: 'n',
				memo: 'm',
			},
			usage: { numWaiting: 0, status: 'idle', lastEventBatch: null },
		},
	]);
	expect(
		(
			await api.patch(`${hooks()}/${id}`, {
				enabled: false,
				watchedColIds: ['N'],
				tableId: 'People',
			})
		).json,
	).toEqual({
		success: true,
	});
	const after = (await api.get<HookList>(hooks())).json.webhooks[0].fields;
	expect(after).toMatchObject({ enabled: false, watchedColIds: ['N'] });
	const editor = client(emu, EDITOR, '/o/t');
	for (const r of [
		await editor.get(hooks()),
		await editor.post(hooks(), { webhooks: [] }),
		await editor.del(`${hooks()}/${id}`),
		await editor.del(`${hooks()}/queue`),
	])
		expect([r.status, r.json]).toEqual([403, { error: 'No owner access' }]);
	expect((await api.del(`${hooks()}/${id}`)).json).toEqual({ success: true });
	const again = await api.del<ErrorBody>(`${hooks()}/${id}`);
	expect([again.status, again.json]).toEqual([404, { error: `Webhook not found "${id}"` }]);
	expect((await api.get<HookList>(hooks())).json.webhooks).toEqual([]);
});

test('errors of POST as in the reference', async () => {
	const post = (fields: Record<string, unknown>) =>
		api.post<ErrorBody>(hooks(), {
			webhooks: [{ fields: { url: rx.url, eventTypes: ['add'], tableId: 'People', ...fields } }],
		});
	let r = await post({ eventTypes: ['remove'] });
	expect([r.status, r.json]).toEqual([
		400,
		{
			error: 'Invalid payload',
			details: {
				userError:
					'Error: value.webhooks[0] is not a Webhook; value.webhooks[0].fields is not a WebhookFields; value.webhooks[0].fields.eventTypes[0] is none of "add", "update"',
			},
		},
	]);
	r = await post({ eventTypes: [] });
	expect([r.status, r.json]).toEqual([400, { error: 'eventTypes must be a non-empty array' }]);
	r = await post({ tableId: 'Nope' });
	expect([r.status, r.json]).toEqual([404, { error: 'Table not found "Nope"' }]);
	r = await post({ tableId: '' });
	expect([r.status, r.json]).toEqual([400, { error: 'tableId is required' }]);
	r = await post({ url: 'ftp://x.example.com/' });
	expect([r.status, r.json]).toEqual([403, { error: 'Provided url is forbidden' }]);
	r = await api.patch<ErrorBody>(`${hooks()}/nope`, { enabled: false });
	expect([r.status, r.json]).toEqual([404, { error: 'Webhook not found "nope"' }]);
	expect(emu.webhooks.list(docId)).toEqual([]);
});

test('ALLOWED_WEBHOOK_DOMAINS: unset forbids all, * allows http, a list needs https (http only for localhost)', async () => {
	const post = (url: string) =>
		api.post<ErrorBody>(hooks(), {
			webhooks: [{ fields: { url, eventTypes: ['add'], tableId: 'People' } }],
		});
	const cases: Array<[string | undefined, string, number]> = [
		[undefined, 'https://n8n.example.com/webhook/x', 403],
		['*', 'http://10.0.0.5:5678/webhook/x', 200],
		['example.com', 'https://n8n.example.com/webhook/x', 200],
		['example.com', 'http://n8n.example.com/webhook/x', 403],
		['example.com', 'https://example.org/webhook/x', 403],
		['localhost', 'http://localhost/webhook/x', 200],
		['localhost', 'http://127.0.0.1/webhook/x', 403],
	];
	for (const [allowed, url, status] of cases) {
		emu.webhooks.configure({ allowedDomains: allowed });
		const r = await post(url);
		expect([allowed, url, r.status]).toEqual([allowed, url, status]);
		if (status === 403) expect(r.json).toEqual({ error: 'Provided url is forbidden' });
	}
});

test('delivery: one POST per request with flat records, Authorization verbatim, no event on delete', async () => {
	await register({ authorization: 'Bearer s3cret' });
	const ids = (
		await add([
			{ Name: 'a', N: 1, When: 1700000000, Ready: false, Tags: ['L', 'x'] },
			{ Name: 'b', N: 2 },
		])
	).json.records.map((r) => r.id);
	await emu.webhooks.idle();
	expect(rx.got).toHaveLength(1);
	expect(rx.got[0].headers['content-type']).toBe('application/json');
	expect(rx.got[0].headers.authorization).toBe('Bearer s3cret');
	expect(rx.got[0].body).toEqual([
		{
			id: ids[0],
			manualSort: ids[0],
			Name: 'a',
			N: 1,
			When: 1700000000,
			Ready: false,
			Tags: ['L', 'x'],
			Twice: 2,
		},
		{
			id: ids[1],
			manualSort: ids[1],
			Name: 'b',
			N: 2,
			When: null,
			Ready: false,
			Tags: null,
			Twice: 4,
		},
	]);
	await update([{ id: ids[0], N: 5 }]);
	await emu.webhooks.idle();
	expect(rx.got.map((g) => g.body.map((r) => [r.id, r.N]))).toEqual([
		[
			[ids[0], 1],
			[ids[1], 2],
		],
		[[ids[0], 5]],
	]);
	// an update that changes nothing, and deletes, send nothing
	await update([{ id: ids[0], N: 5 }]);
	await api.post(`/api/docs/${docId}/tables/People/records/delete`, ids);
	await emu.webhooks.idle();
	expect(rx.got).toHaveLength(2);
	const usage = (await api.get<HookList>(hooks())).json.webhooks[0].usage;
	expect(usage).toMatchObject({
		numWaiting: 0,
		status: 'idle',
		lastEventBatch: { status: 'success', size: 1, attempts: 1, httpStatus: 200 },
	});
});

test('no Authorization header without authorization; event types filter; /apply and /data fire too', async () => {
	await register({ eventTypes: ['update'] });
	const id = (await add([{ Name: 'x' }])).json.records[0].id;
	await emu.webhooks.idle();
	expect(rx.got).toEqual([]);
	await api.post(`/api/docs/${docId}/apply`, [['UpdateRecord', 'People', id, { Name: 'y' }]]);
	await emu.webhooks.idle();
	expect(rx.got).toHaveLength(1);
	expect(rx.got[0].headers.authorization).toBeUndefined();
	expect(rx.got[0].body[0]).toMatchObject({ id, Name: 'y' });
	await api.patch(`/api/docs/${docId}/tables/People/data`, { id: [id], Name: ['z'] });
	await emu.webhooks.idle();
	expect(rx.got.map((g) => g.body[0].Name)).toEqual(['y', 'z']);
	// another table's rows are not sent
	await add([{ X: 'o' }], 'Other');
	await emu.webhooks.idle();
	expect(rx.got).toHaveLength(2);
});

test('isReadyColumn: only ready rows; becoming ready is an add; later updates while ready', async () => {
	await register({ eventTypes: ['add'], isReadyColumn: 'Ready' });
	const [a, b] = (
		await add([
			{ Name: 'a', Ready: false },
			{ Name: 'b', Ready: true },
		])
	).json.records.map((r) => r.id);
	await emu.webhooks.idle();
	expect(rx.got.map((g) => g.body.map((r) => r.id))).toEqual([[b]]);
	await update([{ id: a, Name: 'a2' }]); // not ready: nothing
	await update([{ id: a, Ready: true }]); // becomes ready: an add
	await update([{ id: a, Name: 'a3' }]); // an update: not subscribed
	await emu.webhooks.idle();
	expect(rx.got.map((g) => g.body.map((r) => [r.id, r.Name]))).toEqual([[[b, 'b']], [[a, 'a2']]]);
});

test('watchedColIds: updates only when a watched column changed; adds always', async () => {
	await register({ watchedColIds: ['N'] });
	const id = (await add([{ Name: 'a', N: 1 }])).json.records[0].id;
	await update([{ id, Name: 'b' }]);
	await update([{ id, N: 2 }]);
	await emu.webhooks.idle();
	expect(rx.got.map((g) => g.body.map((r) => [r.Name, r.N]))).toEqual([[['a', 1]], [['b', 2]]]);
});

test('a failing receiver is retried with growing delays and stalls the document queue; DELETE /webhooks/queue empties it', async () => {
	const other = await receiver();
	try {
		const failing = await register({});
		await api.post<{ webhooks: Array<{ id: string }> }>(hooks(), {
			webhooks: [{ fields: { url: other.url, eventTypes: ['add'], tableId: 'Other' } }],
		});
		rx.status = () => 500;
		await add([{ Name: 'a' }]);
		await add([{ X: 'o' }], 'Other');
		await new Promise((r) => setTimeout(r, 250));
		const attempts = emu.webhooks.deliveries.filter((d) => d.webhookId === failing);
		expect(attempts.length).toBeGreaterThanOrEqual(3);
		const gaps = attempts.slice(1, 3).map((d, i) => d.at - attempts[i].at);
		expect(gaps[1]).toBeGreaterThan(gaps[0]);
		expect(other.got).toEqual([]); // stalled behind the failing webhook
		// between two attempts the failing webhook is 'retrying'; while one is in flight it is
		// 'sending' (a slow machine can catch it there), so read the list between attempts
		const list = await waitFor(
			'the failing webhook is between two attempts (not sending)',
			async () => (await api.get<HookList>(hooks())).json.webhooks,
			(l) => l[0].usage.status !== 'sending',
			{ timeoutMs: 500, intervalMs: 10 },
		);
		expect(list.map((h) => h.usage.numWaiting)).toEqual([1, 1]);
		expect(list[0].usage).toMatchObject({
			status: 'retrying',
			lastEventBatch: { status: 'failure', httpStatus: 500 },
		});
		expect(emu.webhooks.queue(docId).map((b) => b.records.length)).toEqual([1, 1]);
		expect((await api.del(`${hooks()}/queue`)).json).toEqual({ success: true });
		await emu.webhooks.idle();
		expect(emu.webhooks.queue(docId)).toEqual([]);
		// the queue flows again
		rx.status = () => 200;
		await add([{ X: 'p' }], 'Other');
		await emu.webhooks.idle();
		expect(other.got.map((g) => g.body[0].X)).toEqual(['p']);
	} finally {
		await other.close();
	}
});

test('a removed webhook takes its waiting events with it; other documents are not stalled', async () => {
	const other = await receiver();
	try {
		const failing = await register({});
		await api.post(hooks(doc2Id), {
			webhooks: [{ fields: { url: other.url, eventTypes: ['add'], tableId: 'Things' } }],
		});
		rx.status = () => 503;
		await add([{ Name: 'a' }]);
		await add([{ X: 't' }], 'Things', doc2Id);
		await new Promise((r) => setTimeout(r, 60));
		expect(other.got.map((g) => g.body[0].X)).toEqual(['t']);
		await api.del(`${hooks()}/${failing}`);
		await emu.webhooks.idle();
		expect(emu.webhooks.queue(docId)).toEqual([]);
	} finally {
		await other.close();
	}
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for the emulator's background work: up to 5 s, checked every 10 ms. */
const WAIT = { timeoutMs: 5000, intervalMs: 10 };

emulatorOnly('the idle timeout and the Redis switch are the emulator’s').describe(
	"idle documents (Grist's GRIST_ACTIVEDOC_TIMEOUT_SECONDS: activeDocTimeoutMs)",
	() => {
		const IDLE = 300;
		afterEach(() => emu.webhooks.configure({ activeDocTimeoutMs: 0, redis: false }));

		test('which requests open a document, and which also restart its idle clock (grist-core ActiveDoc)', () => {
			for (const [method, sub, want] of [
				['GET', '/tables/People/records', 'restart'], // fetchQuery pings the timer
				['GET', '/tables/People/data', 'restart'],
				['POST', '/tables/People/records', 'restart'], // user actions: @keepDocOpen
				['POST', '/apply', 'restart'],
				['PATCH', '/webhooks/abc', 'restart'],
				['GET', '/tables/People/columns', 'open'],
				['GET', '/tables', 'open'],
				['GET', '/webhooks', 'open'],
				['POST', '/sql', 'open'],
				['DELETE', '/webhooks/queue', 'open'],
			] as const)
				expect([method, sub, docActivity(method, sub)]).toEqual([method, sub, want]);
		});

		test('without Redis, an idle document closes and its waiting deliveries are lost: they never arrive, even once n8n is back', async () => {
			emu.webhooks.configure({ activeDocTimeoutMs: IDLE });
			rx.status = () => 503; // n8n down
			await register({});
			const closesBefore = emu.webhooks.closes.length;
			await add([{ Name: 'lost' }]);
			await sleep(IDLE / 3);
			// reading columns reaches the open document but does not keep it open
			const columnsAt = Date.now();
			await api.get(`/api/docs/${docId}/tables/People/columns`);
			await until(
				'the idle document closed',
				() => emu.webhooks.closes.length > closesBefore,
				WAIT,
			);
			const close = emu.webhooks.closes[emu.webhooks.closes.length - 1];
			expect(close).toMatchObject({ docId, droppedRecords: 1, keptRecords: 0 });
			expect(close.lastActivityAt).toBeLessThan(columnsAt);
			expect(close.at - close.lastActivityAt).toBeGreaterThanOrEqual(IDLE - 5);
			expect(emu.webhooks.queue(docId)).toEqual([]);
			const tried = rx.got.length;
			expect(tried).toBeGreaterThanOrEqual(2); // retried while the document was open

			rx.status = () => 200; // n8n is back
			await sleep(IDLE);
			expect(rx.got.length).toBe(tried);
			// the delivery statistics went with the document
			const usage = (await api.get<HookList>(hooks())).json.webhooks[0].usage;
			expect(usage).toEqual({ numWaiting: 0, status: 'idle', lastEventBatch: null });
			// new rows are delivered; the lost one never is
			await add([{ Name: 'new' }]);
			await emu.webhooks.idle();
			expect(rx.got.slice(tried).map((g) => g.body.map((r) => r.Name))).toEqual([['new']]);
		});

		test('a document kept open (records read, rows written) keeps retrying and delivers once n8n is back', async () => {
			emu.webhooks.configure({ activeDocTimeoutMs: IDLE });
			rx.status = () => 503;
			await register({});
			const closesBefore = emu.webhooks.closes.length;
			await add([{ Name: 'kept open' }]);
			const readRecords = () => api.get(`/api/docs/${docId}/tables/People/records`);
			for (let i = 0; i < 6; i++) {
				await sleep(IDLE / 3);
				await readRecords();
			}
			expect(rx.got.length).toBeGreaterThanOrEqual(3);
			rx.status = () => 200;
			const delivered = () => rx.got.some((g) => g.body.some((r) => r.Name === 'kept open'));
			await until(
				'the row written while n8n was down was delivered',
				async () => {
					if (delivered()) return true;
					await readRecords(); // keeps the document open
					return delivered();
				},
				{ timeoutMs: 10_000, intervalMs: IDLE / 3 },
			);
			expect(emu.webhooks.closes.length).toBe(closesBefore);
		});

		test('with Redis (REDIS_URL) the queue outlives the close and is delivered when the document is opened again', async () => {
			emu.webhooks.configure({ activeDocTimeoutMs: IDLE, redis: true });
			rx.status = () => 503;
			await register({});
			const closesBefore = emu.webhooks.closes.length;
			await add([{ Name: 'in redis' }]);
			await until(
				'the idle document closed',
				() => emu.webhooks.closes.length > closesBefore,
				WAIT,
			);
			expect(emu.webhooks.closes[closesBefore]).toMatchObject({
				docId,
				droppedRecords: 0,
				keptRecords: 1,
			});
			const tried = rx.got.length;
			rx.status = () => 200;
			await sleep(IDLE);
			expect(rx.got.length).toBe(tried); // a closed document sends nothing
			// any request opens the document: the kept events are delivered first
			await api.get(`/api/docs/${docId}/tables`);
			await add([{ Name: 'after' }]);
			await emu.webhooks.idle();
			expect(rx.got.slice(tried).map((g) => g.body.map((r) => r.Name))).toEqual([
				['in redis'],
				['after'],
			]);
		});
	},
);
