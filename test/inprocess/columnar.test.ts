/**
 * columnar (the deprecated /data form) at level b against the emulator.
 */
import type { IDataObject } from 'n8n-workflow';

import type { DemoSite, GristEmulator } from '../emulator';
import { byId, docTable } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Items', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Qty', type: 'Int' },
		{ id: 'Day', type: 'Date' },
	]);
});

const path = (t: string) => `/api/docs/${demo.docId}/tables/${t}/data`;
const run = resourceRunner(fx, 'columnar', { defaults: () => docTable(demo.docId) });

function clear() {
	const ids = emu.records(demo.docId, 'Items').map((r) => r.id);
	if (ids.length) emu.removeRecords(demo.docId, 'Items', ids);
	emu.clearLog();
}

describe('columnar.getAll', () => {
	it('outputs the raw columnar object (hidden columns included, as Grist sends it)', async () => {
		const { items, error } = await run({
			operation: 'getAll',
			table: byId('Customers'),
			output: 'raw',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: [1, 2, 3],
			Name: ['Alice Martin', 'Bob Schmidt', 'Carol Jones'],
			Since: [1704067200, 1706745600, 1709251200],
		});
		expect(items[0].json).toHaveProperty('manualSort');
		expect(emu.log.map((e) => [e.method, e.apiPath, e.query])).toEqual([
			['GET', path('Customers'), {}],
		]);
	});

	it('outputs one simplified item per row, with filter, sort and limit', async () => {
		const { items } = await run({
			operation: 'getAll',
			table: byId('Orders'),
			limit: 2,
			filterType: 'json',
			filterJson: '{"Customer": [1]}',
			sort: { rules: [{ column: 'Amount', direction: 'asc' }] },
		});
		expect(items.map((i) => i.json)).toEqual([
			{
				id: 3,
				Customer: 1,
				Amount: 42.25,
				Ordered: '2024-06-03',
				Status: 'Shipped',
				Tags: ['gift', 'bulk'],
				Invoice: null,
				Total: 84.5,
			},
			{
				id: 1,
				Customer: 1,
				Amount: 120.5,
				Ordered: '2024-06-01',
				Status: 'Paid',
				Tags: ['rush'],
				Invoice: [demo.attachmentId],
				Total: 241,
			},
		]);
		expect(emu.log.find((e) => e.apiPath === path('Orders'))!.query).toEqual({
			limit: '2',
			filter: '{"Customer":[1]}',
			sort: 'Amount',
		});
	});
});

describe('columnar writes', () => {
	it('creates rows of all items in one POST …/data, encoding by column type', async () => {
		clear();
		const { items, error } = await run(
			{ operation: 'create', table: byId('Items'), data: '={{ JSON.stringify($json) }}' },
			{
				input: [
					{ json: { Name: ['a', 'b'], Qty: ['1', 2], Day: ['2024-01-10', null] } },
					{ json: { Name: ['c'], Qty: [3], Day: ['2024-01-11'] } },
				],
			},
		);
		expect(error).toBeUndefined();
		const posts = emu.log.filter((e) => e.method === 'POST');
		expect(posts.map((p) => [p.apiPath, p.body])).toEqual([
			[
				path('Items'),
				{ Name: ['a', 'b', 'c'], Qty: [1, 2, 3], Day: [1704844800, null, 1704931200] },
			],
		]);
		const ids = emu.records(demo.docId, 'Items').map((r) => r.id);
		expect(items.map((i) => [i.json, (i.pairedItem as { item: number }).item])).toEqual([
			[{ id: ids.slice(0, 2), Name: ['a', 'b'], Qty: [1, 2], Day: ['2024-01-10', null] }, 0],
			[{ id: ids.slice(2), Name: ['c'], Qty: [3], Day: ['2024-01-11'] }, 1],
		]);
	});

	it('updates rows with PATCH …/data (by id), grouping items by column set', async () => {
		clear();
		const ids = emu.addRecords(demo.docId, 'Items', [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }]);
		emu.clearLog();
		const { error } = await run(
			{ operation: 'update', table: byId('Items'), data: '={{ JSON.stringify($json) }}' },
			{
				input: [
					{ json: { id: [ids[0]], Qty: [5] } },
					{ json: { id: [ids[1]], Name: ['B'] } },
					{ json: { id: [ids[2]], Qty: [7] } },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(emu.log.filter((e) => e.method === 'PATCH').map((e) => e.body)).toEqual([
			{ id: [ids[0], ids[2]], Qty: [5, 7] },
			{ id: [ids[1]], Name: ['B'] },
		]);
		expect(emu.records(demo.docId, 'Items').map((r) => [r.fields.Name, r.fields.Qty])).toEqual([
			['a', 5],
			['B', 0],
			['c', 7],
		]);
	});

	it('deletes with POST …/data/delete', async () => {
		clear();
		const ids = emu.addRecords(demo.docId, 'Items', [{ Name: 'a' }, { Name: 'b' }]);
		emu.clearLog();
		const { items, error } = await run({
			operation: 'delete',
			table: byId('Items'),
			rowIds: ids.join(','),
		});
		expect(error).toBeUndefined();
		expect(emu.log.map((e) => [e.method, e.apiPath, e.body])).toEqual([
			['POST', `${path('Items')}/delete`, ids],
		]);
		expect(items.map((i) => i.json)).toEqual([{ deleted: true, ids }]);
	});

	it.each([
		['{"Name": "a"}', 'has a value for "Name" that is not an array'],
		['{"Name": ["a"], "Qty": [1, 2]}', 'has columns of different lengths'],
		['{"Name": ["a"', 'is not valid JSON'],
		['{}', 'has no rows'],
	])('rejects %s before any request', async (data, message) => {
		const { error } = await run({ operation: 'create', table: byId('Items'), data });
		expect(error?.message).toContain(message);
		expect(emu.log).toEqual([]);
	});

	it('requires an id array to update, and a value that fits each column', async () => {
		const noId = await run({ operation: 'update', table: byId('Items'), data: '{"Qty": [1]}' });
		expect(noId.error?.message).toBe('The Columns (JSON) of item 0 has no "id" array');
		const bad = await run(
			{ operation: 'create', table: byId('Items'), data: '{"Qty": ["lots"]}' },
			{ continueOnFail: true },
		);
		expect(bad.items.map((i) => i.json.error as IDataObject)).toEqual([
			'Field "Qty" of item 0: The value "lots" does not fit a Int column: expected a whole number',
		]);
		expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);
	});
});
