/**
 * Options → Batch Size of batched writes: records per request, still bounded by
 * Grist's 1 MB body limit; default 500 as before the option. Request counts from the emulator's log.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, byId, docTable } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let seq = 0;

beforeAll(() => ({ emu, demo } = fx));

function newTable(): string {
	seq += 1;
	const t = `Batch${seq}`;
	emu.addTable(demo.docId, t, [
		{ id: 'N', type: 'Int' },
		{ id: 'Text', type: 'Text' },
	]);
	return t;
}

const write = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId) });

/** Runs on `table` with the resource of `parameters`; `writes`: method and last path segment of each write. */
async function run(table: string, parameters: IDataObject, input: INodeExecutionData[]) {
	emu.clearLog();
	const r = await write({ table: byId(table), ...parameters }, { input });
	const writes = emu.log.filter((e) => e.method !== 'GET');
	return { ...r, writes: writes.map((e) => `${e.method} ${e.apiPath.split('/').pop()}`) };
}

const rows = (n: number, text = '') =>
	Array.from({ length: n }, (_, i) => ({ json: { N: i + 1, Text: text } }));

describe('record create', () => {
	it('default: 500 records per request, as before the option', async () => {
		const t = newTable();
		const r = await run(
			t,
			{ resource: 'record', operation: 'create', columns: autoMap() },
			rows(1200),
		);
		expect(r.error).toBeUndefined();
		expect(r.writes).toEqual(Array(3).fill('POST records'));
		expect(emu.records(demo.docId, t)).toHaveLength(1200);
	});

	it('Batch Size 100: 12 requests for 1,200 items; 2,000: one request', async () => {
		const t = newTable();
		const small = await run(
			t,
			{ resource: 'record', operation: 'create', columns: autoMap(), options: { batchSize: 100 } },
			rows(1200),
		);
		expect(small.writes).toEqual(Array(12).fill('POST records'));
		const large = await run(
			t,
			{ resource: 'record', operation: 'create', columns: autoMap(), options: { batchSize: 2000 } },
			rows(1200),
		);
		expect(large.writes).toEqual(['POST records']);
		expect(large.items.map((i) => i.json.id)).toEqual(
			Array.from({ length: 1200 }, (_, i) => 1201 + i),
		);
		expect(emu.records(demo.docId, t)).toHaveLength(2400);
	});

	it('a large Batch Size still keeps every request under 1 MB', async () => {
		const t = newTable();
		const r = await run(
			t,
			{
				resource: 'record',
				operation: 'create',
				columns: autoMap(),
				options: { batchSize: 10000 },
			},
			rows(300, 'x'.repeat(10_000)),
		);
		expect(r.error).toBeUndefined();
		expect(r.writes.length).toBeGreaterThanOrEqual(3);
		expect(Math.max(...emu.log.map((e) => e.bodyBytes))).toBeLessThan(1024 * 1024);
	});

	it('a Batch Size that is not a whole number ≥ 1 is an input error before any request', async () => {
		const t = newTable();
		const r = await run(
			t,
			{ resource: 'record', operation: 'create', columns: autoMap(), options: { batchSize: 0 } },
			rows(3),
		);
		expect(r.error?.message).toBe(
			'The Batch Size of items 0–2 must be a whole number of at least 1, not 0; no item was written',
		);
		expect(r.writes).toEqual([]);
	});
});

describe('other batched writes', () => {
	it('update, upsert and columnar create/update follow Batch Size', async () => {
		const t = newTable();
		await run(t, { resource: 'record', operation: 'create', columns: autoMap() }, rows(600));
		const update = await run(
			t,
			{
				resource: 'record',
				operation: 'update',
				rowId: '={{ $json.N }}',
				columns: autoMap(),
				options: { batchSize: 200 },
			},
			rows(600, 'u'),
		);
		expect(update.writes).toEqual(Array(3).fill('PATCH records'));
		const upsert = await run(
			t,
			{
				resource: 'record',
				operation: 'upsert',
				columns: autoMap(['N']),
				options: { batchSize: 1000 },
			},
			rows(900, 'v'),
		);
		expect(upsert.writes).toEqual(['PUT records']);
		expect(emu.records(demo.docId, t)).toHaveLength(900);
		const columnar = await run(
			t,
			{
				resource: 'columnar',
				operation: 'create',
				data: '={{ JSON.stringify({ N: [$json.N, $json.N], Text: ["c", "c"] }) }}',
				options: { batchSize: 150 },
			},
			rows(300),
		);
		expect(columnar.writes).toEqual(Array(4).fill('POST data'));
		const columnarUpdate = await run(
			t,
			{
				resource: 'columnar',
				operation: 'update',
				data: '={{ JSON.stringify({ id: [$json.N], Text: ["d"] }) }}',
				options: { batchSize: 1000 },
			},
			rows(900),
		);
		expect(columnarUpdate.writes).toEqual(['PATCH data']);
	});
});
