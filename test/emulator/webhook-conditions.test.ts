/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test of the emulator (a local receiver for deliveries), not node code */
/**
 * Emulator: webhook conditions (webhook-conditions.ts) — JSON config with notifyWhen, text mode,
 * GET /triggers, and the measured pitfalls. Runs against a real Grist too (`npm run test:real`:
 * its ALLOWED_WEBHOOK_DOMAINS is `*`, it delivers to the local receiver).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type GristEmulator } from './index';
import { client, type ColumnsBody, type ErrorBody } from './testutil';

let emu: GristEmulator;
let api: ReturnType<typeof client>;
let docId: string;
let server: http.Server;
let base: string;
/** Row ids delivered, per receiver path. */
const got = new Map<string, number[]>();
const OWNER = 'whc-owner-key-0123456789';

beforeAll(async () => {
	emu = await startEmulator({ allowedWebhookDomains: '*', webhookRetryDelaysMs: [50] });
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	docId = emu.addDoc(emu.addWorkspace(org.id, 'W').id, { name: 'Conditions' }).id;
	api = client(emu, OWNER);
	server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const rows = JSON.parse(Buffer.concat(chunks).toString()) as Array<{ id: number }>;
			got.set(req.url!, [...(got.get(req.url!) ?? []), ...rows.map((r) => r.id)]);
			res.writeHead(200).end('ok');
		});
	});
	await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
	await new Promise<void>((ok) => server.close(() => ok()));
	await emu.close();
});

let n = 0;
function table(): string {
	const t = `Cond${++n}`;
	emu.addTable(docId, t, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Status', type: 'Choice' },
		{ id: 'Amount', type: 'Numeric' },
	]);
	return t;
}

async function colRef(t: string, colId: string): Promise<number> {
	const cols = (await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${t}/columns`)).json;
	return cols.columns.find((c) => c.id === colId)!.fields.colRef as number;
}

async function hook(t: string, path: string, fields: Record<string, unknown>): Promise<string> {
	const res = await api.post<{ webhooks: Array<{ id: string }> } & ErrorBody>(
		`/api/docs/${docId}/webhooks`,
		{
			webhooks: [
				{ fields: { url: base + path, tableId: t, eventTypes: ['add', 'update'], ...fields } },
			],
		},
	);
	expect(res.status).toBe(200);
	return res.json.webhooks[0].id;
}

const records = (t: string) => `/api/docs/${docId}/tables/${t}/records`;
async function add(t: string, rows: Array<Record<string, unknown>>): Promise<number[]> {
	const res = await api.post<{ records: Array<{ id: number }> }>(records(t), {
		records: rows.map((fields) => ({ fields })),
	});
	return res.json.records.map((r) => r.id);
}
async function patch(t: string, rows: Array<{ id: number } & Record<string, unknown>>) {
	await api.patch(records(t), { records: rows.map(({ id, ...fields }) => ({ id, fields })) });
}
/** What each path received during `change` (after Grist delivered it). */
async function during(paths: string[], change: () => Promise<unknown>) {
	for (const p of paths) got.delete(p);
	await change();
	await emu.webhooks.idle();
	return Object.fromEntries(paths.map((p) => [p, [...(got.get(p) ?? [])].sort((a, b) => a - b)]));
}
const config = (c: Record<string, unknown>) => JSON.stringify({ config: c });

describe('JSON config condition with notifyWhen', () => {
	it('sends as the measured table says for absent / enters / leaves / updated', async () => {
		const t = table();
		const filter = [{ colRef: await colRef(t, 'Status'), filter: '{"included":["Open"]}' }];
		const modes = ['absent', 'enters', 'leaves', 'updated'];
		for (const mode of modes)
			await hook(t, `/${t}/${mode}`, {
				condition: config({
					columnFilters: filter,
					...(mode === 'absent' ? {} : { notifyWhen: mode }),
				}),
			});
		const paths = modes.map((m) => `/${t}/${m}`);
		let openId = 0;
		let doneId = 0;
		const step = async (change: () => Promise<unknown>) => {
			const r = await during(paths, change);
			return modes.map((m) => r[`/${t}/${m}`]);
		};
		expect(
			await step(async () => ([openId] = await add(t, [{ Name: 'a', Status: 'Open' }]))),
		).toEqual([[openId], [openId], [], []]);
		expect(
			await step(async () => ([doneId] = await add(t, [{ Name: 'b', Status: 'Done' }]))),
		).toEqual([[], [], [], []]);
		expect(await step(() => patch(t, [{ id: openId, Name: 'a2' }]))).toEqual([
			[openId],
			[],
			[],
			[openId],
		]);
		expect(await step(() => patch(t, [{ id: openId, Status: 'Done' }]))).toEqual([
			[],
			[],
			[openId],
			[],
		]);
		expect(await step(() => patch(t, [{ id: doneId, Status: 'Open' }]))).toEqual([
			[doneId],
			[doneId],
			[],
			[],
		]);
		expect(await step(() => patch(t, [{ id: openId, Name: 'still done' }]))).toEqual([
			[],
			[],
			[],
			[],
		]);
		expect(
			await step(() => api.post(`/api/docs/${docId}/tables/${t}/data/delete`, [doneId])),
		).toEqual([[], [], [], []]);
	}, 60_000);

	it('range filter and custom expression are ANDed; a custom expression that does not compile never matches', async () => {
		const t = table();
		const amount = await colRef(t, 'Amount');
		await hook(t, `/${t}/range`, {
			condition: config({
				columnFilters: [{ colRef: amount, filter: '{"min":10,"max":20}' }],
				customExpression: '$Name != "skip"',
			}),
		});
		await hook(t, `/${t}/bad`, { condition: config({ customExpression: 'user.Email == "x"' }) });
		const r = await during([`/${t}/range`, `/${t}/bad`], () =>
			add(t, [
				{ Name: 'a', Amount: 5 },
				{ Name: 'b', Amount: 10 },
				{ Name: 'skip', Amount: 15 },
				{ Name: 'c', Amount: 20 },
				{ Name: 'd', Amount: 21 },
			]),
		);
		expect(r[`/${t}/range`]).toHaveLength(2);
		expect(r[`/${t}/bad`]).toEqual([]);
	}, 60_000);

	it('excluded + leaves: a new row that does not match is sent (its "old" is empty)', async () => {
		const t = table();
		const filter = [{ colRef: await colRef(t, 'Status'), filter: '{"excluded":["Done"]}' }];
		await hook(t, `/${t}/leaves`, {
			condition: config({ columnFilters: filter, notifyWhen: 'leaves' }),
		});
		let ids: number[] = [];
		const r = await during([`/${t}/leaves`], async () => {
			ids = await add(t, [{ Status: 'Done' }, { Status: 'Open' }]);
		});
		expect(r[`/${t}/leaves`]).toEqual([ids[0]]);
	}, 60_000);

	it('a bulk edit of 15 rows sends enters for only 10 of them, unless a webhook watches columns', async () => {
		const t = table();
		const filter = [{ colRef: await colRef(t, 'Status'), filter: '{"included":["Open"]}' }];
		await hook(t, `/${t}/enters`, {
			condition: config({ columnFilters: filter, notifyWhen: 'enters' }),
		});
		const ids = await add(
			t,
			Array.from({ length: 15 }, () => ({ Status: 'Done' })),
		);
		await emu.webhooks.idle();
		const toOpen = () =>
			patch(
				t,
				ids.map((id) => ({ id, Status: 'Open' })),
			);
		const toDone = () =>
			patch(
				t,
				ids.map((id) => ({ id, Status: 'Done' })),
			);
		expect((await during([`/${t}/enters`], toOpen))[`/${t}/enters`]).toHaveLength(10);
		await toDone();
		await hook(t, `/${t}/watched`, {
			condition: config({ columnFilters: filter, notifyWhen: 'enters' }),
			watchedColIds: ['Status'],
		});
		const r = await during([`/${t}/enters`, `/${t}/watched`], toOpen);
		expect(r[`/${t}/enters`]).toEqual([...ids].sort((a, b) => a - b));
		expect(r[`/${t}/watched`]).toEqual([...ids].sort((a, b) => a - b));
	}, 60_000);
});

describe('text condition, storage and validation', () => {
	it('text mode: rec and oldRec; an unknown variable makes Grist ignore the condition', async () => {
		const t = table();
		await hook(t, `/${t}/text`, { condition: '$Amount > 10 and not oldRec.Amount > 10' });
		await hook(t, `/${t}/unknown`, { condition: 'user.Email == "x"' });
		let ids: number[] = [];
		const r1 = await during([`/${t}/text`, `/${t}/unknown`], async () => {
			ids = await add(t, [{ Amount: 5 }, { Amount: 50 }]);
		});
		expect(r1[`/${t}/text`]).toEqual([ids[1]]);
		expect(r1[`/${t}/unknown`]).toEqual(ids);
		const r2 = await during([`/${t}/text`], () =>
			patch(t, [
				{ id: ids[0], Amount: 20 },
				{ id: ids[1], Amount: 60 },
			]),
		);
		expect(r2[`/${t}/text`]).toEqual([ids[0]]);
	}, 60_000);

	it('GET /webhooks never shows the condition; GET /triggers does; "" removes it (then null)', async () => {
		const t = table();
		const cond = config({ customExpression: '$Amount > 1', notifyWhen: 'enters' });
		const id = await hook(t, `/${t}/x`, { condition: cond });
		const list = await api.get<{ webhooks: Array<{ id: string; fields: object }> }>(
			`/api/docs/${docId}/webhooks`,
		);
		expect(list.json.webhooks.find((w) => w.id === id)!.fields).not.toHaveProperty('condition');
		type Triggers = { records: Array<{ fields: { actions: string; condition: string } }> };
		const stored = async () =>
			(await api.get<Triggers>(`/api/docs/${docId}/triggers`)).json.records.find((r) =>
				r.fields.actions.includes(id),
			)!.fields.condition;
		const parsed = JSON.parse(await stored()) as { config: Record<string, unknown> };
		expect(parsed.config).toMatchObject({ customExpression: '$Amount > 1', notifyWhen: 'enters' });
		expect(parsed.config).toHaveProperty('customExpressionParsed');
		await api.patch(`/api/docs/${docId}/webhooks/${id}`, { condition: '' });
		expect(await stored()).toBeNull();
	}, 60_000);

	it('refuses a syntax error and event types other than add and update', async () => {
		const t = table();
		const syntax = await api.post<ErrorBody>(`/api/docs/${docId}/webhooks`, {
			webhooks: [
				{
					fields: { url: `${base}/s`, tableId: t, eventTypes: ['add'], condition: '$Amount >' },
				},
			],
		});
		expect(syntax.status).toBe(400);
		expect(syntax.json.error).toMatch(/SyntaxError/);
		const events = await api.post<ErrorBody>(`/api/docs/${docId}/webhooks`, {
			webhooks: [{ fields: { url: `${base}/e`, tableId: t, eventTypes: ['add', 'delete'] } }],
		});
		expect(events.status).toBe(400);
		expect(events.json.details?.userError).toContain('eventTypes[1] is none of "add", "update"');
	}, 60_000);
});
