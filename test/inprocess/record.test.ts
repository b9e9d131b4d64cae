/**
 * Record operations (level b): the real node in n8n-core against the Grist emulator. Requests are
 * asserted from the emulator's request log; stored values from the emulator's data.
 */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { autoMap, byId, docTable, items, mapper } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { loadOptions } from '../harness/inprocess';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let serverUrl: string;

const JAN_10_2024 = 1704844800;

beforeAll(() => {
	({ emu, demo, site: serverUrl } = fx);
	emu.addTable(demo.docId, 'AllTypes', [
		{ id: 'Text', type: 'Text' },
		{ id: 'Num', type: 'Numeric' },
		{ id: 'Int', type: 'Int' },
		{ id: 'Bool', type: 'Bool' },
		{ id: 'Date', type: 'Date' },
		{ id: 'When', type: 'DateTime:UTC' },
		{ id: 'Choice', type: 'Choice', widgetOptions: { choices: ['a', 'b'] } },
		{ id: 'Choices', type: 'ChoiceList', widgetOptions: { choices: ['x', 'y', 'z'] } },
		{ id: 'Ref', type: 'Ref:Customers', visibleCol: 'Name' },
		{ id: 'Refs', type: 'RefList:Customers', visibleCol: 'Name' },
		{ id: 'Files', type: 'Attachments' },
		{ id: 'Ratio', type: 'Numeric', formula: '$Num / $Int', isFormula: true },
	]);
	emu.addTable(demo.docId, 'Bulk', [
		{ id: 'N', type: 'Int' },
		{ id: 'Label', type: 'Text' },
		{ id: 'Big', type: 'Text' },
	]);
	emu.addTable(demo.docId, 'People', [
		{ id: 'Email', type: 'Text' },
		{ id: 'Name', type: 'Text' },
		{ id: 'Visits', type: 'Int' },
	]);
});

/** Node parameters as a workflow stores them (resource-mapper values included). */
const run = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId) });

const requests = () => emu.log.map((e) => `${e.method} ${e.apiPath}`);
const paired = (out: INodeExecutionData[]) =>
	out.map((o) => (o.pairedItem as { item: number }).item);
const tablePath = (t: string) => `/api/docs/${demo.docId}/tables/${t}`;

function resetTable(table: string) {
	const ids = emu.records(demo.docId, table).map((r) => r.id);
	if (ids.length) emu.removeRecords(demo.docId, table, ids);
	emu.clearLog();
}

describe('record.getAll', () => {
	it('simplifies: flat records, dates as ISO, lists as arrays, refs as row ids (one GET of columns, one GET of records)', async () => {
		const { items: out, error } = await run({
			operation: 'getAll',
			table: byId('Orders'),
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json)).toEqual([
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
			{
				id: 2,
				Customer: 2,
				Amount: 80,
				Ordered: '2024-06-02',
				Status: 'New',
				Tags: null,
				Invoice: null,
				Total: 160,
			},
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
		]);
		expect(paired(out)).toEqual([0, 0, 0]);
		expect(emu.log.map((e) => [e.method, e.apiPath, e.query])).toEqual([
			['GET', `${tablePath('Orders')}/data`, {}],
			['GET', `${tablePath('Orders')}/columns`, { hidden: '1' }],
		]);
	});

	it("raw mode gives Grist's { id, fields } with one request", async () => {
		const { items: out } = await run({
			operation: 'getAll',
			table: byId('Customers'),
			simplify: false,
			limit: 2,
		});
		expect(out.map((o) => o.json)).toEqual([
			{
				id: 1,
				fields: {
					Name: 'Alice Martin',
					Email: 'alice@example.com',
					Country: 'France',
					Since: 1704067200,
				},
			},
			{
				id: 2,
				fields: {
					Name: 'Bob Schmidt',
					Email: 'bob@example.com',
					Country: 'Germany',
					Since: 1706745600,
				},
			},
		]);
		expect(emu.log.map((e) => [e.method, e.apiPath, e.query])).toEqual([
			['GET', `${tablePath('Customers')}/data`, { limit: '2' }],
		]);
	});

	it('builds typed filters and sorts with Grist option names', async () => {
		const { items: out, error } = await run({
			operation: 'getAll',
			table: byId('Orders'),
			returnAll: true,
			filterType: 'conditions',
			conditions: {
				conditions: [
					{ column: 'Status', values: 'Paid, Shipped' },
					{ column: 'Ordered', values: '2024-06-01,2024-06-03' },
				],
			},
			sort: {
				rules: [
					{
						column: 'Amount',
						direction: 'desc',
						emptyLast: true,
						naturalSort: false,
						orderByChoice: false,
					},
				],
			},
		});
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json.id)).toEqual([1, 3]);
		const get = emu.log.find((e) => e.apiPath.endsWith('/data'))!;
		expect(get.query).toEqual({
			filter: JSON.stringify({ Status: ['Paid', 'Shipped'], Ordered: [1717200000, 1717372800] }),
			sort: '-Amount:emptyLast',
		});
	});

	it('keeps text that looks like a number as text in the filter', async () => {
		emu.addRecords(demo.docId, 'People', [{ Email: '007', Name: 'Bond', Visits: 7 }]);
		const { items: out } = await run({
			operation: 'getAll',
			table: byId('People'),
			returnAll: true,
			filterType: 'conditions',
			conditions: {
				conditions: [
					{ column: 'Email', values: '007' },
					{ column: 'Visits', values: '7' },
				],
			},
		});
		expect(out.map((o) => o.json.Name)).toEqual(['Bond']);
		expect(emu.log.find((e) => e.apiPath.endsWith('/data'))!.query.filter).toBe(
			'{"Email":["007"],"Visits":[7]}',
		);
		resetTable('People');
	});

	it('passes a JSON filter and rejects malformed JSON before any request', async () => {
		const ok = await run({
			operation: 'getAll',
			table: byId('Customers'),
			returnAll: true,
			simplify: false,
			filterType: 'json',
			filterJson: '{"Country": ["USA"]}',
		});
		expect(ok.items.map((o) => o.json.id)).toEqual([3]);
		emu.clearLog();
		const bad = await run({
			operation: 'getAll',
			table: byId('Customers'),
			simplify: false,
			filterType: 'json',
			filterJson: '{"Country": ["USA"]',
		});
		expect(bad.error?.message).toMatch(/^The Filter \(JSON\) is not valid JSON: .* \(item 0\)$/);
		expect(bad.error?.description).toContain('arrays');
		expect(requests()).toEqual([]);
		const notArray = await run({
			operation: 'getAll',
			table: byId('Customers'),
			simplify: false,
			filterType: 'json',
			filterJson: '{"Country": "USA"}',
		});
		expect(notArray.error?.message).toContain('value for column "Country" must be an array');
		expect(requests()).toEqual([]);
	});

	it("gives Grist's message for a filter on an unknown column", async () => {
		const { error } = await run({
			operation: 'getAll',
			table: byId('Customers'),
			simplify: false,
			filterType: 'json',
			filterJson: '{"Nope": [1]}',
		});
		expect(error?.message).toContain('Nope');
		expect(emu.log.map((e) => e.status)).toEqual([400]);
	});

	it('rejects a sort on an unknown column and a negative limit before reading records', async () => {
		const sort = await run({
			operation: 'getAll',
			table: byId('Customers'),
			sort: { rules: [{ column: 'Nope', direction: 'asc' }] },
		});
		expect(sort.error?.message).toBe(
			'Cannot sort by column "Nope": the table has no such column (item 0)',
		);
		expect(requests()).toEqual([`GET ${tablePath('Customers')}/columns`]);
		emu.clearLog();
		const limit = await run({
			operation: 'getAll',
			table: byId('Customers'),
			simplify: false,
			limit: '={{ -1 }}',
		});
		expect(limit.error?.message).toBe(
			'The Limit of item 0 must be a whole number of at least 1, not -1',
		);
		expect(requests()).toEqual([]);
	});

	it('keeps formula errors under errors and can include hidden columns', async () => {
		resetTable('AllTypes');
		emu.addRecords(demo.docId, 'AllTypes', [{ Num: 3, Int: 0 }]);
		const { items: out } = await run({
			operation: 'getAll',
			table: byId('AllTypes'),
			returnAll: true,
			options: { includeHidden: true },
		});
		expect(out[0].json).toMatchObject({ Ratio: null, errors: { Ratio: 'ZeroDivisionError' } });
		expect(out[0].json).toHaveProperty('manualSort');
		// /data gives every column; the node leaves out manualSort and gristHelper_* unless asked
		expect(emu.log.find((e) => e.apiPath.endsWith('/data'))!.query).toEqual({});
		const raw = await run({
			operation: 'getAll',
			table: byId('AllTypes'),
			returnAll: true,
			simplify: false,
		});
		expect(raw.items).toHaveLength(1);
		expect(raw.items[0].json).toMatchObject({
			fields: { Num: 3, Int: 0, Ratio: null },
			errors: { Ratio: 'ZeroDivisionError' },
		});
		expect(raw.items[0].json.fields).not.toHaveProperty('manualSort');
	});

	it('reads per item (expressions may differ) and pairs outputs; continueOnFail keeps going', async () => {
		const { items: out } = await run(
			{
				operation: 'getAll',
				table: byId('={{ $json.t }}'),
				simplify: false,
				limit: 1,
			},
			{
				input: items([{ t: 'Customers' }, { t: 'Missing' }, { t: 'Orders' }]),
				continueOnFail: true,
			},
		);
		expect(out.map((o) => [paired([o])[0], o.json.error ?? o.json.id])).toEqual([
			[0, 1],
			[1, 'Table not found "Missing"'],
			[2, 1],
		]);
	});
});

describe('record.get', () => {
	const get = (parameters: Record<string, unknown>, ids: unknown[], continueOnFail = false) =>
		run(
			{ operation: 'get', table: byId('Orders'), rowId: '={{ $json.id }}', ...parameters },
			{ input: items(ids.map((id) => ({ id }) as IDataObject)), continueOnFail },
		);
	const recordReads = () => emu.log.filter((e) => e.apiPath.endsWith('/records'));

	it('gives one item per input item, in input order, paired; the items of one table share one read', async () => {
		const { items: out, error } = await get({}, [3, 1, 3, 2]);
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json.id)).toEqual([3, 1, 3, 2]);
		expect(paired(out)).toEqual([0, 1, 2, 3]);
		expect(out[0].json).toEqual(out[2].json);
		expect(out[0].json).not.toBe(out[2].json);
		expect(emu.log.map((e) => [e.method, e.apiPath, e.query])).toEqual([
			['GET', `${tablePath('Orders')}/records`, { filter: '{"id":[3,1,2]}' }],
			['GET', `${tablePath('Orders')}/columns`, { hidden: '1' }],
		]);
	});

	it('groups by document and table: one read per table, outputs still in input order', async () => {
		const { items: out, error } = await run(
			{
				operation: 'get',
				table: byId('={{ $json.t }}'),
				rowId: '={{ $json.id }}',
				simplify: false,
			},
			{
				input: items([
					{ t: 'Orders', id: 2 },
					{ t: 'Customers', id: 1 },
					{ t: 'Orders', id: 1 },
					{ t: 'Customers', id: 2 },
				]),
			},
		);
		expect(error).toBeUndefined();
		expect(
			out.map((o) => [paired([o])[0], o.json.id, Object.keys(o.json.fields as IDataObject)[0]]),
		).toEqual([
			[0, 2, 'Customer'],
			[1, 1, 'Name'],
			[2, 1, 'Customer'],
			[3, 2, 'Name'],
		]);
		expect(emu.log.map((e) => [e.apiPath, e.query])).toEqual([
			[`${tablePath('Orders')}/records`, { filter: '{"id":[2,1]}' }],
			[`${tablePath('Customers')}/records`, { filter: '{"id":[1,2]}' }],
		]);
	});

	it('reads 1,500 rows of one table in one request, not one per item', async () => {
		emu.addTable(demo.docId, 'Many', [{ id: 'N', type: 'Int' }]);
		const ids = emu.addRecords(
			demo.docId,
			'Many',
			Array.from({ length: 1500 }, (_, i) => ({ N: i })),
		);
		emu.clearLog();
		const wanted = [...ids].reverse();
		const { items: out, error } = await get({ table: byId('Many'), simplify: false }, wanted);
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json.id)).toEqual(wanted);
		// seeded with N = 0, 1, 2… in row ID order
		expect(out.map((o) => (o.json.fields as IDataObject).N)).toEqual(
			wanted.map((_, i) => wanted.length - 1 - i),
		);
		expect(paired(out)).toEqual(wanted.map((_, i) => i));
		// too many IDs for a URL: all in one POST …/records/list body
		expect(recordReads()).toEqual([]);
		const lists = emu.log.filter((e) => e.apiPath.endsWith('/records/list'));
		expect(lists.map((e) => (e.body as { filter: { id: number[] } }).filter.id)).toEqual([wanted]);
	});

	// the options on: [the keys a record has besides its fields, with Simplify on and off]
	const withOptions = { options: { includeHidden: true, referenceDisplay: true } };
	it.each([
		['Simplify on', { simplify: true }, ['id', 'Customer']],
		['Simplify off', { simplify: false }, ['id', 'fields']],
		[
			'Simplify on, hidden columns and reference display values',
			{ simplify: true, ...withOptions },
			['id', 'manualSort', '_display'],
		],
		[
			'Simplify off, hidden columns and reference display values',
			{ simplify: false, ...withOptions },
			['id', 'fields', '_display'],
		],
	])(
		'gives the row exactly as Get Many does (%s), key order included',
		async (_label, parameters, keys) => {
			const many = await run({
				operation: 'getAll',
				table: byId('Orders'),
				returnAll: true,
				...parameters,
			});
			expect(many.error).toBeUndefined();
			const ids = many.items.map((o) => o.json.id as number).reverse();
			expect(ids.length).toBeGreaterThanOrEqual(3);
			const one = await get(parameters, ids);
			expect(one.error).toBeUndefined();
			const expected = ids.map((id) => many.items.find((o) => o.json.id === id)!.json);
			expect(one.items.map((o) => o.json)).toEqual(expected);
			expect(one.items.map((o) => JSON.stringify(o.json))).toEqual(
				expected.map((j) => JSON.stringify(j)),
			);
			for (const o of one.items) expect(Object.keys(o.json)).toEqual(expect.arrayContaining(keys));
		},
	);

	it('reads the reference display values of all the items together', async () => {
		const { items: out, error } = await get({ options: { referenceDisplay: true } }, [1, 2, 3]);
		expect(error).toBeUndefined();
		expect(out.map((o) => o.json._display)).toEqual([
			{ Customer: 'Alice Martin' },
			{ Customer: 'Bob Schmidt' },
			{ Customer: 'Alice Martin' },
		]);
		expect(emu.log.map((e) => `${e.method} ${e.apiPath.split(demo.docId)[1]}`)).toEqual([
			'GET /tables/Orders/records',
			'GET /tables/Orders/columns',
			'GET /tables/Customers/columns',
			'POST /sql',
		]);
	});

	it('a row ID the table does not have: an error naming the ID, the table and the item', async () => {
		const { items: out, error } = await get({}, [1, 42]);
		expect(out).toEqual([]);
		expect(error?.message).toBe('No record with row ID 42 in table "Orders" (item 1)');
		expect(error?.description).toBe(
			"Check the Row ID: it is Grist's id of the record (Record → Get Many lists them). The record may have been deleted, or access rules may hide it from the user of this credential.",
		);
		expect(recordReads().map((e) => e.query)).toEqual([{ filter: '{"id":[1,42]}' }]);
	});

	it.each([
		['"abc"', 'abc', 'The Row ID field of item 1 has "abc", which is not a row ID'],
		['1.5', 1.5, 'The Row ID field of item 1 has 1.5, which is not a row ID'],
		['0', 0, 'The Row ID field of item 1 has 0, which is not a row ID'],
		['-3', -3, 'The Row ID field of item 1 has -3, which is not a row ID'],
		['empty', '', 'The Row ID field of item 1 is empty'],
		['two IDs', '1, 2', 'The Row ID field of item 1 must hold one row ID, not 2'],
	])(
		'a Row ID that is not one row ID (%s): an error naming the field and the item, before any request',
		async (_label, bad, message) => {
			const { items: out, error } = await get({}, [1, bad]);
			expect(out).toEqual([]);
			expect(error?.message).toBe(message);
			expect(emu.log).toEqual([]);
		},
	);

	it('refuses the Row ID as typed when it is not a row ID', async () => {
		const { error } = await run({ operation: 'get', table: byId('Orders'), rowId: 2.5 });
		expect(error?.message).toBe('The Row ID field of item 0 has 2.5, which is not a row ID');
		expect(emu.log).toEqual([]);
	});

	it('with Continue On Fail: error items for the missing and the bad row IDs and a missing table, the others read', async () => {
		const { items: out, error } = await run(
			{ operation: 'get', table: byId('={{ $json.t }}'), rowId: '={{ $json.id }}' },
			{
				input: items([
					{ t: 'Orders', id: 1 },
					{ t: 'Orders', id: 42 },
					{ t: 'Orders', id: 'x' },
					{ t: 'Missing', id: 1 },
					{ t: 'Orders', id: 2 },
				]),
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual([0, 1, 2, 3, 4]);
		expect(out.map((o) => o.json.error ?? o.json.id)).toEqual([
			1,
			'No record with row ID 42 in table "Orders" (item 1)',
			'The Row ID field of item 2 has "x", which is not a row ID',
			'Table not found "Missing"',
			2,
		]);
		expect(out[1].json.description).toMatch(/^Check the Row ID/);
		expect(out[4].json).toMatchObject({ id: 2, Ordered: '2024-06-02' });
		expect(recordReads().map((e) => [e.apiPath, e.query])).toEqual([
			[`${tablePath('Orders')}/records`, { filter: '{"id":[1,42,2]}' }],
			[`${tablePath('Missing')}/records`, { filter: '{"id":[1]}' }],
		]);
	});
});

describe('record.create', () => {
	it('round-trips every column type (encode on write, decode on read)', async () => {
		resetTable('AllTypes');
		const input = {
			Text: '00123',
			Num: '2.5',
			Int: 4,
			Bool: 'true',
			Date: '2024-01-10',
			When: '2024-01-10T12:30:00+02:00',
			Choice: 'a',
			Choices: ['x', 'z'],
			Ref: '2',
			Refs: [1, 3],
			Files: [demo.attachmentId],
			Ratio: 99,
		};
		const { items: out, error } = await run(
			{ operation: 'create', table: byId('AllTypes'), columns: autoMap() },
			{ input: items([input]) },
		);
		expect(error).toBeUndefined();
		const post = emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!;
		expect(post.body).toEqual({
			records: [
				{
					fields: {
						Text: '00123',
						Num: 2.5,
						Int: 4,
						Bool: true,
						Date: JAN_10_2024,
						When: JAN_10_2024 + 10.5 * 3600,
						Choice: 'a',
						Choices: ['L', 'x', 'z'],
						Ref: 2,
						Refs: ['L', 1, 3],
						Files: ['L', demo.attachmentId],
					},
				},
			],
		});
		const id = out[0].json.id as number;
		expect(out[0].json).toEqual({
			id,
			Text: '00123',
			Num: 2.5,
			Int: 4,
			Bool: true,
			Date: '2024-01-10',
			When: '2024-01-10T10:30:00.000Z',
			Choice: 'a',
			Choices: ['x', 'z'],
			Ref: 2,
			Refs: [1, 3],
			Files: [demo.attachmentId],
		});
		const read = await run({ operation: 'getAll', table: byId('AllTypes'), returnAll: true });
		const { Ratio, ...stored } = read.items.find((o) => o.json.id === id)!.json;
		expect(Ratio).toBeCloseTo(0.625);
		expect(stored).toEqual(out[0].json);
	});

	it('maps columns with the resource mapper, never sends formula columns, and honours noparse', async () => {
		resetTable('AllTypes');
		const { error } = await run({
			operation: 'create',
			table: byId('AllTypes'),
			columns: mapper({ Text: 'hi', Ratio: 5, Date: '2024-01-10' }),
			options: { noparse: true },
		});
		expect(error).toBeUndefined();
		const post = emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!;
		expect(post.query).toEqual({ noparse: '1' });
		expect(post.body).toEqual({ records: [{ fields: { Text: 'hi', Date: JAN_10_2024 } }] });
	});

	it("encodes values n8n's resource mapper converted by its schema (dateTime → luxon, array from JSON text)", async () => {
		resetTable('AllTypes');
		const schema = [
			{
				id: 'Date',
				displayName: 'Date',
				type: 'dateTime',
				required: false,
				defaultMatch: false,
				display: true,
				canBeUsedToMatch: true,
			},
			{
				id: 'When',
				displayName: 'When',
				type: 'dateTime',
				required: false,
				defaultMatch: false,
				display: true,
				canBeUsedToMatch: true,
			},
			{
				id: 'Choices',
				displayName: 'Choices',
				type: 'array',
				required: false,
				defaultMatch: false,
				display: true,
				canBeUsedToMatch: true,
			},
			{
				id: 'Int',
				displayName: 'Int',
				type: 'number',
				required: false,
				defaultMatch: false,
				display: true,
				canBeUsedToMatch: true,
			},
		];
		const { error } = await run({
			operation: 'create',
			table: byId('AllTypes'),
			columns: {
				...mapper({
					Date: '2024-01-10',
					When: '2024-01-10T06:00:00Z',
					Choices: '["x","y"]',
					Int: '7',
				}),
				schema,
			},
		});
		expect(error).toBeUndefined();
		expect(
			emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!.body,
		).toEqual({
			records: [
				{
					fields: {
						Date: JAN_10_2024,
						When: JAN_10_2024 + 6 * 3600,
						Choices: ['L', 'x', 'y'],
						Int: 7,
					},
				},
			],
		});
	});

	it('list columns mapped as text fields (the mapper schema since lists are not JSON editors): "a, b", a JSON array, an array from an expression', async () => {
		const field = (id: string) => ({
			id,
			displayName: id,
			type: 'string',
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: true,
		});
		const schema = [field('Choices'), field('Refs'), field('Files')];
		const cases: Array<[IDataObject, IDataObject]> = [
			[
				{ Choices: 'x, y', Refs: '1, 2', Files: '3' },
				{ Choices: ['L', 'x', 'y'], Refs: ['L', 1, 2], Files: ['L', 3] },
			],
			[
				{ Choices: '["x, y", "z"]', Refs: '[2]', Files: '' },
				{ Choices: ['L', 'x, y', 'z'], Refs: ['L', 2], Files: null },
			],
			[
				{ Choices: '={{ ["x", "y"] }}', Refs: '={{ [1] }}' },
				{ Choices: ['L', 'x', 'y'], Refs: ['L', 1] },
			],
		];
		for (const [value, fields] of cases) {
			resetTable('AllTypes');
			const { error } = await run({
				operation: 'create',
				table: byId('AllTypes'),
				columns: { ...mapper(value), schema },
			});
			expect(error).toBeUndefined();
			expect(
				emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!.body,
			).toEqual({ records: [{ fields }] });
		}
	});

	it('round-trips DateTime columns with a time zone: local times in the column zone (summer and winter), offsets, epoch, luxon', async () => {
		emu.addTable(demo.docId, 'Zoned', [
			{ id: 'When', type: 'DateTime:America/New_York' },
			{ id: 'Paris', type: 'DateTime:Europe/Paris' },
			{ id: 'Day', type: 'Date' },
		]);
		emu.clearLog();
		const H = 3600;
		const input = items([
			{ When: '2024-01-10T09:00:00', Paris: '2024-01-10 09:00', Day: '2024-01-10' },
			{ When: '2024-07-10 09:00', Paris: '2024-07-10T09:00:00', Day: '2024-07-10T23:30:00-05:00' },
			{ When: '2024-01-10T09:00:00-08:00', Paris: '2024-01-10T09:00:00Z', Day: JAN_10_2024 },
			{ When: JAN_10_2024 + 14 * H, Paris: null, Day: null },
		]);
		const { items: out, error } = await run(
			{ operation: 'create', table: byId('Zoned'), columns: autoMap() },
			{ input },
		);
		expect(error).toBeUndefined();
		const JUL_10_2024 = Date.UTC(2024, 6, 10) / 1000;
		expect(
			emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!.body,
		).toEqual({
			records: [
				// New York is UTC-5 in winter and UTC-4 in summer; Paris UTC+1 and UTC+2
				{ fields: { When: JAN_10_2024 + 14 * H, Paris: JAN_10_2024 + 8 * H, Day: JAN_10_2024 } },
				{ fields: { When: JUL_10_2024 + 13 * H, Paris: JUL_10_2024 + 7 * H, Day: JUL_10_2024 } },
				{ fields: { When: JAN_10_2024 + 17 * H, Paris: JAN_10_2024 + 9 * H, Day: JAN_10_2024 } },
				{ fields: { When: JAN_10_2024 + 14 * H, Paris: null, Day: null } },
			],
		});
		const expected = [
			{ When: '2024-01-10T14:00:00.000Z', Paris: '2024-01-10T08:00:00.000Z', Day: '2024-01-10' },
			{ When: '2024-07-10T13:00:00.000Z', Paris: '2024-07-10T07:00:00.000Z', Day: '2024-07-10' },
			{ When: '2024-01-10T17:00:00.000Z', Paris: '2024-01-10T09:00:00.000Z', Day: '2024-01-10' },
			{ When: '2024-01-10T14:00:00.000Z', Paris: null, Day: null },
		];
		expect(
			out.map(({ json: { id, ...rest } }) => (expect(typeof id).toBe('number'), rest)),
		).toEqual(expected);
		const read = await run({
			operation: 'getAll',
			table: byId('Zoned'),
			returnAll: true,
			sort: { rules: [{ column: 'id', direction: 'asc' }] },
		});
		expect(read.items.map((o) => o.json)).toEqual(out.map((o) => o.json));

		// The resource mapper hands over luxon DateTimes (n8n converts by the field's dateTime type): the instant is kept.
		emu.clearLog();
		const schema = ['When', 'Day'].map((id) => ({
			id,
			displayName: id,
			type: 'dateTime',
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: true,
		}));
		const mapped = await run({
			operation: 'create',
			table: byId('Zoned'),
			columns: { ...mapper({ When: '2024-07-10T09:00:00-04:00', Day: '2024-07-10' }), schema },
		});
		expect(mapped.error).toBeUndefined();
		expect(
			emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!.body,
		).toEqual({
			records: [{ fields: { When: JUL_10_2024 + 13 * H, Day: JUL_10_2024 } }],
		});
		expect(mapped.items[0].json).toMatchObject({
			When: '2024-07-10T13:00:00.000Z',
			Day: '2024-07-10',
		});
	});

	it('sends 1,200 items as 3 POSTs (500 + 500 + 200) and pairs every output', async () => {
		resetTable('Bulk');
		const input = items(Array.from({ length: 1200 }, (_, i) => ({ N: i, Label: `row ${i}` })));
		const { items: out, error } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input },
		);
		expect(error).toBeUndefined();
		const posts = emu.log.filter((e) => e.method === 'POST');
		expect(posts.map((p) => (p.body as { records: unknown[] }).records.length)).toEqual([
			500, 500, 200,
		]);
		expect(requests().filter((r) => r.startsWith('GET'))).toEqual([
			`GET ${tablePath('Bulk')}/columns`,
		]);
		expect(out).toHaveLength(1200);
		expect(paired(out)).toEqual(input.map((_, i) => i));
		const stored = emu.records(demo.docId, 'Bulk');
		expect(out.map((o) => o.json.id)).toEqual(stored.map((r) => r.id));
		expect(out[1199].json).toEqual({ id: stored[1199].id, N: 1199, Label: 'row 1199' });
	});

	it('splits a set that crosses 1 MB and keeps every body under the limit', async () => {
		resetTable('Bulk');
		const big = 'é'.repeat(150_000); // 300 kB of JSON per item
		const { error } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input: items(Array.from({ length: 5 }, (_, i) => ({ N: i, Big: big }))) },
		);
		expect(error).toBeUndefined();
		const posts = emu.log.filter((e) => e.method === 'POST');
		expect(posts.map((p) => (p.body as { records: unknown[] }).records.length)).toEqual([3, 2]);
		for (const p of posts) expect(p.bodyBytes).toBeLessThan(1024 * 1024);
		expect(emu.records(demo.docId, 'Bulk')).toHaveLength(5);
	});

	it('rejects one item over 1 MB before any request, naming the item', async () => {
		resetTable('Bulk');
		const { error } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input: items([{ N: 1 }, { N: 2, Big: 'x'.repeat(1_100_000) }]) },
		);
		expect(error?.message).toMatch(
			/^Item 1 is \d+ bytes of JSON \(its largest field, "Big", is 1100002 bytes\), more than Grist accepts in one request/,
		);
		expect(requests()).toEqual([`GET ${tablePath('Bulk')}/columns`]);
	});

	it('rejects a value that does not fit its column, naming the field and item, before any write', async () => {
		resetTable('Bulk');
		const { error } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input: items([{ N: 1 }, { N: 'many' }]) },
		);
		expect(error?.message).toBe(
			'Field "N" of item 1: The value "many" does not fit a Int column: expected a whole number; no item was written',
		);
		expect(emu.log.filter((e) => e.method === 'POST')).toEqual([]);
	});

	it('names the item whose Table expression is empty, before any write', async () => {
		resetTable('Bulk');
		const { error } = await run(
			{
				operation: 'create',
				table: byId('={{ $json.t }}'),
				dataMode: 'json',
				fieldsJson: '={{ { N: 1 } }}',
			},
			{ input: items([{ t: 'Bulk' }, { t: '' }]) },
		);
		expect(error?.message).toBe('The Table field is empty (item 1); no item was written');
		expect(emu.log.filter((e) => e.method === 'POST')).toEqual([]);
	});

	it('names the item whose Fields (JSON) is not an object or not JSON, before any write', async () => {
		resetTable('Bulk');
		const list = await run(
			{ operation: 'create', table: byId('Bulk'), dataMode: 'json', fieldsJson: '={{ $json.f }}' },
			{ input: items([{ f: '{"N": 1}' }, { f: '[1, 2]' }]) },
		);
		expect(list.error?.message).toBe(
			'The Fields (JSON) of item 1 must be a JSON object of column IDs and values; no item was written',
		);
		const broken = await run(
			{ operation: 'create', table: byId('Bulk'), dataMode: 'json', fieldsJson: '={{ $json.f }}' },
			{ input: items([{ f: '{"N": 1}' }, { f: '{"N": 1' }]) },
		);
		expect(broken.error?.message).toBe(
			'The Fields (JSON) of item 1 is not valid JSON; no item was written',
		);
		expect(emu.log.filter((e) => e.method === 'POST')).toEqual([]);
	});

	it("refuses an unknown column before any request; Grist's refusal of a request fails only that chunk's items with Continue On Fail", async () => {
		resetTable('Bulk');
		const { error } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input: items([{ N: 1 }, { N: 2, Nope: 2 }]) },
		);
		expect(error?.message).toBe('Table "Bulk" has no column "Nope" (item 1); no item was written');
		expect(emu.log.filter((e) => e.method === 'POST')).toEqual([]);
		expect(emu.records(demo.docId, 'Bulk')).toEqual([]);

		resetTable('Bulk');
		emu.fault({
			method: 'POST',
			path: `${tablePath('Bulk')}/records`,
			times: 1,
			status: 400,
			body: { error: 'Invalid column "X"' },
		});
		const input = items(Array.from({ length: 1001 }, (_, i) => ({ N: i })));
		const { items: out, error: e2 } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input, continueOnFail: true },
		);
		expect(e2).toBeUndefined();
		expect(out).toHaveLength(1001);
		expect(out.slice(0, 500).every((o) => o.json.error === 'Invalid column "X"')).toBe(true);
		expect(out.slice(500).every((o) => typeof o.json.id === 'number')).toBe(true);
		expect(paired(out)).toEqual(input.map((_, i) => i));
		expect(emu.records(demo.docId, 'Bulk')).toHaveLength(501);
	});

	it('without Continue On Fail, a failing chunk says how many items had been written', async () => {
		resetTable('Bulk');
		const input = items(Array.from({ length: 1100 }, (_, i) => ({ N: i })));
		// The emulator logs a request before it looks for faults: inject one as the second POST arrives.
		let posts = 0;
		const origPush = emu.log.push.bind(emu.log);
		emu.log.push = (...entries) => {
			for (const e of entries)
				if (e.method === 'POST' && ++posts === 2)
					emu.fault({ method: 'POST', times: 1, status: 400, body: { error: 'Invalid row id 9' } });
			return origPush(...entries);
		};
		const { error } = await run(
			{ operation: 'create', table: byId('Bulk'), columns: autoMap() },
			{ input },
		);
		emu.log.push = origPush;
		expect(error?.message).toBe('Invalid row id 9');
		expect(error?.description).toContain('500 items had been written before this request failed');
		expect(error?.description).toContain('items 500–999');
		expect(emu.records(demo.docId, 'Bulk')).toHaveLength(500);
		expect(emu.log.filter((e) => e.method === 'POST')).toHaveLength(2);
	});

	it("groups by field set, so a missing field gets its column's default, not null", async () => {
		// one POST of [{Name}, {Visits}] would give Grist's null to Name and Visits where missing
		resetTable('People');
		const { items: out, error } = await run(
			{ operation: 'create', table: byId('People'), columns: autoMap() },
			{ input: items([{ Name: 'A' }, { Visits: 5 }, { Name: 'C' }]) },
		);
		expect(error).toBeUndefined();
		expect(emu.log.filter((e) => e.method === 'POST').map((e) => e.body)).toEqual([
			{ records: [{ fields: { Name: 'A' } }, { fields: { Name: 'C' } }] },
			{ records: [{ fields: { Visits: 5 } }] },
		]);
		const rows = emu.records(demo.docId, 'People');
		expect(rows.map((r) => [r.fields.Name, r.fields.Visits])).toEqual([
			['A', 0],
			['C', 0],
			['', 5],
		]);
		expect(out.map((o) => o.json)).toEqual([
			{ id: rows[0].id, Name: 'A' },
			{ id: rows[2].id, Visits: 5 },
			{ id: rows[1].id, Name: 'C' },
		]);
		expect(paired(out)).toEqual([0, 1, 2]);
	});

	it('groups by target table (expressions may differ per item)', async () => {
		resetTable('Bulk');
		resetTable('People');
		const { items: out } = await run(
			{
				operation: 'create',
				table: byId('={{ $json.t }}'),
				dataMode: 'json',
				fieldsJson: '={{ JSON.stringify($json.f) }}',
			},
			{
				input: items([
					{ t: 'Bulk', f: { N: 1 } },
					{ t: 'People', f: { Name: 'A' } },
					{ t: 'Bulk', f: { N: 2 } },
				]),
			},
		);
		expect(
			emu.log
				.filter((e) => e.method === 'POST')
				.map((e) => [e.apiPath, (e.body as { records: unknown[] }).records.length]),
		).toEqual([
			[`${tablePath('Bulk')}/records`, 2],
			[`${tablePath('People')}/records`, 1],
		]);
		expect(out.map((o) => o.json)).toEqual([
			{ id: expect.any(Number), N: 1 },
			{ id: expect.any(Number), Name: 'A' },
			{ id: expect.any(Number), N: 2 },
		]);
		expect(paired(out)).toEqual([0, 1, 2]);
	});
});

describe('record.update', () => {
	it('groups by field set: two field sets → two PATCHes', async () => {
		resetTable('People');
		const ids = emu.addRecords(demo.docId, 'People', [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }]);
		emu.clearLog();
		const { items: out, error } = await run(
			{ operation: 'update', table: byId('People'), rowId: '={{ $json.id }}', columns: autoMap() },
			{
				input: items([
					{ id: ids[0], Name: 'A' },
					{ id: ids[1], Visits: '5' },
					{ id: ids[2], Name: 'C' },
				]),
			},
		);
		expect(error).toBeUndefined();
		expect(emu.log.filter((e) => e.method === 'PATCH').map((e) => e.body)).toEqual([
			{
				records: [
					{ id: ids[0], fields: { Name: 'A' } },
					{ id: ids[2], fields: { Name: 'C' } },
				],
			},
			{ records: [{ id: ids[1], fields: { Visits: 5 } }] },
		]);
		expect(out.map((o) => o.json)).toEqual([
			{ id: ids[0], Name: 'A' },
			{ id: ids[1], Visits: 5 },
			{ id: ids[2], Name: 'C' },
		]);
		expect(emu.records(demo.docId, 'People').map((r) => r.fields.Name)).toEqual(['A', 'b', 'C']);
	});

	it('rejects non-integer row ids before any request', async () => {
		const { error } = await run({
			operation: 'update',
			table: byId('People'),
			rowId: '1.5',
			columns: mapper({ Name: 'x' }),
		});
		expect(error?.message).toBe('The Row ID field of item 0 has "1.5", which is not a row ID');
		expect(requests()).toEqual([]);
	});

	it("gives Grist's message for a row that does not exist", async () => {
		const { error } = await run({
			operation: 'update',
			table: byId('People'),
			rowId: '9999',
			columns: mapper({ Name: 'x' }),
		});
		expect(error?.message).toBe('Invalid row id 9999');
	});
});

describe('record.upsert', () => {
	it('updates matches and adds the rest, in one PUT, with ids in the output', async () => {
		resetTable('People');
		const [aliceId] = emu.addRecords(demo.docId, 'People', [
			{ Email: 'a@x', Name: 'Alice', Visits: 1 },
		]);
		emu.clearLog();
		const { items: out, error } = await run(
			{ operation: 'upsert', table: byId('People'), columns: autoMap(['Email']) },
			{
				input: items([
					{ Email: 'a@x', Visits: 2 },
					{ Email: 'b@x', Name: 'Bob', Visits: 1 },
				]),
			},
		);
		expect(error).toBeUndefined();
		const puts = emu.log.filter((e) => e.method === 'PUT');
		expect(puts.map((p) => [p.query, p.body])).toEqual([
			[
				{},
				{
					records: [
						{ require: { Email: 'a@x' }, fields: { Visits: 2 } },
						{ require: { Email: 'b@x' }, fields: { Name: 'Bob', Visits: 1 } },
					],
				},
			],
		]);
		const bobId = emu.records(demo.docId, 'People').find((r) => r.fields.Email === 'b@x')!.id;
		expect(out.map((o) => o.json)).toEqual([
			{ id: aliceId, ids: [aliceId], Email: 'a@x', Visits: 2 },
			{ id: bobId, ids: [bobId], Email: 'b@x', Name: 'Bob', Visits: 1 },
		]);
	});

	it('sends options as Grist query flags and splits repeated match values into later requests', async () => {
		resetTable('People');
		const { error } = await run(
			{
				operation: 'upsert',
				table: byId('People'),
				dataMode: 'json',
				fieldsJson: '={{ JSON.stringify($json) }}',
				matchColumns: 'Email',
				options: { onMany: 'all', noUpdate: true, noparse: true },
			},
			{
				input: items([
					{ Email: 'a', Visits: 1 },
					{ Email: 'a', Visits: 2 },
					{ Email: 'b', Visits: 3 },
				]),
			},
		);
		expect(error).toBeUndefined();
		const puts = emu.log.filter((e) => e.method === 'PUT');
		expect(
			puts.map((p) => [
				p.query,
				(p.body as { records: IDataObject[] }).records.map((r) => (r.require as IDataObject).Email),
			]),
		).toEqual([
			[{ noparse: '1', onmany: 'all', noupdate: '1' }, ['a', 'b']],
			[{ noparse: '1', onmany: 'all', noupdate: '1' }, ['a']],
		]);
		expect(emu.records(demo.docId, 'People').map((r) => [r.fields.Email, r.fields.Visits])).toEqual(
			[
				['a', 1],
				['b', 3],
			],
		);
	});

	it('when several rows match: first (default), none or all; Never Add skips items that match nothing', async () => {
		resetTable('People');
		const [d1, d2] = emu.addRecords(demo.docId, 'People', [
			{ Email: 'd', Visits: 1 },
			{ Email: 'd', Visits: 2 },
		]);
		emu.clearLog();
		const upsert = async (options: IDataObject, visits: number) =>
			await run({
				operation: 'upsert',
				table: byId('People'),
				columns: mapper({ Email: 'd', Visits: visits }, ['Email']),
				options,
			});
		const visits = () =>
			emu.records(demo.docId, 'People').map((r) => [r.id, r.fields.Email, r.fields.Visits]);

		const none = await upsert({ onMany: 'none' }, 5);
		expect(none.error).toBeUndefined();
		expect(visits()).toEqual([
			[d1, 'd', 1],
			[d2, 'd', 2],
		]);

		const first = await upsert({}, 6);
		expect(first.items[0].json).toEqual({ id: d1, ids: [d1], Email: 'd', Visits: 6 });
		expect(visits()).toEqual([
			[d1, 'd', 6],
			[d2, 'd', 2],
		]);

		const all = await upsert({ onMany: 'all' }, 7);
		expect(all.items[0].json).toEqual({ id: d1, ids: [d1, d2], Email: 'd', Visits: 7 });
		expect(visits()).toEqual([
			[d1, 'd', 7],
			[d2, 'd', 7],
		]);
		expect(emu.log.filter((e) => e.method === 'PUT').map((e) => e.query)).toEqual([
			{ onmany: 'none' },
			{},
			{ onmany: 'all' },
		]);

		emu.clearLog();
		const noAdd = await run(
			{
				operation: 'upsert',
				table: byId('People'),
				columns: autoMap(['Email']),
				options: { noAdd: true },
			},
			{
				input: items([
					{ Email: 'new@x', Visits: 1 },
					{ Email: 'd', Visits: 8 },
				]),
			},
		);
		expect(noAdd.error).toBeUndefined();
		expect(emu.log.filter((e) => e.method === 'PUT').map((e) => e.query)).toEqual([{ noadd: '1' }]);
		expect(visits()).toEqual([
			[d1, 'd', 8],
			[d2, 'd', 7],
		]);
		expect(noAdd.items.map((o) => [o.json.id, o.json.ids])).toEqual([
			[null, []],
			[d1, [d1]],
		]);
		expect(paired(noAdd.items)).toEqual([0, 1]);
	});

	it('refuses an empty match unless allowed, then matches every row', async () => {
		resetTable('People');
		emu.addRecords(demo.docId, 'People', [{ Name: 'x' }, { Name: 'y' }]);
		emu.clearLog();
		const refused = await run({
			operation: 'upsert',
			table: byId('People'),
			columns: mapper({ Visits: 9 }),
		});
		expect(refused.error?.message).toBe('Item 0 has no columns to match on');
		expect(emu.log.filter((e) => e.method === 'PUT')).toEqual([]);
		const allowed = await run({
			operation: 'upsert',
			table: byId('People'),
			columns: mapper({ Visits: 9 }),
			options: { allowEmptyRequire: true, onMany: 'all' },
		});
		expect(allowed.error).toBeUndefined();
		expect(emu.log.find((e) => e.method === 'PUT')!.query).toEqual({
			onmany: 'all',
			allow_empty_require: '1',
		});
		expect(emu.records(demo.docId, 'People').map((r) => r.fields.Visits)).toEqual([9, 9]);
	});

	it('names a match column without a value', async () => {
		const { error } = await run(
			{ operation: 'upsert', table: byId('People'), columns: autoMap(['Email']) },
			{ input: items([{ Name: 'n' }]) },
		);
		expect(error?.message).toBe('Item 0 has no value for the match column "Email"');
	});
});

describe('record.delete', () => {
	it('deletes the row ids of all items in one POST …/records/delete', async () => {
		resetTable('People');
		const ids = emu.addRecords(demo.docId, 'People', [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }]);
		emu.clearLog();
		const { items: out, error } = await run(
			{ operation: 'delete', table: byId('People'), rowIds: '={{ $json.ids }}' },
			{ input: items([{ ids: `${ids[0]}, ${ids[1]}` }, { ids: [ids[2]] }]) },
		);
		expect(error).toBeUndefined();
		expect(emu.log.map((e) => [e.method, e.apiPath, e.body])).toEqual([
			['POST', `${tablePath('People')}/records/delete`, ids],
		]);
		expect(out.map((o) => o.json)).toEqual([
			{ deleted: true, ids: [ids[0], ids[1]] },
			{ deleted: true, ids: [ids[2]] },
		]);
		expect(emu.records(demo.docId, 'People')).toEqual([]);
	});

	it('falls back to …/data/delete when an older server lacks the route, but not for a missing table', async () => {
		resetTable('People');
		const ids = emu.addRecords(demo.docId, 'People', [{ Name: 'a' }]);
		emu.clearLog();
		emu.fault({
			method: 'POST',
			path: `${tablePath('People')}/records/delete`,
			status: 404,
			body: { error: `not found: ${tablePath('People')}/records/delete` },
		});
		const { error } = await run({
			operation: 'delete',
			table: byId('People'),
			rowIds: String(ids[0]),
		});
		expect(error).toBeUndefined();
		expect(requests()).toEqual([
			`POST ${tablePath('People')}/records/delete`,
			`POST ${tablePath('People')}/data/delete`,
		]);
		expect(emu.records(demo.docId, 'People')).toEqual([]);
		emu.clearLog();
		const missing = await run({ operation: 'delete', table: byId('Nope'), rowIds: '1' });
		expect(missing.error?.message).toBe('Table not found "Nope"');
		expect(requests()).toEqual([`POST ${tablePath('Nope')}/records/delete`]);
	});

	it('rejects non-integer row ids before any request', async () => {
		const { error } = await run({ operation: 'delete', table: byId('People'), rowIds: '1, two' });
		expect(error?.message).toBe('The Row IDs field of item 0 has "two", which is not a row ID');
		expect(requests()).toEqual([]);
	});
});

describe('methods', () => {
	it('every option list of the record, columnar and attachment fields can be filled: fixed options or a load method', () => {
		const empty: string[] = [];
		const walk = (props: INodeProperties[], path: string) => {
			for (const p of props) {
				const here = `${path}/${p.name}`;
				const hasList = Array.isArray(p.options) && p.options.length > 0;
				if (
					(p.type === 'options' || p.type === 'multiOptions') &&
					!p.typeOptions?.loadOptionsMethod &&
					!hasList
				)
					empty.push(here);
				for (const o of (p.options ?? []) as Array<
					INodeProperties | { name: string; values?: INodeProperties[] }
				>) {
					if ('values' in o && Array.isArray(o.values)) walk(o.values, `${here}/${o.name}`);
					else if ('type' in o) walk([o], here);
				}
			}
		};
		const mine = new Grist().description.properties.filter((p) =>
			['record', 'columnar', 'attachment', 'column'].some((r) =>
				p.displayOptions?.show?.resource?.includes(r),
			),
		);
		expect(mine.length).toBeGreaterThan(20);
		walk(mine, '');
		expect(empty).toEqual([]);
	});

	it("offers the table's columns for sort rules as for filter conditions", () => {
		const sort = new Grist().description.properties.find(
			(p) => p.name === 'sort' && p.displayOptions?.show?.resource?.includes('record'),
		) as INodeProperties & { options: Array<{ values: INodeProperties[] }> };
		const column = sort.options[0].values.find((v) => v.name === 'column')!;
		expect(column.typeOptions).toEqual({
			loadOptionsMethod: 'getColumns',
			loadOptionsDependsOn: ['document.value', 'table.value'],
		});
	});

	it('a Choice column without choices maps as text, so n8n does not refuse every value', async () => {
		emu.addTable(demo.docId, 'Stages', [
			{ id: 'Stage', type: 'Choice' },
			{ id: 'Phase', type: 'Choice', widgetOptions: { choices: [] } },
			{ id: 'Level', type: 'Choice', widgetOptions: { choices: ['low', 'high'] } },
		]);
		const params = {
			resource: 'record',
			operation: 'create',
			document: byId(demo.docId),
			table: byId('Stages'),
		};
		const credentials = { apiKey: demo.apiKey, url: serverUrl };
		const mapping = (await loadOptions({
			node: new Grist(),
			parameters: params,
			credentials,
			method: 'getMappingColumns',
			kind: 'resourceMapping',
		})) as {
			fields: Array<{ id: string; type: string; options?: unknown }>;
		};
		expect(mapping.fields.map((f) => [f.id, f.type, f.options])).toEqual([
			['Stage', 'string', undefined],
			['Phase', 'string', undefined],
			[
				'Level',
				'options',
				[
					{ name: 'low', value: 'low' },
					{ name: 'high', value: 'high' },
				],
			],
		]);
		// With the schema n8n stores from these fields, values go through (Level still checked by n8n).
		emu.clearLog();
		const schema = mapping.fields.map((f) => ({
			...f,
			displayName: f.id,
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: true,
		}));
		const ok = await run({
			operation: 'create',
			table: byId('Stages'),
			columns: { ...mapper({ Stage: 'draft', Phase: 'one', Level: 'low' }), schema },
		});
		expect(ok.error).toBeUndefined();
		expect(
			emu.log.find((e) => e.method === 'POST' && e.apiPath.endsWith('/records'))!.body,
		).toEqual({
			records: [{ fields: { Stage: 'draft', Phase: 'one', Level: 'low' } }],
		});
		// n8n checks fixed values against the options before the run, as the editor does.
		await expect(
			run({
				operation: 'create',
				table: byId('Stages'),
				columns: { ...mapper({ Level: 'medium' }), schema },
			}),
		).rejects.toThrow(
			"'Level' expects one of the following values: [low, high] but we got 'medium'",
		);
	});

	it('lists columns for the pickers and typed fields for the resource mapper', async () => {
		const params = {
			resource: 'record',
			operation: 'create',
			document: byId(demo.docId),
			table: byId('AllTypes'),
		};
		const credentials = { apiKey: demo.apiKey, url: serverUrl };
		const options = (await loadOptions({
			node: new Grist(),
			parameters: params,
			credentials,
			method: 'getColumns',
			kind: 'loadOptions',
		})) as Array<{ value: string }>;
		expect(options.map((o) => o.value)).toEqual([
			'id',
			'Text',
			'Num',
			'Int',
			'Bool',
			'Date',
			'When',
			'Choice',
			'Choices',
			'Ref',
			'Refs',
			'Files',
			'Ratio',
		]);
		const mapping = (await loadOptions({
			node: new Grist(),
			parameters: params,
			credentials,
			method: 'getMappingColumns',
			kind: 'resourceMapping',
		})) as {
			fields: Array<{
				id: string;
				displayName: string;
				type: string;
				readOnly: boolean;
				options?: unknown;
			}>;
		};
		// lists are text fields (n8n's JSON editor for 'array' fields errs on the empty value of a new
		// node); a formula column says why its input is greyed out
		expect(mapping.fields.map((f) => [f.id, f.type, f.readOnly])).toEqual([
			['Text', 'string', false],
			['Num', 'number', false],
			['Int', 'number', false],
			['Bool', 'boolean', false],
			['Date', 'dateTime', false],
			['When', 'dateTime', false],
			['Choice', 'options', false],
			['Choices', 'string', false],
			['Ref', 'string', false],
			['Refs', 'string', false],
			['Files', 'string', false],
			['Ratio', 'number', true],
		]);
		// each field names its column and what a value of it is (the field id stays the column id)
		expect(mapping.fields.map((f) => f.displayName)).toEqual([
			'Text (text)',
			'Num (number)',
			'Int (integer)',
			'Bool (toggle)',
			'Date (date)',
			'When (date & time)',
			'Choice (choice)',
			'Choices (a, b or JSON array)',
			'Ref (row ID or Name)',
			'Refs (row IDs or Name)',
			'Files (attachment IDs)',
			'Ratio (formula, read-only)',
		]);
		expect(
			mapping.fields.filter((f) => f.displayName.includes('read-only')).map((f) => f.id),
		).toEqual(['Ratio']);
		expect(mapping.fields[6].options).toEqual([
			{ name: 'a', value: 'a' },
			{ name: 'b', value: 'b' },
		]);
	});
});
