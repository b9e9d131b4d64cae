/**
 * Record → Get Many's read path: the records and the columns are read together, and Simplify
 * decodes only the cells whose encoding differs from what n8n shows. Every cell type must come out
 * as the cell-by-cell decoder (simplifyFields) gives it, key order included.
 */
import type { IDataObject } from 'n8n-workflow';

import { simplifyFields } from '../../nodes/Grist/cells/cellValues';
import type { DemoSite, GristEmulator } from '../emulator';
import { byId, docTable } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { emulatorOnly } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

const JAN_10_2024 = 1704844800;
const COLUMNS = [
	{ id: 'Text', type: 'Text' },
	{ id: 'Num', type: 'Numeric' },
	{ id: 'Int', type: 'Int' },
	{ id: 'Bool', type: 'Bool' },
	{ id: 'Day', type: 'Date' },
	{ id: 'When', type: 'DateTime:UTC' },
	{ id: 'NewYork', type: 'DateTime:America/New_York' },
	{ id: 'Choices', type: 'ChoiceList', widgetOptions: { choices: ['x', 'y', 'z'] } },
	{ id: 'Ref', type: 'Ref:Customers', visibleCol: 'Name' },
	{ id: 'Refs', type: 'RefList:Customers', visibleCol: 'Name' },
	{ id: 'Files', type: 'Attachments' },
	{ id: 'Whatever', type: 'Any' },
	{ id: 'Ratio', type: 'Numeric', formula: '$Num / $Int', isFormula: true },
];
const IDS = COLUMNS.map((c) => c.id);

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Cells', COLUMNS);
	emu.addRecords(demo.docId, 'Cells', [
		{
			Text: 'a',
			Num: 2.5,
			Int: 2,
			Bool: true,
			Day: JAN_10_2024,
			When: JAN_10_2024 + 3600.5,
			NewYork: JAN_10_2024 + 15 * 3600,
			Choices: ['L', 'x', 'z'],
			Ref: 2,
			Refs: ['L', 1, 3],
			Files: ['L', demo.attachmentId],
			Whatever: 42,
		},
		// Empty cells, and a formula error (division by zero).
		{ Text: '', Num: 3, Int: 0, Whatever: 'text' },
		// Text in typed columns is kept by Grist as it is (AltText).
		{ Num: 'many', Day: 'soon', Whatever: ['L', 1, 'two'] },
	]);
});

const run = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId) });
const cellsTable = { operation: 'getAll', table: byId('Cells'), returnAll: true };

async function readBoth(extra: IDataObject = {}) {
	const simple = await run({ ...cellsTable, ...extra });
	expect(simple.error).toBeUndefined();
	const raw = await run({ ...cellsTable, ...extra, simplify: false });
	expect(raw.error).toBeUndefined();
	return { simple: simple.items.map((i) => i.json), raw: raw.items.map((i) => i.json) };
}

const types = Object.fromEntries(COLUMNS.map((c) => [c.id, c.type]));

describe('record.getAll: Simplify decodes only what differs', () => {
	it('gives what the cell-by-cell decoder gives for every cell type, key order included', async () => {
		const { simple, raw } = await readBoth();
		expect(simple).toHaveLength(3);
		const copied = raw.map((r) => {
			const out = simplifyFields(r.id, r.fields as IDataObject, types);
			return r.errors ? { ...out, errors: r.errors } : out;
		});
		expect(simple).toEqual(copied);
		for (let i = 0; i < simple.length; i++)
			expect(Object.keys(simple[i])).toEqual(Object.keys(copied[i]));
	});

	it('decodes dates, lists and references; keeps errors last and text in typed columns', async () => {
		const { simple } = await readBoth();
		const [full, empty, alt] = simple;
		expect(full).toEqual({
			id: full.id,
			Text: 'a',
			Num: 2.5,
			Int: 2,
			Bool: true,
			Day: '2024-01-10',
			When: '2024-01-10T01:00:00.500Z',
			NewYork: '2024-01-10T15:00:00.000Z',
			Choices: ['x', 'z'],
			Ref: 2,
			Refs: [1, 3],
			Files: [demo.attachmentId],
			Whatever: 42,
			Ratio: 1.25,
		});
		expect(Object.keys(full)).toEqual(['id', ...IDS]);
		expect(empty).toMatchObject({
			Text: '',
			Day: null,
			When: null,
			Choices: null,
			Ref: 0,
			Refs: null,
			Files: null,
			Whatever: 'text',
			Ratio: null,
			errors: { Ratio: 'ZeroDivisionError' },
		});
		expect(Object.keys(empty)).toEqual(['id', ...IDS, 'errors']);
		expect(alt).toMatchObject({
			Num: 'many',
			Day: 'soon',
			Whatever: [1, 'two'],
			errors: { Ratio: 'TypeError' },
		});
	});

	it('reads the columns and the records together, once per table, and only for Simplify', async () => {
		const path = `/api/docs/${demo.docId}/tables/Cells`;
		emu.clearLog();
		const { error } = await run(
			{ ...cellsTable, returnAll: false, limit: 1 },
			{ input: [{ json: {} }, { json: {} }] },
		);
		expect(error).toBeUndefined();
		expect(emu.log.map((e) => `${e.method} ${e.apiPath}`).sort()).toEqual([
			`GET ${path}/columns`,
			`GET ${path}/data`,
			`GET ${path}/data`,
		]);
		emu.clearLog();
		await run({ ...cellsTable, simplify: false });
		expect(emu.log.map((e) => `${e.method} ${e.apiPath}`)).toEqual([`GET ${path}/data`]);
	});

	it.each([
		['every row', {}, ''],
		['hidden columns included', { options: { includeHidden: true } }, '?hidden=1'],
		['the first two rows', { returnAll: false, limit: 2 }, '?limit=2'],
	])(
		"reads GET /data and gives exactly Grist's GET /records, key order included: %s",
		async (_label, extra, query) => {
			const res = await fetch(`${emu.url}/api/docs/${demo.docId}/tables/Cells/records${query}`, {
				headers: { Authorization: `Bearer ${demo.apiKey}` },
			});
			const expected = ((await res.json()) as { records: IDataObject[] }).records;
			emu.clearLog();
			const { items, error } = await run({ ...cellsTable, ...extra, simplify: false });
			expect(error).toBeUndefined();
			expect(emu.log.map((e) => e.apiPath.split('/').pop())).toEqual(['data']);
			// JSON text: the same values and the same key order
			expect(JSON.stringify(items.map((i) => i.json))).toBe(JSON.stringify(expected));
		},
	);

	emulatorOnly('answers 404 with the emulator’s fault injection').it(
		'a server without GET /data (404 "not found: /api/…"): the same items from GET /records',
		async () => {
			const path = `/api/docs/${demo.docId}/tables/Cells`;
			const before = await run({ ...cellsTable, options: { includeHidden: true } });
			emu.clearLog();
			emu.fault({
				method: 'GET',
				path: `${path}/data`,
				status: 404,
				body: { error: `not found: ${path}/data` },
			});
			const after = await run({ ...cellsTable, options: { includeHidden: true } });
			expect(after.error).toBeUndefined();
			expect(JSON.stringify(after.items)).toBe(JSON.stringify(before.items));
			const sent = emu.log.map(
				(e) =>
					`${e.apiPath.split('/').pop()} ${e.status} ${new URLSearchParams(e.query as Record<string, string>).toString()}`,
			);
			expect(sent[0]).toBe('data 404 ');
			expect(sent.slice(1).sort()).toEqual(['columns 200 hidden=1', 'records 200 hidden=1']);
		},
	);

	emulatorOnly('delays answers with the emulator’s fault injection').it(
		'sends the records request while the columns are still on their way',
		async () => {
			const path = `/api/docs/${demo.docId}/tables/Cells`;
			emu.fault({ method: 'GET', path: `${path}/columns`, delayMs: 1000 });
			emu.fault({ method: 'GET', path: `${path}/data`, delayMs: 1000 });
			const start = performance.now();
			const { error, items } = await run(cellsTable);
			const elapsed = performance.now() - start;
			expect(error).toBeUndefined();
			expect(items).toHaveLength(3);
			// One after the other they take 2 s at least.
			expect(elapsed).toBeLessThan(1800);
		},
	);
});
