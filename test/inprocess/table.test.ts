/**
 * Table resource: Get Many (with columns, summary tables marked), Create (every column
 * type), Update (rename), Delete (/apply RemoveTable) against the emulator; requests from its log.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => {
	({ emu, demo } = fx);
});
const run = resourceRunner(fx, 'table');
const doc = () => rl('id', demo.docId);
const calls = () =>
	emu.log.map((e) => `${e.method} ${e.apiPath.replace(`/api/docs/${demo.docId}`, '')}`);

const EVERY_TYPE = [
	{ id: 'Name', label: 'Full name', type: 'Text' },
	{ id: 'Amount', type: 'Numeric' },
	{ id: 'Count', type: 'Int' },
	{ id: 'Done', type: 'Bool' },
	{ id: 'Due', type: 'Date' },
	{ id: 'Seen', type: 'DateTime', timezone: 'Europe/Paris' },
	{ id: 'Status', type: 'Choice', choices: 'Open, Done' },
	{ id: 'Tags', type: 'ChoiceList', choices: '["a,b", "c"]' },
	{ id: 'Customer', type: 'Ref', refTable: 'Customers' },
	{ id: 'Customers2', type: 'RefList', refTable: 'Customers' },
	{ id: 'Files', type: 'Attachments' },
	{ id: 'Double', type: 'Numeric', formula: '$Amount * 2' },
	{ id: 'Created', type: 'DateTime', timezone: 'UTC', formula: 'NOW()', formulaKind: 'default' },
];

describe('table.create', () => {
	it('creates a table with every column type in one request (after one read of the tables for its Reference columns); the labelled column is untied from its label', async () => {
		const { items, error } = await run({
			operation: 'create',
			document: doc(),
			tableId: 'Projects',
			columns: { column: EVERY_TYPE },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{ id: 'Projects', columns: EVERY_TYPE.map((c) => c.id) },
		]);
		expect(calls()).toEqual(['GET /tables', 'POST /tables', 'PATCH /tables/Projects/columns']);
		expect(emu.log[2].body).toEqual({
			columns: [{ id: 'Name', fields: { untieColIdFromLabel: true } }],
		});
		const body = emu.log[1].body as {
			tables: Array<{
				id: string;
				columns: Array<{ id: string; fields: Record<string, unknown> }>;
			}>;
		};
		const fields = Object.fromEntries(body.tables[0].columns.map((c) => [c.id, c.fields]));
		expect(fields.Name).toEqual({ type: 'Text', label: 'Full name', isFormula: false });
		expect(fields.Seen.type).toBe('DateTime:Europe/Paris');
		expect(fields.Status.widgetOptions).toBe('{"choices":["Open","Done"]}');
		expect(fields.Tags.widgetOptions).toBe('{"choices":["a,b","c"]}');
		expect(fields.Customer.type).toBe('Ref:Customers');
		expect(fields.Customers2.type).toBe('RefList:Customers');
		expect(fields.Double).toMatchObject({ formula: '$Amount * 2', isFormula: true });
		expect(fields.Created).toMatchObject({ formula: 'NOW()', isFormula: false, recalcWhen: 0 });

		emu.clearLog();
		const listed = await run({ operation: 'getAll', document: doc(), includeColumns: true });
		const projects = listed.items.find((i) => i.json.id === 'Projects')!.json;
		expect(projects.isSummary).toBe(false);
		expect(
			(projects.columns as Array<{ id: string; type: string }>).map((c) => [c.id, c.type]),
		).toEqual(body.tables[0].columns.map((c) => [c.id, c.fields.type]));
		expect(calls()).toEqual(['GET /tables']);
		expect(emu.log[0].query).toEqual({ expand: 'column' });
	});

	it('refuses bad input before any request, naming the field and the item', async () => {
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ tableId: '1abc', columns: {} }, /table ID "1abc" is not valid.*Table ID, item 0/],
			[{ tableId: 'T', columns: {} }, /needs at least one column \(Columns, item 0\)/],
			[
				{ tableId: 'T', columns: { column: [{ id: 'A' }, { id: 'a' }] } },
				/"a" is used twice.*column 2/,
			],
			[
				{ tableId: 'T', columns: { column: [{ id: 'A', type: 'Money' }] } },
				/"Money" is not a Grist column type/,
			],
			[
				{ tableId: 'T', columns: { column: [{ id: 'A', type: 'Choice', choices: '{"a":1}' }] } },
				/Choices must be a list/,
			],
			[
				{ tableId: 'T', columns: { column: [{ id: 'A', type: 'Ref' }] } },
				/Ref column needs the table/,
			],
			[
				{
					tableId: 'T',
					columns: { column: [{ id: 'A', type: 'DateTime', timezone: 'Mars/Base' }] },
				},
				/"Mars\/Base" is not a time zone/,
			],
			[{ tableId: 'T', columns: { column: [{ id: 'id' }] } }, /"id" is reserved/],
		];
		for (const [params, message] of cases) {
			emu.clearLog();
			const { error } = await run({ operation: 'create', document: doc(), ...params });
			expect(error?.message).toMatch(message);
			expect(emu.log).toEqual([]);
		}
	});

	it('refuses a Reference to a table the document lacks before any write; the new table itself and tables of earlier items count', async () => {
		emu.clearLog();
		const ghost = await run({
			operation: 'create',
			document: doc(),
			tableId: 'Haunted',
			columns: { column: [{ id: 'Who', type: 'Ref', refTable: 'Ghost' }] },
		});
		expect(ghost.error?.message).toMatch(
			/The table "Ghost" does not exist in the document, so a Reference column to it would hold only broken references \(Columns \(column 1\): Referenced Table, item 0\)/,
		);
		expect(calls()).toEqual(['GET /tables']);
		emu.clearLog();
		const chain = await run(
			{
				operation: 'create',
				document: doc(),
				tableId: '={{ $json.t }}',
				columns: {
					column: [
						{ id: 'Name', type: 'Text' },
						{ id: 'Parent', type: 'Ref', refTable: '={{ $json.t }}' },
						{ id: 'Links', type: 'RefList', refTable: '={{ $json.ref }}' },
					],
				},
			},
			{
				input: [
					{ json: { t: 'Folders', ref: 'Folders' } },
					{ json: { t: 'Files', ref: 'Folders' } },
				],
			},
		);
		expect(chain.error).toBeUndefined();
		expect(calls()).toEqual(['GET /tables', 'POST /tables', 'POST /tables']);
		const listed = await run({ operation: 'getAll', document: doc() });
		expect(listed.items.map((i) => i.json.id)).not.toContain('Haunted');
	});

	it('a labelled column of a new table keeps its ID when relabelled later in Grist', async () => {
		const { error } = await run({
			operation: 'create',
			document: doc(),
			tableId: 'Labelled',
			columns: { column: [{ id: 'Due', label: 'Due date', type: 'Date' }] },
		});
		expect(error).toBeUndefined();
		await fetch(`${fx.site}/api/docs/${demo.docId}/tables/Labelled/columns`, {
			method: 'PATCH',
			headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ columns: [{ id: 'Due', fields: { label: 'Deadline' } }] }),
		});
		const cols = await resourceRunner(
			fx,
			'column',
		)({
			operation: 'getAll',
			document: doc(),
			table: rl('id', 'Labelled'),
		});
		expect(cols.items.map((i) => [i.json.id, i.json.label])).toEqual([['Due', 'Deadline']]);
	});

	it('says which items were done when a later item fails', async () => {
		const { error } = await run(
			{
				operation: 'create',
				document: doc(),
				tableId: '={{ $json.t }}',
				columns: { column: [{ id: 'A' }] },
			},
			{ input: [{ json: { t: 'First' } }, { json: { t: 'Second' } }, { json: { t: '9' } }] },
		);
		expect(error?.message).toMatch(/item 2/);
		expect((error as { description?: string }).description).toMatch(
			/Items 0, 1 were done before it/,
		);
		expect(calls()).toEqual(['POST /tables', 'POST /tables']);
	});
});

describe('table.getAll', () => {
	it('lists tables without columns by default, summary tables marked', async () => {
		const { items, error } = await run({ operation: 'getAll', document: doc() });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual(expect.arrayContaining(['Customers', 'Orders']));
		expect(items.every((i) => i.json.isSummary === false && !('columns' in i.json))).toBe(true);
		expect(emu.log[0].query).toEqual({});
	});
});

describe('table.update and table.delete', () => {
	it('renames a table, then deletes it through /apply RemoveTable', async () => {
		await run({
			operation: 'create',
			document: doc(),
			tableId: 'Temp',
			columns: { column: [{ id: 'A' }] },
		});
		emu.clearLog();
		const renamed = await run({
			operation: 'update',
			document: doc(),
			table: rl('id', 'Temp'),
			updateFields: { tableId: 'Temp2' },
		});
		expect(renamed.error).toBeUndefined();
		expect(renamed.items[0].json).toEqual({ id: 'Temp2', previousId: 'Temp' });
		expect(emu.log[0].body).toEqual({ tables: [{ id: 'Temp', fields: { tableId: 'Temp2' } }] });
		emu.clearLog();
		const deleted = await run({ operation: 'delete', document: doc(), table: rl('id', 'Temp2') });
		expect(deleted.error).toBeUndefined();
		expect(deleted.items[0].json).toEqual({ id: 'Temp2', deleted: true });
		expect(calls()).toEqual(['GET /tables', 'POST /apply']);
		expect(emu.log[1].body).toEqual([['RemoveTable', 'Temp2']]);
		const listed = await run({ operation: 'getAll', document: doc() });
		expect(listed.items.map((i) => i.json.id)).not.toContain('Temp2');
	});

	it('Other Fields (JSON) go into the PATCH; a non-object is refused before it', async () => {
		const ok = await run({
			operation: 'update',
			document: doc(),
			table: rl('id', 'Customers'),
			updateFields: { fieldsJson: '{"onDemand": false}' },
		});
		expect(ok.error).toBeUndefined();
		expect(emu.log[0].body).toEqual({ tables: [{ id: 'Customers', fields: { onDemand: false } }] });
		emu.clearLog();
		const bad = await run({
			operation: 'update',
			document: doc(),
			table: rl('id', 'Customers'),
			updateFields: { fieldsJson: '[1]' },
		});
		expect(bad.error?.message).toMatch(/Other Fields \(JSON\) of item 0 must be a JSON object/);
		expect(emu.log).toEqual([]);
	});

	it("an unknown table: a clear error and nothing applied; update gives Grist's 404", async () => {
		const del = await run({ operation: 'delete', document: doc(), table: rl('id', 'Nope') });
		expect(del.error?.message).toBe('Table not found "Nope" (item 0)');
		expect(calls()).toEqual(['GET /tables']);
		const upd = await run(
			{
				operation: 'update',
				document: doc(),
				table: rl('id', 'Nope'),
				updateFields: { tableId: 'X' },
			},
			{ continueOnFail: true },
		);
		expect(upd.items[0].json.error).toMatch(/not found/i);
	});
});
