/**
 * Writes that fail half-way, run for real in n8n-core against the Grist
 * emulator behind the fault-injecting proxy of test/harness/fault-proxy.ts:
 * - a write whose answer was lost (the connection broke after Grist applied it) is reported as
 *   uncertain, never as "not written", and counts say "at least";
 * - each network failure gets the message that matches it (refused: could not reach, retried,
 *   "Tried N times"; broken during a write: may or may not have been applied, not repeated);
 * - an item naming a column the table lacks is refused before any request, alone.
 * What Grist holds afterwards is read from the emulator.
 */
import type { IDataObject } from 'n8n-workflow';

import type { DemoSite, GristEmulator } from '../emulator';
import { docTable, items } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let proxy: FaultProxy;

beforeAll(async () => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Bulk', [
		{ id: 'N', type: 'Int' },
		{ id: 'Label', type: 'Text' },
		{ id: 'First_Name', label: 'First Name', type: 'Text' },
		{ id: 'Double', type: 'Int', formula: '$N * 2' },
	]);
	proxy = await startFaultProxy(fx.site);
});
afterAll(async () => {
	await proxy.close();
});
beforeEach(async () => {
	await proxy.accept();
	proxy.clearRules();
	proxy.log.length = 0;
	emu.clearFaults();
	const ids = emu.records(demo.docId, 'Bulk').map((r) => r.id);
	if (ids.length) emu.removeRecords(demo.docId, 'Bulk', ids);
	emu.clearLog();
});

// Map Automatically without attemptToConvertTypes / convertFieldsToString (autoMap() sets both).
const autoMap = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const numbered = (n: number) => items(Array.from({ length: n }, (_, i) => ({ N: i })));
const bulkPath = (rest = 'records') => new RegExp(`/tables/Bulk/${rest}$`);
const posts = () => emu.log.filter((e) => e.method === 'POST');
const stored = () => emu.records(demo.docId, 'Bulk');

/** Runs through the fault proxy. */
const run = resourceRunner(fx, 'record', {
	defaults: () => docTable(demo.docId, 'Bulk'),
	serverUrl: () => proxy.url,
});

describe('a write whose answer was lost is uncertain, not "not written"', () => {
	it('without Continue On Fail: at least 500 written, items 500–999 uncertain, 1000–1199 not sent; not repeated', async () => {
		proxy.rule({ method: 'POST', path: bulkPath(), skip: 1, action: 'reset-after-answer' });
		const { error } = await run(
			{ operation: 'create', columns: autoMap },
			{ input: numbered(1200) },
		);
		expect(error?.message).toMatch(
			/^The connection to the Grist server at http:\/\/127\.0\.0\.1:\d+ broke after the request was sent \(.*\): the write may or may not have been applied$/,
		);
		expect(error?.description).toContain('At least 500 items were written');
		expect(error?.description).toContain(
			'Uncertain: the request holding items 500–999 lost its answer',
		);
		expect(error?.description).toContain('Later items (1000–1199) were not sent.');
		expect(error?.description).not.toContain('none of them was written');
		// Grist did write items 500–999: resuming from item 500 would duplicate them.
		expect(stored().map((r) => r.fields.N)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
		expect(posts()).toHaveLength(2);
		expect(proxy.log.filter((e) => e.method === 'POST')).toHaveLength(2);
	});

	it('with Continue On Fail: the items of that request say their write is uncertain; the others are written', async () => {
		proxy.rule({ method: 'POST', path: bulkPath(), skip: 1, action: 'reset-after-answer' });
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap },
			{ input: numbered(1200), continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1200);
		expect(out.slice(0, 500).every((o) => typeof o.json.id === 'number')).toBe(true);
		expect(out.slice(1000).every((o) => typeof o.json.id === 'number')).toBe(true);
		for (const o of out.slice(500, 1000)) {
			expect(o.json.writeUncertain).toBe(true);
			expect(o.json.error).toMatch(/may or may not have been applied$/);
		}
		expect(out[700].json.description).toMatch(
			/^Uncertain: item 700 was sent in one request with items 500–999, and its answer was lost/,
		);
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual(out.map((_, i) => i));
		expect(stored()).toHaveLength(1200);
	});

	it('an update and a delete whose answer was lost say so with their own verb', async () => {
		const ids = emu.addRecords(demo.docId, 'Bulk', [{ N: 1 }, { N: 2 }, { N: 3 }]);
		emu.clearLog();
		proxy.rule({ method: 'PATCH', path: bulkPath(), action: 'reset-after-answer' });
		const update = await run(
			{
				operation: 'update',
				rowId: '={{ $json.id }}',
				dataMode: 'json',
				fieldsJson: '={{ JSON.stringify({ N: $json.n }) }}',
			},
			{ input: items(ids.map((id) => ({ id, n: id * 100 }))) },
		);
		expect(update.error?.message).toMatch(
			/broke after the request was sent .*may or may not have been applied$/,
		);
		expect(update.error?.description).toContain('At least 0 items were written');
		expect(update.error?.description).toContain(
			'items 0–2 lost its answer, so they may or may not have been written',
		);
		expect(stored().map((r) => r.fields.N)).toEqual(ids.map((id) => id * 100));

		proxy.rule({ method: 'POST', path: bulkPath('records/delete'), action: 'reset-after-answer' });
		const del = await run(
			{ operation: 'delete', rowIds: '={{ $json.id }}' },
			{ input: items(ids.map((id) => ({ id }))) },
		);
		expect(del.error?.description).toContain('may or may not have been deleted');
		expect(stored()).toEqual([]);
	});

	it('a per-item write (attachment upload) with Continue On Fail: the item says uncertain, and Grist holds the file', async () => {
		proxy.rule({ method: 'POST', path: /\/attachments$/, skip: 1, action: 'reset-after-answer' });
		const upload = (text: string) => ({
			json: {},
			binary: {
				data: {
					data: Buffer.from(text).toString('base64'),
					mimeType: 'text/plain',
					fileName: `${text}.txt`,
				},
			},
		});
		const { items: out, error } = await run(
			{ resource: 'attachment', operation: 'upload' },
			{ input: [upload('one'), upload('two'), upload('three')], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json.writeUncertain ?? false)).toEqual([false, true, false]);
		expect(out[1].json.error).toMatch(
			/broke after the request was sent .*may or may not have been applied$/,
		);
		const names = [...Array(20).keys()]
			.map((id) => emu.attachmentData(demo.docId, id)?.toString())
			.filter((t) => t !== undefined);
		expect(names).toEqual(expect.arrayContaining(['one', 'two', 'three']));
		expect(proxy.log.filter((e) => e.method === 'POST')).toHaveLength(3);
	});

	it("a proxy's 504 to a write is uncertain too; Grist's own error answer is not", async () => {
		emu.fault({
			method: 'POST',
			path: bulkPath(),
			status: 504,
			body: '<html>Gateway Timeout</html>',
		});
		const gateway = await run(
			{ operation: 'create', columns: autoMap },
			{ input: numbered(2), continueOnFail: true },
		);
		expect(gateway.items.map((o) => o.json.writeUncertain)).toEqual([true, true]);

		emu.fault({
			method: 'POST',
			path: bulkPath(),
			status: 400,
			body: { error: 'Invalid row id 9' },
		});
		const refused = await run({ operation: 'create', columns: autoMap }, { input: numbered(2) });
		expect(refused.error?.message).toBe('Invalid row id 9');
		expect(refused.error?.description).toContain(
			'none of them was written: Grist answered with an error',
		);
	});
});

describe('network messages match the failure', () => {
	it('a refused connection during a write is retried (nothing reached Grist), and the write happens once', async () => {
		// The GET of the columns is answered, then connections are refused for a while.
		proxy.rule({
			method: 'GET',
			path: bulkPath('columns'),
			action: 'refuse-after-answer',
			refuseForMs: 400,
		});
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap },
			{ input: numbered(3) },
		);
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json.N)).toEqual([0, 1, 2]);
		expect(stored()).toHaveLength(3);
		expect(posts()).toHaveLength(1);
		expect(proxy.log.map((e) => `${e.method} ${e.action ?? ''}`)).toEqual([
			'GET refuse-after-answer',
			'POST ',
		]);
	});

	it('a write refused every time: could not reach, tried 6 times, nothing written', async () => {
		proxy.rule({ method: 'GET', path: bulkPath('columns'), action: 'refuse-after-answer' });
		const { error } = await run({ operation: 'create', columns: autoMap }, { input: numbered(3) });
		expect(error?.message).toMatch(
			/^Could not reach the Grist server at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
		);
		expect(error?.description).toContain('Nothing reached Grist, so nothing was written.');
		expect(error?.description).toContain('(Tried 6 times.)');
		expect(error?.description).toContain('none of them was written');
		expect(error?.description).not.toMatch(/broke|uncertain/i);
		expect(stored()).toEqual([]);
	}, 60_000);

	it('a read whose connection breaks every time is retried and says how often', async () => {
		proxy.rule({ method: 'GET', path: bulkPath('data'), action: 'reset-after-answer', times: 20 });
		const { error } = await run(
			{ operation: 'getAll', returnAll: true },
			{ input: [{ json: {} }] },
		);
		expect(error?.message).toMatch(
			/^The connection to the Grist server at http:\/\/127\.0\.0\.1:\d+ broke before its answer arrived: /,
		);
		expect(error?.description).toContain('(Tried 6 times.)');
		expect(
			proxy.log.filter((e) => e.method === 'GET' && bulkPath('data').test(e.path.split('?')[0])),
		).toHaveLength(6);
	}, 60_000);
});

describe('an item naming a column the table lacks is refused before any request', () => {
	const withX = (n: number, bad: (i: number) => boolean) =>
		items(Array.from({ length: n }, (_, i) => (bad(i) ? { N: i, X: 'x' } : { N: i })));

	it('with Continue On Fail only those items fail; the 989 others are written', async () => {
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap },
			{ input: withX(1000, (i) => i >= 600 && i <= 610), continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1000);
		const failed = out.flatMap((o, i) => (o.json.error ? [i] : []));
		expect(failed).toEqual(Array.from({ length: 11 }, (_, k) => 600 + k));
		expect(out[605].json.error).toBe('Table "Bulk" has no column "X" (item 605)');
		expect(out[605].json.description).toMatch(
			/Use column IDs, not labels.*Column resource.*Columns of "Bulk": N, Label, First_Name, Double\./,
		);
		expect(stored()).toHaveLength(989);
		expect(posts().map((e) => ((e.body as { records: unknown[] }).records ?? []).length)).toEqual([
			500, 489,
		]);
	});

	it('without it the node fails before any write, naming the item, the columns and the table', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap },
			{ input: withX(1000, (i) => i === 600) },
		);
		expect(error?.message).toBe('Table "Bulk" has no column "X" (item 600); no item was written');
		expect(error?.description).toMatch(
			/^Refused before any request: item 600 \(1 of 1000 items\)\. Nothing was sent, so none of the 1000 items was written/,
		);
		expect(posts()).toEqual([]);
		expect(stored()).toEqual([]);
	});

	it('names the column ID of a label; hidden columns (manualSort) and formula columns are not refused', async () => {
		const label = await run(
			{ operation: 'create', dataMode: 'json', fieldsJson: '{"First Name": "Ann", "Nope": 1}' },
			{ input: [{ json: {} }] },
		);
		expect(label.error?.message).toBe('Table "Bulk" has no columns "First Name", "Nope" (item 0)');
		expect(label.error?.description).toContain(
			'"First Name" is the label of the column First_Name',
		);

		const ok = await run(
			{
				operation: 'create',
				dataMode: 'json',
				fieldsJson: '{"First_Name": "Ann", "manualSort": 7, "Double": 5}',
			},
			{ input: [{ json: {} }] },
		);
		expect(ok.error).toBeUndefined();
		expect(stored().map((r) => r.fields.First_Name)).toEqual(['Ann']);
		const sent = posts()[0].body as { records: Array<{ fields: IDataObject }> };
		expect(sent.records[0].fields).toEqual({ First_Name: 'Ann', manualSort: 7 });
	});

	it('update: an unknown column or an id among the fields', async () => {
		const [id] = emu.addRecords(demo.docId, 'Bulk', [{ N: 1 }]);
		emu.clearLog();
		const update = (fieldsJson: string) =>
			run(
				{ operation: 'update', rowId: String(id), dataMode: 'json', fieldsJson },
				{ input: [{ json: {} }] },
			);
		const unknown = await update('{"N": 2, "Nope": 3}');
		expect(unknown.error?.message).toBe('Table "Bulk" has no column "Nope" (item 0)');
		const withId = await update(`{"id": ${id}, "N": 2}`);
		expect(withId.error?.message).toBe('Table "Bulk" has no column "id" (item 0)');
		expect(withId.error?.description).toContain('Update takes it in Row ID');
		expect(emu.log.filter((e) => e.method === 'PATCH')).toEqual([]);
	});

	it('upsert: unknown match or field columns are refused, a match on id is allowed (Grist takes require.id)', async () => {
		const upsert = (fieldsJson: string, matchColumns: string) =>
			run(
				{ operation: 'upsert', dataMode: 'json', fieldsJson, matchColumns },
				{ input: [{ json: {} }] },
			);
		expect((await upsert('{"Nope": 1, "N": 2}', 'Nope')).error?.message).toBe(
			'Table "Bulk" has no column "Nope" (item 0)',
		);
		expect((await upsert('{"N": 1, "Nope": 2}', 'N')).error?.message).toBe(
			'Table "Bulk" has no column "Nope" (item 0)',
		);
		expect(emu.log.filter((e) => e.method === 'PUT')).toEqual([]);
		const byId = await upsert('{"id": 42, "N": 7}', 'id');
		expect(byId.error).toBeUndefined();
		expect(stored()).toEqual([{ id: 42, fields: expect.objectContaining({ N: 7 }) }]);
	});

	it('columnar create and update', async () => {
		const create = await run(
			{ resource: 'columnar', operation: 'create', data: '{"N": [1, 2], "Nope": ["a", "b"]}' },
			{ input: [{ json: {} }] },
		);
		expect(create.error?.message).toBe('Table "Bulk" has no column "Nope" (item 0)');
		const ids = emu.addRecords(demo.docId, 'Bulk', [{ N: 1 }, { N: 2 }]);
		emu.clearLog();
		const update = await run(
			{
				resource: 'columnar',
				operation: 'update',
				data: JSON.stringify({ id: ids, Nope: [1, 2] }),
			},
			{ input: [{ json: {} }] },
		);
		expect(update.error?.message).toBe('Table "Bulk" has no column "Nope" (item 0)');
		expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);
		const ok = await run(
			{ resource: 'columnar', operation: 'update', data: JSON.stringify({ id: ids, N: [10, 20] }) },
			{ input: [{ json: {} }] },
		);
		expect(ok.error).toBeUndefined();
		expect(stored().map((r) => r.fields.N)).toEqual([10, 20]);
	});
});
