/**
 * Grist Instant Trigger with Filter and When, and Webhook → Create / Update with a
 * condition, run by n8n-core against the emulator, or a real Grist (`npm run test:real`: it
 * delivers to the stand-in of n8n's webhook endpoint). The condition is read back from Grist's
 * GET /triggers (GET /webhooks never shows it).
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { client } from '../emulator/testutil';
import { docTable, rl } from '../harness/builders';
import { deliveredJson } from '../harness/emitted';
import { runNode } from '../harness/inprocess';
import {
	createWebhookTrigger,
	serveWebhooks,
	type WebhookTrigger,
} from '../harness/inprocess/webhook';

const OWNER_KEY = `owner-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
let bridge: Awaited<ReturnType<typeof serveWebhooks>>;
let current: WebhookTrigger | undefined;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator({ allowedWebhookDomains: '*', webhookRetryDelaysMs: [20, 40] });
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: OWNER_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	docId = emu.addDoc(emu.addWorkspace(org.id, 'Main').id, { name: 'Conditional hooks' }).id;
	api = client(emu, OWNER_KEY);
	bridge = await serveWebhooks(() => {
		if (!current) throw new Error('no trigger');
		return current;
	});
}, 60_000);
afterAll(async () => {
	await bridge?.close();
	await emu?.close();
});
beforeEach(() => {
	bridge.results.length = 0;
});

function newTable(): string {
	tableSeq += 1;
	const tableId = `Tasks${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Approved'] } },
		{ id: 'Amount', type: 'Numeric' },
	]);
	return tableId;
}

const approved = {
	filterType: 'conditions',
	conditions: { conditions: [{ column: 'Status', match: 'equals', values: 'Approved' }] },
};

function trigger(tableId: string, params: IDataObject): WebhookTrigger {
	current = createWebhookTrigger({
		node: new GristWebhookTrigger(),
		parameters: { ...docTable(docId, tableId), event: 'add', ...params },
		credentials: { gristRecordsApi: { apiKey: OWNER_KEY, url: emu.url } },
		baseUrl: bridge.baseUrl,
	});
	return current;
}

const records = (tableId: string) => `/api/docs/${docId}/tables/${tableId}/records`;
async function add(tableId: string, rows: IDataObject[]): Promise<number[]> {
	const r = await api.post<{ records: Array<{ id: number }> }>(records(tableId), {
		records: rows.map((fields) => ({ fields })),
	});
	return r.json.records.map((x) => x.id);
}
async function set(tableId: string, rows: Array<{ id: number } & IDataObject>) {
	await api.patch(records(tableId), {
		records: rows.map(({ id, ...fields }) => ({ id, fields })),
	});
	await emu.webhooks.idle();
}
/** Each workflow start: the ids and Status of its items. */
const starts = () =>
	deliveredJson(bridge.results).map((items) => items.map((j) => [j.id, j.Status]));

const hooksOf = () => emu.webhooks.list(docId);
/** The stored condition of each webhook of the document (GET /triggers). */
async function conditions(): Promise<Map<string, { config?: IDataObject } | null>> {
	const res = await api.get<{ records: Array<{ fields: { actions: string; condition: string } }> }>(
		`/api/docs/${docId}/triggers`,
	);
	const out = new Map<string, { config?: IDataObject } | null>();
	for (const r of res.json.records) {
		const actions = JSON.parse(r.fields.actions) as Array<{ id: string }>;
		const c = r.fields.condition;
		out.set(actions[0].id, c ? (JSON.parse(c) as { config?: IDataObject }) : null);
	}
	return out;
}

test('Row Starts Matching fires once when Status becomes Approved; Stops Matching once when it leaves', async () => {
	const tableId = newTable();
	const t = trigger(tableId, { ...approved, notifyWhen: 'enters' });
	expect(await t.activate()).toBe('created');
	const [hook] = hooksOf();
	// a transition needs update events, and watches the condition's column (bulk edits)
	expect(hook).toMatchObject({ eventTypes: ['add', 'update'], watchedColIds: ['Status'] });
	expect((await conditions()).get(hook.id)?.config).toMatchObject({ notifyWhen: 'enters' });

	const [a, b] = await add(tableId, [
		{ Name: 'a', Status: 'Open' },
		{ Name: 'b', Status: 'Approved' },
	]);
	await emu.webhooks.idle();
	await set(tableId, [{ id: a, Status: 'Approved' }]);
	await set(tableId, [{ id: a, Name: 'a2' }]); // still Approved: no new start
	await set(tableId, [{ id: b, Status: 'Open' }]); // leaves: not for enters
	expect(starts()).toEqual([[[b, 'Approved']], [[a, 'Approved']]]);

	// the condition changes while active (n8n: deactivate with the old, activate the new)
	bridge.results.length = 0;
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
	t.setParameters({ ...docTable(docId, tableId), event: 'add', ...approved, notifyWhen: 'leaves' });
	expect(await t.activate()).toBe('created');
	await set(tableId, [{ id: a, Status: 'Open' }]);
	await set(tableId, [{ id: b, Name: 'b2' }]); // was not matching: nothing
	expect(starts()).toEqual([[[a, 'Open']]]);
	await t.deactivate();
	expect(hooksOf()).toEqual([]);
}, 60_000);

test('Changes While Matching and Trigger On Events While Matching (formula); a restart keeps the registration', async () => {
	const tableId = newTable();
	const t = trigger(tableId, {
		filterType: 'formula',
		filterFormula: '$Amount >= 100',
		notifyWhen: 'updated',
	});
	await t.activate();
	const [first] = hooksOf();
	// every change counts for "updated": it watches all the table's columns
	expect(first.watchedColIds).toEqual(['Name', 'Status', 'Amount']);
	expect(await t.restart()).toBe('existed');
	expect(hooksOf().map((h) => h.id)).toEqual([first.id]);
	const [a, b] = await add(tableId, [{ Amount: 150 }, { Amount: 5 }]);
	await emu.webhooks.idle();
	await set(tableId, [{ id: a, Name: 'big' }]);
	await set(tableId, [{ id: b, Name: 'small' }]);
	await set(tableId, [{ id: a, Amount: 50 }]); // leaves: not an update while matching
	expect(starts().map((s) => s.map(([id]) => id))).toEqual([[a]]);

	// a condition changed while n8n was down (no deactivation): the restart re-registers
	t.setParameters({
		...docTable(docId, tableId),
		event: 'addOrUpdate',
		filterType: 'formula',
		filterFormula: '$Amount >= 100',
	});
	expect(await t.restart()).toBe('created');
	const [second] = hooksOf();
	expect(second.id).not.toBe(first.id);
	expect(second).toMatchObject({ eventTypes: ['add', 'update'], watchedColIds: [] });
	expect((await conditions()).get(second.id)?.config).toEqual(
		expect.objectContaining({ customExpression: '$Amount >= 100' }),
	);
	expect((await conditions()).get(second.id)?.config).not.toHaveProperty('notifyWhen');
	bridge.results.length = 0;
	await add(tableId, [{ Amount: 500 }, { Amount: 1 }]);
	await emu.webhooks.idle();
	expect(starts().map((s) => s.length)).toEqual([1]);

	// the condition removed: re-registered without one
	t.setParameters({ ...docTable(docId, tableId), event: 'addOrUpdate' });
	expect(await t.restart()).toBe('created');
	const [third] = hooksOf();
	expect((await conditions()).get(third.id) ?? null).toBeNull();
	await t.deactivate();
}, 60_000);

test('a formula with an unknown column or name is refused before anything is registered', async () => {
	const tableId = newTable();
	const t = trigger(tableId, { filterType: 'formula', filterFormula: '$Stauts == "Open"' });
	await expect(t.activate()).rejects.toThrow(/column "Stauts", which the table does not have/);
	t.setParameters({
		...docTable(docId, tableId),
		filterType: 'formula',
		filterFormula: 'user.Email == "a@b.c"',
	});
	await expect(t.activate()).rejects.toThrow(/name "user"/);
	t.setParameters({
		...docTable(docId, tableId),
		filterType: 'conditions',
		conditions: { conditions: [{ column: 'Name', match: 'gte', values: 'a' }] },
	});
	await expect(t.activate()).rejects.toThrow(/Grist compares only numbers and dates/);
	expect(hooksOf()).toEqual([]);
}, 60_000);

describe('Webhook → Create / Update with a condition', () => {
	const url = 'http://127.0.0.1:9/never';
	async function run(params: IDataObject) {
		return await runNode({
			node: new Grist(),
			parameters: { resource: 'webhook', document: rl('id', docId), ...params },
			credentials: { apiKey: OWNER_KEY, url: emu.url },
		});
	}

	test('Create sends the condition with the events and watched columns of When; Update changes and removes it', async () => {
		const tableId = newTable();
		const created = await run({
			operation: 'create',
			table: rl('id', tableId),
			url,
			event: 'add',
			...approved,
			notifyWhen: 'leaves',
		});
		expect(created.error).toBeUndefined();
		const id = String(created.items[0].json.id);
		const hook = () => hooksOf().find((h) => h.id === id)!;
		expect(hook()).toMatchObject({ eventTypes: ['add', 'update'], watchedColIds: ['Status'] });
		expect((await conditions()).get(id)?.config).toMatchObject({ notifyWhen: 'leaves' });

		// Update: a new condition (the webhook's table is read from Grist); Ready Column kept
		const updated = await run({
			operation: 'update',
			webhookId: id,
			filterType: 'formula',
			filterFormula: '$Amount > 10',
			notifyWhen: 'enters',
			updateFields: { name: 'big ones' },
		});
		expect(updated.error).toBeUndefined();
		expect(hook()).toMatchObject({ name: 'big ones', watchedColIds: ['Amount'] });
		expect((await conditions()).get(id)?.config).toMatchObject({
			customExpression: '$Amount > 10',
			notifyWhen: 'enters',
		});
		// Keep as Is (the default) leaves it; None removes it
		await run({ operation: 'update', webhookId: id, updateFields: { memo: 'm' } });
		expect((await conditions()).get(id)?.config).toMatchObject({ notifyWhen: 'enters' });
		await run({ operation: 'update', webhookId: id, filterType: 'none' });
		expect((await conditions()).get(id) ?? null).toBeNull();

		const bad = await run({
			operation: 'update',
			webhookId: id,
			filterType: 'conditions',
			conditions: { conditions: [{ column: 'Nope', values: 'x' }] },
		});
		expect(bad.error?.message).toMatch(/no column "Nope" \(item 0\)/);
		await api.del(`/api/docs/${docId}/webhooks/${id}`);
	}, 60_000);
});
