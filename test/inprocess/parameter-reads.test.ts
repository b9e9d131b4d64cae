/**
 * Parameter reads per execution: every write operation reads a parameter without an
 * expression once per execution, not once per item (n8n's getNodeParameter costs about 15 µs a
 * call). The node runs in n8n-core against the emulator with its context wrapped to count
 * getNodeParameter calls; runs of 3 and 30 items must make the same number of calls, except one
 * call per item for each parameter that holds an expression.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, docTable, mapper } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Reads', [
		{ id: 'Email', type: 'Text' },
		{ id: 'Name', type: 'Text' },
		{ id: 'N', type: 'Int' },
		{ id: 'Files', type: 'Attachments' },
	]);
	emu.addRecords(
		demo.docId,
		'Reads',
		Array.from({ length: 40 }, (_, i) => ({ Email: `e${i}@x`, Name: `n${i}`, N: i })),
	);
});

/** The Grist node, with getNodeParameter counted by parameter name. */
class CountingGrist extends Grist {
	static calls = new Map<string, number>();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const counted = new Proxy(this, {
			get(target, prop, receiver) {
				if (prop === 'getNodeParameter') {
					return (name: string, ...rest: unknown[]) => {
						CountingGrist.calls.set(name, (CountingGrist.calls.get(name) ?? 0) + 1);
						return (target.getNodeParameter as (...a: unknown[]) => unknown)(name, ...rest);
					};
				}
				const value = Reflect.get(target, prop, receiver) as unknown;
				return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
			},
		});
		return await Grist.prototype.execute.call(counted);
	}
}

const runCounted = resourceRunner(fx, 'record', {
	defaults: () => docTable(demo.docId, 'Reads'),
	node: () => new CountingGrist(),
});

async function callsFor(
	parameters: IDataObject,
	input: (i: number) => INodeExecutionData,
	n: number,
): Promise<Map<string, number>> {
	CountingGrist.calls = new Map();
	const r = await runCounted(parameters, { input: Array.from({ length: n }, (_, i) => input(i)) });
	expect(r.error).toBeUndefined();
	expect(r.items).toHaveLength(n);
	return CountingGrist.calls;
}

/** Parameters whose number of reads grows with the items: name → reads per extra item. */
async function perItemReads(
	parameters: IDataObject,
	input: (i: number) => INodeExecutionData = (i) => ({ json: { Email: `e${i}@x`, N: i } }),
): Promise<Record<string, number>> {
	const small = await callsFor(parameters, input, 3);
	const large = await callsFor(parameters, input, 30);
	const out: Record<string, number> = {};
	for (const [name, count] of large) {
		const extra = (count - (small.get(name) ?? 0)) / 27;
		if (extra !== 0) out[name] = extra;
	}
	return out;
}

const file = (i: number) => ({
	data: Buffer.from(`file ${i}`).toString('base64'),
	mimeType: 'text/plain',
	fileName: `f${i}.txt`,
});

describe('a parameter without an expression is read once per execution', () => {
	it('record create: mapper (automatic and defined below), JSON, noparse', async () => {
		expect(
			await perItemReads({
				resource: 'record',
				operation: 'create',
				columns: autoMap(),
				options: { noparse: true },
			}),
		).toEqual({});
		expect(
			await perItemReads({
				resource: 'record',
				operation: 'create',
				columns: mapper({ Name: 'same', N: 1 }),
			}),
		).toEqual({});
		expect(
			await perItemReads({
				resource: 'record',
				operation: 'create',
				dataMode: 'json',
				fieldsJson: '{"Name": "same"}',
			}),
		).toEqual({});
	});

	it('record create: a mapped value with an expression is read per item, nothing else', async () => {
		expect(
			await perItemReads({
				resource: 'record',
				operation: 'create',
				columns: mapper({ Name: '={{ $json.Email }}' }),
			}),
		).toEqual({ 'columns.value': 1 });
	});

	it('record update: the default Row ID ={{ $json.id }} is read from the item, another expression through n8n', async () => {
		const update = (rowId: string) =>
			perItemReads(
				{
					resource: 'record',
					operation: 'update',
					rowId,
					columns: autoMap(),
				},
				(i) => ({ json: { id: i + 1, Name: `u${i}` } }),
			);
		expect(await update('={{ $json.id }}')).toEqual({});
		expect(await update('={{ $json["id"] }}')).toEqual({});
		expect(await update('={{ $json.id + 0 }}')).toEqual({ rowId: 1 });
	});

	it('record update: mapper defined below, JSON, options once', async () => {
		const rows = (i: number) => ({ json: { id: 31 + (i % 9) } });
		expect(
			await perItemReads(
				{
					resource: 'record',
					operation: 'update',
					columns: mapper({ Name: 'same', N: 2 }),
					options: { noparse: true, batchSize: 7 },
				},
				rows,
			),
		).toEqual({});
		expect(
			await perItemReads(
				{
					resource: 'record',
					operation: 'update',
					dataMode: 'json',
					fieldsJson: '{"Name": "json"}',
				},
				rows,
			),
		).toEqual({});
	});

	it('record upsert: options, match columns and data mode once', async () => {
		expect(
			await perItemReads({
				resource: 'record',
				operation: 'upsert',
				columns: autoMap(['Email']),
				options: { onMany: 'all', noAdd: false, noUpdate: false, allowEmptyRequire: false },
			}),
		).toEqual({});
		expect(
			await perItemReads({
				resource: 'record',
				operation: 'upsert',
				dataMode: 'json',
				fieldsJson: '={{ JSON.stringify($json) }}',
				matchColumns: 'Email',
			}),
		).toEqual({ fieldsJson: 1 });
	});

	it('record get: Row ID ={{ $json.id }} from the item, Simplify and options once', async () => {
		expect(
			await perItemReads(
				{
					resource: 'record',
					operation: 'get',
					rowId: '={{ $json.id }}',
					simplify: false,
					options: { includeHidden: true, referenceDisplay: false },
				},
				(i) => ({ json: { id: i + 1 } }),
			),
		).toEqual({});
	});

	it('record delete and columnar delete: Row IDs ={{ $json.id }} from the item', async () => {
		// Deletes are checked last in this file's table: ids 1–30 are deleted by the first run.
		expect(
			await perItemReads({ resource: 'columnar', operation: 'create', data: '{"N": [1, 2]}' }),
		).toEqual({});
		expect(
			await perItemReads(
				{ resource: 'record', operation: 'delete', rowIds: '={{ $json.id }}' },
				(i) => ({ json: { id: i + 1 } }),
			),
		).toEqual({});
		expect(
			await perItemReads(
				{ resource: 'columnar', operation: 'delete', rowIds: '={{ String($json.id) }}' },
				(i) => ({ json: { id: i + 1 } }),
			),
		).toEqual({ rowIds: 1 });
	});

	it('columnar create and update: data and options once', async () => {
		expect(
			await perItemReads({
				resource: 'columnar',
				operation: 'create',
				data: '{"Name": ["a", "b"], "N": [1, 2]}',
				options: { noparse: true, batchSize: 3 },
			}),
		).toEqual({});
		expect(
			await perItemReads({
				resource: 'columnar',
				operation: 'update',
				data: '{"id": [35, 36], "N": [5, 6]}',
				options: { noparse: true, batchSize: 3 },
			}),
		).toEqual({});
	});

	it('columnar update: the data expression per item', async () => {
		expect(
			await perItemReads(
				{
					resource: 'columnar',
					operation: 'update',
					data: '={{ JSON.stringify({ id: [$json.id], N: [7] }) }}',
				},
				(i) => ({ json: { id: 31 + (i % 9) } }),
			),
		).toEqual({ data: 1 });
	});

	it('attachment upload (not attached; all binary fields; named fields): nothing per item', async () => {
		const files = (i: number) => ({ json: {}, binary: { data: file(i), other: file(i + 100) } });
		expect(await perItemReads({ resource: 'attachment', operation: 'upload' }, files)).toEqual({});
		expect(
			await perItemReads(
				{ resource: 'attachment', operation: 'upload', uploadAllBinaries: true },
				files,
			),
		).toEqual({});
		expect(
			await perItemReads(
				{ resource: 'attachment', operation: 'upload', binaryPropertyName: 'data, other' },
				files,
			),
		).toEqual({});
	});

	it('attachment upload (attached to a record, replacing): nothing per item', async () => {
		expect(
			await perItemReads(
				{
					resource: 'attachment',
					operation: 'upload',
					attachToRecord: true,
					rowId: 33,
					attachmentsColumn: 'Files',
					attachMode: 'replace',
				},
				(i) => ({ json: {}, binary: { data: file(i) } }),
			),
		).toEqual({});
	});

	it('attachment upload (attached to a record): nothing per item', async () => {
		expect(
			await perItemReads(
				{
					resource: 'attachment',
					operation: 'upload',
					attachToRecord: true,
					rowId: '={{ $json.id }}',
					attachmentsColumn: 'Files',
				},
				(i) => ({ json: { id: 31 + (i % 9) }, binary: { data: file(i) } }),
			),
		).toEqual({});
	});
});
