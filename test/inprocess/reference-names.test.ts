/**
 * References given by name (docs/REFERENCES.md), run in n8n-core against the Grist emulator (and
 * against a real Grist with `npm run test:real`): Record → Create, Update and Upsert take a row ID
 * or the referenced row's shown value in Reference and Reference List cells, looked up once per
 * execution per referenced table and shown column; a name no row or several rows have refuses
 * its item (with Continue On Fail the others are written); Get Many's conditions take names too,
 * a name of several rows meaning any of them. The column mapper's Reference fields are text and
 * name the shown column.
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, byId, docTable, items, mapper } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { loadOptions } from '../harness/inprocess';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'People', [
		{ id: 'Name', type: 'Text', label: 'Full name' },
		{ id: 'Born', type: 'Int' },
	]);
	// rows 1–6: Bob twice; "ann" apart from "Ann"
	emu.addRecords(demo.docId, 'People', [
		{ Name: 'Ann', Born: 1980 },
		{ Name: 'Bob', Born: 1990 },
		{ Name: 'Bob', Born: 1991 },
		{ Name: 'Cy Young', Born: 1867 },
		{ Name: 'ann', Born: 2000 },
		{ Name: 'Dee, Jr.', Born: 2001 },
	]);
	emu.addTable(demo.docId, 'Invoices', [{ id: 'No', type: 'Int' }]);
	// row 1 shows 7, row 2 shows 1
	emu.addRecords(demo.docId, 'Invoices', [{ No: 7 }, { No: 1 }]);
	emu.addTable(demo.docId, 'Jobs', [
		{ id: 'Title', type: 'Text' },
		{ id: 'Owner', type: 'Ref:People', visibleCol: 'Name' },
		{ id: 'Helpers', type: 'RefList:People', visibleCol: 'Name' },
		{ id: 'Oldest', type: 'Ref:People', visibleCol: 'Born' },
		{ id: 'Invoice', type: 'Ref:Invoices', visibleCol: 'No' },
		{ id: 'Plain', type: 'Ref:People' },
	]);
});
beforeEach(() => {
	emu.clearFaults();
	const ids = emu.records(demo.docId, 'Jobs').map((r) => r.id);
	if (ids.length) emu.removeRecords(demo.docId, 'Jobs', ids);
	emu.clearLog();
});

const docPath = () => `/api/docs/${demo.docId}`;
const requests = () => emu.log.map((e) => `${e.method} ${e.apiPath}`);
const stored = () => emu.records(demo.docId, 'Jobs');
const sqlBodies = () =>
	emu.log
		.filter((e) => e.apiPath.endsWith('/sql'))
		.map((e) => e.body as { sql: string; args: unknown[] });
const run = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId, 'Jobs') });

/** The mapper's fields of table Jobs, as the editor gets them. */
async function mapperFields() {
	return (await loadOptions({
		node: new Grist(),
		parameters: {
			resource: 'record',
			operation: 'create',
			document: byId(demo.docId),
			table: byId('Jobs'),
		},
		credentials: { apiKey: demo.apiKey, url: fx.site },
		method: 'getMappingColumns',
		kind: 'resourceMapping',
	})) as { fields: Array<{ id: string; displayName: string; type: string }> };
}

describe('the column mapper', () => {
	it('Reference fields are text and say "row ID or <shown column>"', async () => {
		const { fields } = await mapperFields();
		expect(fields.map((f) => [f.id, f.type, f.displayName])).toEqual([
			['Title', 'string', 'Title (text)'],
			['Owner', 'string', 'Owner (row ID or Full name)'],
			['Helpers', 'string', 'Helpers (row IDs or Full name)'],
			['Oldest', 'string', 'Oldest (row ID or Born)'],
			['Invoice', 'string', 'Invoice (row ID or No)'],
			['Plain', 'string', 'Plain (row ID)'],
		]);
	});

	it("a name typed in a Reference field passes n8n's check of the mapper and is written as its row ID", async () => {
		const { fields } = await mapperFields();
		const schema = fields.map((f) => ({ ...f, display: true, required: false, removed: false }));
		const { items: out, error } = await run({
			operation: 'create',
			columns: { ...mapper({ Title: 'typed', Owner: 'Cy Young', Helpers: 'Ann, 2' }), schema },
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({ Title: 'typed', Owner: 4, Helpers: [1, 2] });
		expect(stored()[0].fields).toMatchObject({ Owner: 4, Helpers: ['L', 1, 2] });
	});
});

describe('Create', () => {
	it('names, IDs and lists of both: one lookup for all names of the run, then the usual check of the IDs the lookup did not find', async () => {
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap() },
			{
				input: items([
					{ Title: 'a', Owner: 'Ann', Helpers: 'Cy Young, 2' },
					{ Title: 'b', Owner: '  Cy Young ', Helpers: ['Ann', 5] },
					{ Title: 'c', Owner: 2, Helpers: '["Dee, Jr.", "4"]' },
					{ Title: 'd', Owner: '5', Helpers: '' },
					{ Title: 'e', Owner: 'ann', Helpers: null },
				]),
			},
		);
		expect(error).toBeUndefined();
		expect(out.map((o) => [o.json.Owner, o.json.Helpers])).toEqual([
			[1, [4, 2]],
			[4, [1, 5]],
			[2, [6, 4]],
			[5, null],
			[5, null],
		]);
		expect(stored().map((r) => [r.fields.Title, r.fields.Owner, r.fields.Helpers])).toEqual([
			['a', 1, ['L', 4, 2]],
			['b', 4, ['L', 1, 5]],
			['c', 2, ['L', 6, 4]],
			['d', 5, null],
			['e', 5, null],
		]);
		expect(requests()).toEqual([
			`GET ${docPath()}/tables/Jobs/columns`,
			`GET ${docPath()}/tables/People/columns`,
			`POST ${docPath()}/sql`,
			`POST ${docPath()}/sql`,
			`POST ${docPath()}/tables/Jobs/records`,
		]);
		const [lookup, check] = sqlBodies();
		expect(lookup.sql).toBe(
			'SELECT id, "Name" FROM "People" WHERE "Name" IN (SELECT value FROM json_each(?))',
		);
		expect(JSON.parse(lookup.args[0] as string)).toEqual(['Ann', 'Cy Young', 'ann', 'Dee, Jr.']);
		// the names found rows 1, 4, 5 and 6: only row 2, given by ID alone, is checked
		expect(check.args).toEqual(['[2]']);
	});

	it('a name no row has, and a name two rows have, refuse their items: nothing written, every item named', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{
				input: items([
					{ Title: 'ok', Owner: 'Ann' },
					{ Title: 'typo', Owner: 'Anne' },
					{ Title: 'two', Helpers: 'Ann, Bob' },
					{ Title: 'case', Owner: 'ANN' },
				]),
			},
		);
		expect(error?.message).toBe('3 items were refused (items 1–3); no item was written');
		expect(error?.description).toContain(
			'Item 1, column "Owner": no row of table "People" has Full name "Anne"',
		);
		expect(error?.description).toContain(
			'Item 2, column "Helpers": 2 rows of table "People" have Full name "Bob" (rows 2, 3)',
		);
		expect(error?.description).toContain(
			'Item 3, column "Owner": no row of table "People" has Full name "ANN"',
		);
		expect(stored()).toEqual([]);
		expect(emu.log.filter((e) => e.apiPath.endsWith('/records'))).toEqual([]);
	});

	it('with Continue On Fail the refused items error (item, column, name), the others are written in item order', async () => {
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap() },
			{
				continueOnFail: true,
				input: items([
					{ Title: 'first', Owner: 1 },
					{ Title: 'typo', Owner: 'Anne' },
					{ Title: 'two', Owner: 'Bob' },
					{ Title: 'ok', Owner: 'Cy Young' },
					{ Title: 'ghost', Owner: 99999 },
				]),
			},
		);
		expect(error).toBeUndefined();
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3, 4]);
		expect(out[1].json.error).toBe(
			'Item 1, column "Owner": no row of table "People" has Full name "Anne"',
		);
		expect(out[2].json.error).toBe(
			'Item 2, column "Owner": 2 rows of table "People" have Full name "Bob" (rows 2, 3)',
		);
		expect(out[4].json.error).toBe(
			'Reference to missing rows in item 4: "Owner" points at row 99999 of table "People", which does not exist',
		);
		expect(stored().map((r) => [r.fields.Title, r.fields.Owner])).toEqual([
			['first', 1],
			['ok', 4],
		]);
	});

	it('digits are a row ID even where the shown column holds numbers; a numeric shown value typed otherwise is looked up', async () => {
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap() },
			{
				continueOnFail: true,
				input: items([
					{ Title: 'row 1', Invoice: '1' },
					{ Title: 'shown 1867', Oldest: '1867.0' },
					{ Title: 'no such', Oldest: 'x1867' },
				]),
			},
		);
		expect(error).toBeUndefined();
		expect(out[0].json.Invoice).toBe(1);
		expect(out[1].json.Oldest).toBe(4);
		expect(out[2].json.error).toBe(
			'Item 2, column "Oldest": "x1867" is neither a row ID nor a value of Born (Int)',
		);
	});

	it('a Reference that shows the row ID takes row IDs only', async () => {
		const { error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: items([{ Title: 'x', Plain: 'Ann' }]) },
		);
		expect(error?.message).toBe('Item 0, column "Plain": "Ann" is not a row ID');
		expect(error?.description).toContain('shows the row ID, so it takes row IDs only');
		expect(requests()).toEqual([`GET ${docPath()}/tables/Jobs/columns`]);
	});

	it('where /sql is refused (403), the names are read from the records, filtered by the shown column', async () => {
		emu.fault({
			method: 'POST',
			path: /\/sql$/,
			status: 403,
			body: { error: 'insufficient document access' },
		});
		const { items: out, error } = await run(
			{ operation: 'create', columns: autoMap() },
			{ input: items([{ Title: 'x', Owner: 'Cy Young', Helpers: 'Ann' }]) },
		);
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({ Owner: 4, Helpers: [1] });
		const byName = emu.log.find((e) => e.method === 'GET' && e.apiPath.endsWith('/People/records'));
		expect(JSON.parse(String(byName?.query.filter))).toEqual({ Name: ['Cy Young', 'Ann'] });
	});
});

describe('Update and Upsert', () => {
	it('Update: a name in the fields, an empty value clears the reference', async () => {
		const [id] = emu.addRecords(demo.docId, 'Jobs', [{ Title: 'j', Owner: 1, Helpers: ['L', 1] }]);
		emu.clearLog();
		const { items: out, error } = await run({
			operation: 'update',
			rowId: String(id),
			columns: mapper({ Owner: 'Dee, Jr.', Helpers: '' }),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({ id, Owner: 6, Helpers: null });
		expect(stored()[0].fields).toMatchObject({ Owner: 6, Helpers: null });
	});

	it('Upsert: a Reference match column given by name matches its row; the name and its row ID in one run go in two rounds', async () => {
		emu.addRecords(demo.docId, 'Jobs', [{ Title: 'old', Owner: 4 }]);
		emu.clearLog();
		const { items: out, error } = await run(
			{ operation: 'upsert', columns: autoMap(['Owner']) },
			{
				input: items([
					{ Owner: 'Cy Young', Title: 'by name' },
					{ Owner: 4, Title: 'by id' },
					{ Owner: 'Ann', Title: 'new' },
				]),
			},
		);
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json.Owner)).toEqual([4, 4, 1]);
		expect(stored().map((r) => [r.fields.Title, r.fields.Owner])).toEqual([
			['by id', 4],
			['new', 1],
		]);
		const puts = emu.log.filter((e) => e.method === 'PUT');
		expect(puts.map((e) => (e.body as { records: unknown[] }).records)).toEqual([
			[
				{ require: { Owner: 4 }, fields: { Title: 'by name' } },
				{ require: { Owner: 1 }, fields: { Title: 'new' } },
			],
			[{ require: { Owner: 4 }, fields: { Title: 'by id' } }],
		]);
	});

	it('Upsert: an ambiguous name in a match column refuses the item', async () => {
		const { items: out } = await run(
			{ operation: 'upsert', columns: autoMap(['Owner']) },
			{ continueOnFail: true, input: items([{ Owner: 'Bob', Title: 'x' }, { Owner: 1 }]) },
		);
		expect(out[0].json.error).toBe(
			'Item 0, column "Owner": 2 rows of table "People" have Full name "Bob" (rows 2, 3)',
		);
		expect(out[1].json).toMatchObject({ Owner: 1 });
	});
});

describe('Get Many conditions on a Reference column', () => {
	beforeEach(() => {
		emu.addRecords(demo.docId, 'Jobs', [
			{ Title: 'j1', Owner: 1, Helpers: ['L', 4] },
			{ Title: 'j2', Owner: 2, Helpers: ['L', 1, 3] },
			{ Title: 'j3', Owner: 3, Helpers: null },
			{ Title: 'j4', Owner: 4, Helpers: ['L', 2] },
		]);
		emu.clearLog();
	});
	const search = async (conditions: unknown[], more: Record<string, unknown> = {}, opts = {}) =>
		await run(
			{
				operation: 'getAll',
				returnAll: true,
				filterType: 'conditions',
				conditions: { conditions },
				...more,
			},
			opts,
		);
	const titles = (r: { items: Array<{ json: Record<string, unknown> }> }) =>
		r.items.map((i) => i.json.Title);

	it("Is One Of with names and IDs: Grist's filter on the row IDs; a name of two rows means either", async () => {
		const found = await search([{ column: 'Owner', match: 'anyOf', values: 'Bob, 4' }]);
		expect(found.error).toBeUndefined();
		expect(titles(found)).toEqual(['j2', 'j3', 'j4']);
		const get = emu.log.find((e) => e.apiPath.endsWith('/Jobs/data'));
		expect(JSON.parse(String(get?.query.filter))).toEqual({ Owner: [2, 3, 4] });
	});

	it('Equals a name of two rows, through SQL: any of them', async () => {
		const found = await search(
			[
				{ column: 'Owner', match: 'equals', values: 'Bob' },
				{ column: 'Title', match: 'equals', values: 'j1' },
			],
			{ combine: 'or' },
		);
		expect(found.error).toBeUndefined();
		expect(titles(found)).toEqual(['j1', 'j2', 'j3']);
	});

	it('Reference List Contains a name; Is None Of a name', async () => {
		expect(
			titles(await search([{ column: 'Helpers', match: 'contains', values: 'Cy Young' }])),
		).toEqual(['j1']);
		expect(titles(await search([{ column: 'Owner', match: 'noneOf', values: 'Ann' }]))).toEqual([
			'j2',
			'j3',
			'j4',
		]);
	});

	it('a name no row has: an error naming the condition, the name and the item; with Continue On Fail an error item', async () => {
		const failed = await search([{ column: 'Owner', match: 'anyOf', values: 'Anne' }]);
		expect(failed.error?.message).toBe(
			'Condition 1 (Owner): no row of table "People" has Full name "Anne" (Conditions, item 0)',
		);
		const goOn = await search(
			[{ column: 'Owner', match: 'anyOf', values: '={{ $json.who }}' }],
			{},
			{ continueOnFail: true, input: items([{ who: 'Anne' }, { who: 'Ann' }]) },
		);
		expect(goOn.items[0].json.error).toContain('no row of table "People" has Full name "Anne"');
		expect(goOn.items[1].json.Title).toBe('j1');
	});

	it('the names of all items: looked up once each per execution', async () => {
		const found = await search(
			[{ column: 'Owner', match: 'anyOf', values: '={{ $json.who }}' }],
			{},
			{ input: items([{ who: 'Ann' }, { who: 'Cy Young' }, { who: 'Ann' }]) },
		);
		expect(titles(found)).toEqual(['j1', 'j4', 'j1']);
		const lookups = sqlBodies().filter((b) => b.sql.includes('json_each'));
		expect(lookups.map((b) => JSON.parse(b.args[0] as string))).toEqual([['Ann'], ['Cy Young']]);
		expect(requests().filter((r) => r.endsWith('/People/columns'))).toHaveLength(1);
	});
});
