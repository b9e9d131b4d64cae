/**
 * Bad input to the record writes (README, Bad input), run in
 * n8n-core against the Grist emulator, which — like grist-core — stores dangling references and
 * refuses a whole request for one missing row id (400 `Invalid row id N`):
 * - an all-or-nothing refusal says that no item was written and names every refused item;
 * - references to rows that do not exist are refused before any request (one read per
 *   referenced table), unless Options → Allow Dangling References;
 * - an item with no field to write is refused instead of adding a blank row;
 * - with Continue On Fail, each item of a request Grist refused says what happened to it.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, docTable, items, mapper } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Owners', [{ id: 'Name', type: 'Text' }]);
	emu.addRecords(demo.docId, 'Owners', [{ Name: 'Ann' }, { Name: 'Bob' }, { Name: 'Cy' }]);
	emu.addTable(demo.docId, 'Tasks', [
		{ id: 'Title', type: 'Text' },
		{ id: 'Owner', type: 'Ref:Owners', visibleCol: 'Name' },
		{ id: 'Helpers', type: 'RefList:Owners', visibleCol: 'Name' },
		{ id: 'Score', type: 'Numeric', formula: 'len($Title)', isFormula: true },
	]);
});
beforeEach(() => {
	emu.clearFaults();
	const ids = emu.records(demo.docId, 'Tasks').map((r) => r.id);
	if (ids.length) emu.removeRecords(demo.docId, 'Tasks', ids);
	emu.clearLog();
});

const requests = () => emu.log.map((e) => `${e.method} ${e.apiPath}`);
const writes = () => emu.log.filter((e) => e.method !== 'GET' && !e.apiPath.endsWith('/sql'));
const stored = () => emu.records(demo.docId, 'Tasks');
const docPath = () => `/api/docs/${demo.docId}`;

const run = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId, 'Tasks') });

describe('an all-or-nothing refusal says so', () => {
	const withX = (n: number) =>
		items(
			Array.from({ length: n }, (_, i) =>
				i >= 600 && i <= 610 ? { Title: `t${i}`, X: 1 } : { Title: `t${i}` },
			),
		);

	it('create: 1,500 items, 600–610 with an unknown column: every refused item named, nothing written', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: withX(1500) },
		);
		expect(error?.message).toBe(
			'Table "Tasks" has no column "X" (items 600–610); no item was written',
		);
		expect(error?.description).toContain(
			'Refused before any request: items 600–610 (11 of 1500 items). Nothing was sent, so none of the 1500 items was written',
		);
		expect(error?.description).toContain('Use column IDs, not labels'); // the fix
		expect(writes()).toEqual([]);
		expect(stored()).toEqual([]);
	});

	it('update and upsert: the same summary', async () => {
		const ids = emu.addRecords(
			demo.docId,
			'Tasks',
			Array.from({ length: 5 }, (_, i) => ({ Title: `t${i}` })),
		);
		emu.clearLog();
		const input = items(
			ids.map((id, i) => (i === 1 || i === 2 ? { id, Title: 'u', Nope: 1 } : { id, Title: 'u' })),
		);
		const update = await run({ operation: 'update', columns: autoMap() }, { input });
		expect(update.error?.message).toBe(
			'Table "Tasks" has no column "Nope" (items 1–2); no item was written',
		);
		const upsert = await run(
			{ operation: 'upsert', columns: autoMap(['Title']) },
			{
				input: items([
					{ Title: 'a' },
					{ Title: 'b', Nope: 1 },
					{ Title: 'c' },
					{ Title: 'd', Nope: 2 },
				]),
			},
		);
		expect(upsert.error?.message).toBe(
			'Table "Tasks" has no column "Nope" (items 1, 3); no item was written',
		);
		expect(writes()).toEqual([]);
		expect(stored().map((r) => r.fields.Title)).toEqual(['t0', 't1', 't2', 't3', 't4']);
	});

	it('refusals of different kinds are listed by kind, each with its items and fix', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{
				input: items([
					{ Title: 'a' },
					{ Title: 'b', X: 1 },
					{ Title: 'c', Owner: 99999 },
					{ Title: 'd', X: 2 },
				]),
			},
		);
		expect(error?.message).toBe('3 items were refused (items 1–3); no item was written');
		expect(error?.description).toContain('Table "Tasks" has no column "X" (items 1, 3).');
		expect(error?.description).toContain(
			'Reference to missing rows in item 2: "Owner" points at row 99999 of table "Owners", which does not exist.',
		);
		expect(writes()).toEqual([]);
	});

	it('one input item keeps its own message', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: items([{ X: 1 }]) },
		);
		expect(error?.message).toBe('Table "Tasks" has no column "X" (item 0)');
	});
});

describe('dangling references are refused before any request', () => {
	const input = () =>
		items([
			{ Title: 'ok', Owner: 1, Helpers: [2, 3] },
			{ Title: 'ghost owner', Owner: 99999 },
			{ Title: 'ghost helper', Helpers: [1, 77777, 88888] },
			{ Title: 'empty ref', Owner: 0, Helpers: [] },
		]);

	it('create: one read of the referenced table (ids only), the items pointing nowhere named with column and ID', async () => {
		const { error } = await run({ operation: 'create', columns: autoMap() }, { input: input() });
		expect(error?.message).toBe('2 items were refused (items 1–2); no item was written');
		expect(error?.description).toContain(
			'"Owner" points at row 99999 of table "Owners", which does not exist',
		);
		expect(error?.description).toContain(
			'"Helpers" points at rows 77777, 88888 of table "Owners", which do not exist',
		);
		expect(error?.description).toContain('Allow Dangling References');
		expect(requests()).toEqual([`GET ${docPath()}/tables/Tasks/columns`, `POST ${docPath()}/sql`]);
		expect(emu.log[1].body).toEqual({
			sql: 'SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM "Owners" WHERE id = value)',
			args: ['[1,2,3,99999,77777,88888]'],
		});
		expect(stored()).toEqual([]);
	});

	it('with Continue On Fail the refused items error, the others are written', async () => {
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: input(), continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3]);
		expect(out[1].json.error).toBe(
			'Reference to missing rows in item 1: "Owner" points at row 99999 of table "Owners", which does not exist',
		);
		expect(out[2].json.error).toBe(
			'Reference to missing rows in item 2: "Helpers" points at rows 77777, 88888 of table "Owners", which do not exist',
		);
		expect(typeof out[0].json.id).toBe('number');
		expect(typeof out[3].json.id).toBe('number');
		expect(stored().map((r) => r.fields.Title)).toEqual(['ok', 'empty ref']);
	});

	it('Allow Dangling References writes them as Grist stores them, without the read', async () => {
		const { error } = await run(
			{
				operation: 'create',
				columns: autoMap(),
				options: { allowDanglingReferences: true },
			},
			{ input: input() },
		);
		expect(error).toBeUndefined();
		expect(requests().filter((r) => r.endsWith('/sql'))).toEqual([]);
		// rows by field set: items 0 and 3 in one request, then 1, then 2
		expect(stored().map((r) => [r.fields.Title, r.fields.Owner])).toEqual([
			['ok', 1],
			['empty ref', 0],
			['ghost owner', 99999],
			['ghost helper', 0],
		]);
	});

	it('update and upsert check the same way', async () => {
		const [id] = emu.addRecords(demo.docId, 'Tasks', [{ Title: 'x', Owner: 1 }]);
		emu.clearLog();
		const update = await run(
			{ operation: 'update', columns: autoMap() },
			{ input: items([{ id, Owner: 99999 }]) },
		);
		expect(update.error?.message).toBe(
			'Reference to missing rows in item 0: "Owner" points at row 99999 of table "Owners", which does not exist',
		);
		const upsert = await run(
			{ operation: 'upsert', columns: autoMap(['Title']) },
			{
				input: items([
					{ Title: 'x', Owner: 2 },
					{ Title: 'new', Helpers: [5000] },
				]),
			},
		);
		expect(upsert.error?.message).toBe(
			'Reference to missing rows in item 1: "Helpers" points at row 5000 of table "Owners", which does not exist; no item was written',
		);
		expect(writes()).toEqual([]);
		expect(stored()).toEqual([{ id, fields: expect.objectContaining({ Owner: 1 }) }]);
	});

	it('3,000 items: one read for the referenced table, not one per item', async () => {
		const many = items(
			Array.from({ length: 3000 }, (_, i) => ({ Title: `t${i}`, Owner: 1 + (i % 3) })),
		);
		const { error } = await run({ operation: 'create', columns: autoMap() }, { input: many });
		expect(error).toBeUndefined();
		expect(requests().filter((r) => r.endsWith('/sql'))).toHaveLength(1);
		expect(stored()).toHaveLength(3000);
	});

	it('where /sql is refused (403), the ids are read from the records, filtered by id', async () => {
		emu.fault({
			method: 'POST',
			path: /\/sql$/,
			status: 403,
			body: { error: 'insufficient document access' },
		});
		const { error } = await run({ operation: 'create', columns: autoMap() }, { input: input() });
		expect(error?.message).toBe('2 items were refused (items 1–2); no item was written');
		expect(requests()).toEqual([
			`GET ${docPath()}/tables/Tasks/columns`,
			`POST ${docPath()}/sql`,
			`GET ${docPath()}/tables/Owners/records`,
		]);
		expect(JSON.parse(String(emu.log[2].query.filter))).toEqual({
			id: [1, 2, 3, 99999, 77777, 88888],
		});
	});

	it('a reference given by name is looked up in the shown column; the row it finds is not read again, a row ID given beside it is checked', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: items([{ Title: 'by name', Owner: 'Bob' }]) },
		);
		expect(error).toBeUndefined();
		expect(requests()).toEqual([
			`GET ${docPath()}/tables/Tasks/columns`,
			`GET ${docPath()}/tables/Owners/columns`,
			`POST ${docPath()}/sql`,
			`POST ${docPath()}/tables/Tasks/records`,
		]);
		expect(stored().map((r) => r.fields.Owner)).toEqual([2]);

		emu.log.length = 0;
		const second = await run(
			{ operation: 'create', columns: autoMap() },
			{
				input: items([
					{ Title: 'by name', Owner: 'Bob' },
					{ Title: 'by ID', Owner: 999 },
				]),
			},
		);
		expect(second.error?.message).toBe(
			'Reference to missing rows in item 1: "Owner" points at row 999 of table "Owners", which does not exist; no item was written',
		);
		const check = emu.log.filter((e) => e.apiPath.endsWith('/sql')).map((e) => e.body);
		expect(check[check.length - 1]).toEqual({
			sql: 'SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM "Owners" WHERE id = value)',
			args: ['[999]'],
		});
	});
});

describe('an item with no field to write is refused, not a blank row', () => {
	it('Map Automatically: an empty item, one with only id, one with only a formula column', async () => {
		const input = items([{ Title: 'a' }, {}, { id: 5 }, { Score: 3 }]);
		const { error } = await run({ operation: 'create', columns: autoMap() }, { input });
		expect(error?.message).toBe('3 items were refused (items 1–3); no item was written');
		expect(error?.description).toContain(
			'Items 1–2 have no field to write to table "Tasks": it has no fields.',
		);
		expect(error?.description).toContain(
			'Item 3 has no field to write to table "Tasks": its field "Score" is a formula column, which Grist computes.',
		);
		expect(stored()).toEqual([]);

		const cof = await run(
			{ operation: 'create', columns: autoMap() },
			{ input, continueOnFail: true },
		);
		expect(cof.items.map((o) => o.json.error ?? 'written')).toEqual([
			'written',
			'Item 1 has no field to write to table "Tasks": it has no fields',
			'Item 2 has no field to write to table "Tasks": it has no fields',
			'Item 3 has no field to write to table "Tasks": its field "Score" is a formula column, which Grist computes',
		]);
		expect(stored().map((r) => r.fields.Title)).toEqual(['a']);
	});

	it('Map Each Column Below with nothing mapped, and Fields (JSON) {}; an empty value writes on purpose', async () => {
		const below = await run({ operation: 'create', columns: mapper({}) }, { input: items([{}]) });
		expect(below.error?.message).toBe(
			'Item 0 has no field to write to table "Tasks": it has no fields',
		);
		const json = await run(
			{ operation: 'create', dataMode: 'json', fieldsJson: '{}' },
			{ input: items([{}]) },
		);
		expect(json.error?.message).toBe(
			'Item 0 has no field to write to table "Tasks": it has no fields',
		);
		expect(writes()).toEqual([]);
		const blank = await run(
			{ operation: 'create', columns: mapper({ Title: '' }) },
			{ input: items([{}]) },
		);
		expect(blank.error).toBeUndefined();
		expect(stored()).toHaveLength(1);
	});

	it('an item whose every key is unknown is refused by the unknown-column check', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: items([{ Nope: 1 }]) },
		);
		expect(error?.message).toBe('Table "Tasks" has no column "Nope" (item 0)');
	});
});

describe('with Continue On Fail each item of a refused request says what happened to it', () => {
	it('an update of row 999999: that item says why, the others that they were not written because of it', async () => {
		const ids = emu.addRecords(demo.docId, 'Tasks', [{ Title: 'a' }, { Title: 'b' }]);
		emu.clearLog();
		const input = items([
			{ id: ids[0], Title: 'A' },
			{ id: 999999, Title: 'X' },
			{ id: ids[1], Title: 'B' },
		]);
		const { items: out, error } = await run(
			{ operation: 'update', columns: autoMap() },
			{ input, continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out[1].json.error).toBe('Invalid row id 999999');
		expect(out[1].json.description).toContain(
			'Item 1 was refused because of the row ID 999999. Grist applies a request entirely or not at all, so the other items of that request (request 1 of 1, holding items 0–2) were not written either.',
		);
		for (const k of [0, 2]) {
			expect(out[k].json.error).toBe(
				'Not written: item 1 was refused in the same request ("Invalid row id 999999")',
			);
			expect(out[k].json.description).toContain(`run it again without item 1 to write it`);
			expect(out[k].json.refusedBecauseOf).toEqual([1]);
		}
		expect(stored().map((r) => r.fields.Title)).toEqual(['a', 'b']);

		// A re-run without item 1 writes the others.
		const again = await run(
			{ operation: 'update', columns: autoMap() },
			{ input: [input[0], input[2]], continueOnFail: true },
		);
		expect(again.items.every((o) => o.json.error === undefined)).toBe(true);
		expect(stored().map((r) => r.fields.Title)).toEqual(['A', 'B']);
	});

	it('without Continue On Fail the error names the item holding the row ID', async () => {
		const ids = emu.addRecords(demo.docId, 'Tasks', [{ Title: 'a' }]);
		emu.clearLog();
		const { error } = await run(
			{ operation: 'update', columns: autoMap() },
			{
				input: items([
					{ id: ids[0], Title: 'A' },
					{ id: 999999, Title: 'X' },
				]),
			},
		);
		expect(error?.message).toBe('Invalid row id 999999');
		expect(error?.description).toContain('The row ID 999999 is in item 1.');
		expect(error?.description).toContain('none of them was written');
	});

	it('when Grist does not say which item caused it, every item says so, with its request', async () => {
		emu.fault({
			method: 'POST',
			path: /\/tables\/Tasks\/records$/,
			status: 400,
			body: { error: 'Error manipulating data: [Sandbox] ValueError something odd' },
		});
		const { items: out } = await run(
			{ operation: 'create', columns: autoMap(), options: { batchSize: 2 } },
			{ input: items([{ Title: 'a' }, { Title: 'b' }, { Title: 'c' }]), continueOnFail: true },
		);
		for (const k of [0, 1]) {
			expect(out[k].json.error).toBe('Error manipulating data: [Sandbox] ValueError something odd');
			expect(out[k].json.description).toMatch(
				/^Not written: Grist refused the whole request \(request 1 of 2, holding items 0–1\) with this error, and its answer does not say which item caused it; none of the items of that request was written\./,
			);
		}
		expect(out[2].json.error).toBeUndefined();
		expect(stored().map((r) => r.fields.Title)).toEqual(['c']);
	});
});
