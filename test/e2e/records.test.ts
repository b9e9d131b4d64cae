/**
 * Record operations in a real n8n 2.41.1 with the packed package installed (test level c),
 * against the emulator: batching across items, typed filters, updates, upserts, deletes, errors.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, byId } from '../harness/builders';
import {
	gristNode,
	manualWorkflow,
	useN8nDemoSite,
	type CredentialRef,
	type N8n,
	rowsSource,
} from '../harness/e2e';

const fx = useN8nDemoSite({
	credential: 'Grist records',
	seed: (emu, demo) =>
		emu.addTable(demo.docId, 'Leads', [
			{ id: 'Email', type: 'Text' },
			{ id: 'Score', type: 'Int' },
			{ id: 'Seen', type: 'Date' },
			{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['hot', 'cold'] } },
		]),
});
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));

const base = () => ({ resource: 'record', document: byId(demo.docId), table: byId('Leads') });

describe('records in a real n8n', () => {
	test('create: 1,200 items → 3 POSTs, values encoded, outputs paired', async () => {
		const rows = Array.from({ length: 1200 }, (_, i) => ({
			Email: `u${i}@x.org`,
			Score: i,
			Seen: '2024-01-10',
			Tags: i % 2 ? ['hot'] : ['cold', 'hot'],
		}));
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource(rows),
				gristNode({ ...base(), operation: 'create', columns: autoMap() }, cred),
			]),
		);
		expect(run.error).toBeUndefined();
		expect(run.status).toBe('success');
		const posts = emu.log.filter((e) => e.method === 'POST');
		expect(
			posts.map((p) => [p.apiPath, (p.body as { records: unknown[] }).records.length]),
		).toEqual([
			[`/api/docs/${demo.docId}/tables/Leads/records`, 500],
			[`/api/docs/${demo.docId}/tables/Leads/records`, 500],
			[`/api/docs/${demo.docId}/tables/Leads/records`, 200],
		]);
		expect((posts[0].body as { records: unknown[] }).records[1]).toEqual({
			fields: { Email: 'u1@x.org', Score: 1, Seen: 1704844800, Tags: ['L', 'hot'] },
		});
		const out = run.items('Grist');
		expect(out).toHaveLength(1200);
		expect(out.map((i) => i.pairedItem)).toEqual(rows.map((_, i) => ({ item: i })));
		expect(out[1].json).toEqual({
			id: expect.any(Number),
			Email: 'u1@x.org',
			Score: 1,
			Seen: '2024-01-10',
			Tags: ['hot'],
		});
		expect(emu.records(demo.docId, 'Leads')).toHaveLength(1200);
	});

	test("create with items of other fields: one POST per field set, a missing field gets its column's default", async () => {
		const before = new Set(emu.records(demo.docId, 'Leads').map((r) => r.id));
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource([{ Email: 'a@x.org' }, { Score: 7 }, { Email: 'c@x.org' }]),
				gristNode({ ...base(), operation: 'create', columns: autoMap() }, cred),
			]),
		);
		expect(run.error).toBeUndefined();
		expect(emu.log.filter((e) => e.method === 'POST').map((e) => e.body)).toEqual([
			{ records: [{ fields: { Email: 'a@x.org' } }, { fields: { Email: 'c@x.org' } }] },
			{ records: [{ fields: { Score: 7 } }] },
		]);
		const added = emu.records(demo.docId, 'Leads').filter((r) => !before.has(r.id));
		expect(added.map((r) => [r.fields.Email, r.fields.Score])).toEqual([
			['a@x.org', 0],
			['c@x.org', 0],
			['', 7],
		]);
		expect(run.output('Grist')).toEqual([
			{ id: added[0].id, Email: 'a@x.org' },
			{ id: added[2].id, Score: 7 },
			{ id: added[1].id, Email: 'c@x.org' },
		]);
		emu.removeRecords(
			demo.docId,
			'Leads',
			added.map((r) => r.id),
		);
	});

	test('getAll: typed filter builder, sort and limit, simplified output', async () => {
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				gristNode(
					{
						...base(),
						operation: 'getAll',
						limit: 3,
						filterType: 'conditions',
						conditions: { conditions: [{ column: 'Score', values: '5, 6, 7, 8' }] },
						sort: { rules: [{ column: 'Score', direction: 'desc' }] },
					},
					cred,
				),
			]),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Grist').map((j) => [j.Email, j.Score, j.Seen, j.Tags])).toEqual([
			['u8@x.org', 8, '2024-01-10', ['cold', 'hot']],
			['u7@x.org', 7, '2024-01-10', ['hot']],
			['u6@x.org', 6, '2024-01-10', ['cold', 'hot']],
		]);
		const get = emu.log.find((e) => e.apiPath.endsWith('/data'))!;
		expect(get.query).toEqual({ limit: '3', filter: '{"Score":[5,6,7,8]}', sort: '-Score' });
	});

	test('getAll with Add Reference Display Values: _display shows the customer names, one /sql read', async () => {
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				gristNode(
					{
						...base(),
						table: byId('Orders'),
						operation: 'getAll',
						limit: 2,
						options: { referenceDisplay: true },
					},
					cred,
				),
			]),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Grist').map((j) => [j.Customer, j._display])).toEqual([
			[1, { Customer: 'Alice Martin' }],
			[2, { Customer: 'Bob Schmidt' }],
		]);
		expect(emu.log.filter((e) => e.apiPath.endsWith('/sql'))).toHaveLength(1);
	});

	test('get: the items of one table in one read, outputs paired in input order, each row as getAll gives it; a missing row ID with Continue', async () => {
		const orders = { ...base(), table: byId('Orders') };
		const many = await n8n.runWorkflow(
			manualWorkflow([gristNode({ ...orders, operation: 'getAll', returnAll: true }, cred)]),
		);
		expect(many.error).toBeUndefined();
		const row = (id: number) => many.output('Grist').find((j) => j.id === id)!;
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource([{ id: 3 }, { id: 999 }, { id: 1 }]),
				gristNode({ ...orders, operation: 'get', rowId: '={{ $json.id }}' }, cred, {
					name: 'Get',
					onError: 'continueRegularOutput',
				}),
			]),
		);
		expect(run.error).toBeUndefined();
		const out = run.output('Get');
		expect(out).toEqual([
			row(3),
			{
				error: 'No record with row ID 999 in table "Orders" (item 1)',
				description: expect.stringMatching(/^Check the Row ID/),
			},
			row(1),
		]);
		expect(JSON.stringify(out[0])).toBe(JSON.stringify(row(3)));
		expect(run.items('Get').map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(
			emu.log.filter((e) => e.apiPath.endsWith('/records')).map((e) => e.query.filter),
		).toEqual(['{"id":[3,999,1]}']);
	});

	test('get: a Row ID that is not a row ID fails the node naming the field and the item, before any request', async () => {
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource([{ id: 1 }, { id: 'abc' }]),
				gristNode({ ...base(), operation: 'get', rowId: '={{ $json.id }}' }, cred),
			]),
		);
		expect(run.status).toBe('error');
		expect(run.error?.message).toBe('The Row ID field of item 1 has "abc", which is not a row ID');
		expect(emu.log).toEqual([]);
	});

	test('getAll → update → delete: one PATCH and one POST …/records/delete for all items', async () => {
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				gristNode(
					{
						...base(),
						operation: 'getAll',
						returnAll: true,
						filterType: 'json',
						filterJson: '{"Score": [1, 2, 3]}',
					},
					cred,
					{ name: 'Read' },
				),
				gristNode(
					{
						...base(),
						operation: 'update',
						rowId: '={{ $json.id }}',
						dataMode: 'json',
						fieldsJson: '={{ JSON.stringify({ Score: $json.Score * 100 }) }}',
					},
					cred,
					{ name: 'Update' },
				),
				gristNode({ ...base(), operation: 'delete', rowIds: '={{ $json.id }}' }, cred, {
					name: 'Delete',
				}),
			]),
		);
		expect(run.error).toBeUndefined();
		const writes = emu.log.filter((e) => e.method !== 'GET');
		expect(writes.map((e) => [e.method, e.apiPath.split('/tables/')[1]])).toEqual([
			['PATCH', 'Leads/records'],
			['POST', 'Leads/records/delete'],
		]);
		expect(
			(writes[0].body as { records: Array<{ fields: unknown }> }).records.map((r) => r.fields),
		).toEqual([{ Score: 100 }, { Score: 200 }, { Score: 300 }]);
		expect(run.output('Delete')).toEqual([
			{ deleted: true, ids: [2] },
			{ deleted: true, ids: [3] },
			{ deleted: true, ids: [4] },
		]);
		expect(emu.records(demo.docId, 'Leads')).toHaveLength(1197);
	});

	test('upsert by Email: updates the match and adds the new row in one PUT', async () => {
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource([
					{ Email: 'u10@x.org', Score: -1 },
					{ Email: 'new@x.org', Score: 42 },
				]),
				gristNode({ ...base(), operation: 'upsert', columns: autoMap(['Email']) }, cred),
			]),
		);
		expect(run.error).toBeUndefined();
		expect(emu.log.filter((e) => e.method === 'PUT')).toHaveLength(1);
		const leads = emu.records(demo.docId, 'Leads');
		expect(leads.find((r) => r.fields.Email === 'u10@x.org')!.fields.Score).toBe(-1);
		expect(leads.find((r) => r.fields.Email === 'new@x.org')!.fields.Score).toBe(42);
		expect(run.output('Grist').map((j) => j.Email)).toEqual(['u10@x.org', 'new@x.org']);
	});

	test('bad input fails the node with a message naming the field and item, before any write', async () => {
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource([{ Score: 1 }, { Score: 'lots' }]),
				gristNode({ ...base(), operation: 'create', columns: autoMap() }, cred),
			]),
		);
		expect(run.status).toBe('error');
		expect(run.error?.message).toBe(
			'Field "Score" of item 1: The value "lots" does not fit a Int column: expected a whole number; no item was written',
		);
		expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);
	});
});
