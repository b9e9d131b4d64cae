/**
 * Emulator: behaviours measured on a real grist-core v1.7.17: a new
 * document's Table1, the data engine's value conversion, deleting missing ids, typed columns of
 * POST /tables, object shapes, payload errors, and /apply with trigger formulas.
 */
import { startEmulator, type GristEmulator } from './index';
import {
	client,
	type ColumnsBody,
	type ErrorBody,
	type RecordsBody,
	type TablesBody,
} from './testutil';
import { emulatorOnly } from '../harness/target';

const teamSite = emulatorOnly(
	'reads the demo team site (not individual) and its workspace listing',
);
const clock = emulatorOnly('trigger formulas are checked at times set by the emulator’s clock');

let emu: GristEmulator;
let api: ReturnType<typeof client>;
let orgId: number;
let wsId: number;
let docId: string;
const OWNER = 'semantics-test-key-0123456789';

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	orgId = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' }).id;
	wsId = emu.addWorkspace(orgId, 'W').id;
	docId = emu.addDoc(wsId, { name: 'D' }).id;
	api = client(emu, OWNER);
});
afterAll(() => emu.close());

let n = 0;
/** A fresh table with one column per type. */
function typedTable(): string {
	const t = `Typed${++n}`;
	emu.addTable(docId, t, [
		{ id: 'Num', type: 'Numeric' },
		{ id: 'Int', type: 'Int' },
		{ id: 'Flag', type: 'Bool' },
		{ id: 'Day', type: 'Date' },
		{ id: 'When', type: 'DateTime:UTC' },
		{ id: 'Txt', type: 'Text' },
		{ id: 'Tags', type: 'ChoiceList' },
	]);
	return t;
}
const rec = (t: string, qs = '') => `/api/docs/${docId}/tables/${t}/records${qs}`;
const apply = (actions: unknown[], qs = '') =>
	api.post<{ retValues: unknown[] } & ErrorBody>(`/api/docs/${docId}/apply${qs}`, actions);

describe('a new document', () => {
	it('comes with Table1 and its empty columns A, B, C (type Any, isFormula true)', async () => {
		const id = (await api.post<string>(`/api/workspaces/${wsId}/docs`, { name: 'Fresh' })).json;
		const tables = await api.get<TablesBody>(`/api/docs/${id}/tables`);
		expect(tables.json.tables.map((t) => t.id)).toEqual(['Table1']);
		const cols = await api.get<ColumnsBody>(`/api/docs/${id}/tables/Table1/columns`);
		expect(cols.json.columns.map((c) => c.id)).toEqual(['A', 'B', 'C']);
		for (const c of cols.json.columns) {
			expect(Object.keys(c.fields).sort()).toEqual(
				[
					'colRef',
					'parentId',
					'parentPos',
					'type',
					'widgetOptions',
					'isFormula',
					'formula',
					'label',
					'description',
					'untieColIdFromLabel',
					'summarySourceCol',
					'displayCol',
					'visibleCol',
					'rules',
					'recalcWhen',
					'recalcDeps',
					'reverseCol',
				].sort(),
			);
			expect(c.fields).toMatchObject({
				type: 'Any',
				isFormula: true,
				formula: '',
				label: c.id,
				widgetOptions: '',
				recalcWhen: 0,
				recalcDeps: null,
			});
		}
		expect((await api.get<RecordsBody>(`/api/docs/${id}/tables/Table1/records`)).json).toEqual({
			records: [],
		});
		// the minimal POST /tables gets the next free TableN, an id-less column the next free letter
		const more = await api.post(`/api/docs/${id}/tables`, { tables: [{ columns: [{}] }] });
		expect(more.json).toEqual({ tables: [{ id: 'Table2' }] });
		expect(
			(await api.get<ColumnsBody>(`/api/docs/${id}/tables/Table2/columns`)).json.columns.map(
				(c) => c.id,
			),
		).toEqual(['A']);
		const added = await api.post(`/api/docs/${id}/tables/Table1/columns`, {
			columns: [{}, { id: '' }],
		});
		expect(added.json).toEqual({ columns: [{ id: 'D' }, { id: 'E' }] });
	});
});

describe('writes convert values to the column type', () => {
	it('strings are parsed without noparse: "41" is the number 41 and sorts as one', async () => {
		const t = typedTable();
		await api.post(rec(t), { records: ['41', '5', '100', ''].map((Num) => ({ fields: { Num } })) });
		expect(emu.records(docId, t).map((r) => r.fields.Num)).toEqual([41, 5, 100, null]);
		const sorted = await api.get<RecordsBody>(rec(t, '?sort=Num'));
		expect(sorted.json.records.map((r) => r.fields.Num)).toEqual([5, 41, 100, null]);
		await api.patch(rec(t), { records: [{ id: 1, fields: { Num: '1,234.5' } }] });
		expect(emu.records(docId, t)[0].fields.Num).toBe(1234.5);
		await api.post(`/api/docs/${docId}/tables/${t}/data`, { Num: ['7'], Int: ['8'] });
		await api.patch(`/api/docs/${docId}/tables/${t}/data`, { id: [5], Int: ['9'] });
		expect(emu.records(docId, t)[4].fields).toMatchObject({ Num: 7, Int: 9 });
	});

	it('with noparse the data engine still converts what Python can ("7" → 7, ISO dates) and keeps other text', async () => {
		const t = typedTable();
		await api.post(rec(t, '?noparse=1'), {
			records: [
				{
					fields: {
						Num: '7',
						Int: '2.9',
						Day: '2024-01-10',
						When: '2024-01-10T12:00:00Z',
						Tags: '["a","b"]',
					},
				},
				{ fields: { Num: '$7', Int: 'x', Day: '10/01/2024', Tags: 'a,b' } },
			],
		});
		const [a, b] = emu.records(docId, t);
		expect(a.fields).toMatchObject({
			Num: 7,
			Int: 2,
			Day: 1704844800,
			When: 1704888000,
			Tags: ['L', 'a', 'b'],
		});
		expect(b.fields).toMatchObject({ Num: '$7', Int: 'x', Day: '10/01/2024', Tags: 'a,b' });
		// the parser (without noparse) handles what the engine does not
		await api.post(rec(t), { records: [{ fields: { Num: '$7', Tags: 'a,b' } }] });
		expect(emu.records(docId, t)[2].fields).toMatchObject({ Num: 7, Tags: ['L', 'a', 'b'] });
	});

	it('Bool accepts true/false/yes/no/1/0 in any case; numbers and booleans become text in Text', async () => {
		const t = typedTable();
		const flags = ['true', 'FALSE', 'Yes', 'no', '1', '0', '', 'y', 'on'];
		await api.post(rec(t), { records: flags.map((Flag) => ({ fields: { Flag } })) });
		expect(emu.records(docId, t).map((r) => r.fields.Flag)).toEqual([
			true,
			false,
			true,
			false,
			true,
			false,
			false,
			'y',
			'on',
		]);
		await api.post(rec(t), {
			records: [
				{ fields: { Txt: 41 } },
				{ fields: { Txt: 2.5 } },
				{ fields: { Txt: true } },
				{ fields: { Num: true, Int: 7.9 } },
			],
		});
		const rows = emu.records(docId, t).slice(flags.length);
		// the last record names no Txt while the others do: POST /records sends it as null (one
		// BulkAddRecord of the union of fields), and a Text column keeps null (not its default '')
		expect(rows.map((r) => r.fields.Txt)).toEqual(['41', '2.5', 'True', null]);
		expect(rows[3].fields).toMatchObject({ Num: 1, Int: 7 });
	});

	it('/apply parses unless noparse, like the REST endpoints (grist-core DocApiMisc "parses strings in user actions")', async () => {
		const t = typedTable();
		await apply([['AddRecord', t, null, { Num: '$1' }]], '?noparse=1');
		await apply([['AddRecord', t, null, { Num: '$1' }]]);
		expect(emu.records(docId, t).map((r) => r.fields.Num)).toEqual(['$1', 1]);
	});
});

describe('deleting ids that do not exist', () => {
	it('/records/delete and /data/delete answer 200 null and delete the ids that exist', async () => {
		const t = typedTable();
		emu.addRecords(docId, t, [{ Num: 1 }, { Num: 2 }, { Num: 3 }]);
		const r = await api.post(rec(t, '/delete'), [2, 999]);
		expect([r.status, r.json]).toEqual([200, null]);
		const d = await api.post(`/api/docs/${docId}/tables/${t}/data/delete`, [998]);
		expect([d.status, d.json]).toEqual([200, null]);
		expect(emu.records(docId, t).map((x) => x.id)).toEqual([1, 3]);
		expect((await apply([['BulkRemoveRecord', t, [1, 997]]])).status).toBe(200);
		expect(emu.records(docId, t).map((x) => x.id)).toEqual([3]);
	});
});

describe('POST /tables', () => {
	it('columns are data columns unless they have a formula; POST /columns adds empty formula columns', async () => {
		await api.post(`/api/docs/${docId}/tables`, {
			tables: [
				{
					id: 'Made',
					columns: [
						{ id: 'N', fields: { type: 'Numeric' } },
						{ id: 'Plain', fields: {} },
						{ id: 'F', fields: { formula: '$N * 2' } },
					],
				},
			],
		});
		const cols = async () =>
			Object.fromEntries(
				(await api.get<ColumnsBody>(`/api/docs/${docId}/tables/Made/columns`)).json.columns.map(
					(c) => [c.id, c.fields],
				),
			);
		const made = await cols();
		expect(made.N).toMatchObject({ type: 'Numeric', isFormula: false, formula: '' });
		expect(made.Plain).toMatchObject({ type: 'Text', isFormula: false });
		expect(made.F).toMatchObject({ type: 'Any', isFormula: true, formula: '$N * 2' });
		// AddColumn's default (grist-core useractions._make_clean_col_info): an empty formula column
		await api.post(`/api/docs/${docId}/tables/Made/columns`, {
			columns: [{ id: 'Later', fields: { type: 'Numeric' } }],
		});
		expect((await cols()).Later).toMatchObject({ type: 'Numeric', isFormula: true, formula: '' });
		await apply([['AddTable', 'ViaApply', [{ id: 'X', type: 'Int' }]]]);
		const x = (await api.get<ColumnsBody>(`/api/docs/${docId}/tables/ViaApply/columns`)).json
			.columns[0].fields;
		expect(x).toMatchObject({ type: 'Int', isFormula: false });
	});
});

describe('object shapes', () => {
	teamSite.it(
		"GET /orgs/{id} has billingAccount; GET /docs/{id} has aliases and forks; a workspace's org has no access",
		async () => {
			const org = await api.get<Record<string, unknown>>(`/api/orgs/${orgId}`);
			expect(Object.keys(org.json.billingAccount as object).sort()).toEqual(
				[
					'id',
					'features',
					'individual',
					'inGoodStanding',
					'status',
					'stripePlanId',
					'paymentLink',
					'externalId',
					'externalOptions',
					'paid',
					'product',
					'isManager',
				].sort(),
			);
			expect(org.json).toMatchObject({
				access: 'owners',
				billingAccount: { individual: false, isManager: true, product: { name: 'Free' } },
			});
			const listed = await api.get<Array<Record<string, unknown>>>('/api/orgs');
			expect(listed.json.every((o) => !('billingAccount' in o))).toBe(true);
			const doc = await api.get<Record<string, unknown>>(`/api/docs/${docId}`);
			// a new document's urlId is a 12-character prefix of its id, with its alias (measured)
			expect(doc.json).toMatchObject({
				urlId: docId.slice(0, 12),
				aliases: [{ orgId, urlId: docId.slice(0, 12), docId, createdAt: expect.any(String) }],
				forks: [],
			});
			await api.patch(`/api/docs/${docId}`, { urlId: 'sem-doc' });
			expect((await api.get<Record<string, unknown>>(`/api/docs/${docId}`)).json.aliases).toEqual([
				{ orgId, urlId: 'sem-doc', docId, createdAt: expect.any(String) },
			]);
			const ws = await api.get<{ org: Record<string, unknown> }>(`/api/workspaces/${wsId}`);
			expect(ws.json.org).toMatchObject({ id: orgId, domain: 't' });
			expect('access' in ws.json.org).toBe(false);
		},
	);
});

describe('payload errors', () => {
	const invalid = (userError: string) => ({ error: 'Invalid payload', details: { userError } });

	it("empty arrays and bad cells give ts-interface-checker's messages", async () => {
		const t = typedTable();
		expect((await api.post(rec(t), { records: [] })).json).toEqual(
			invalid('Error: body.records[0] is not a NewRecord; body.records[0] is not an object'),
		);
		expect((await api.patch(rec(t), { records: [] })).json).toEqual(
			invalid('Error: body.records[0] is not a Record; body.records[0] is not an object'),
		);
		expect((await api.put(rec(t), { records: [] })).json).toEqual(
			invalid(
				'Error: body.records[0] is not a AddOrUpdateRecord; body.records[0] is not an object',
			),
		);
		expect((await api.patch(rec(t), { records: [{ id: 1 }] })).json).toEqual(
			invalid('Error: body.records[0] is not a Record; body.records[0].fields is missing'),
		);
		expect((await api.post(rec(t), { records: [{}, { fields: { Txt: { a: 1 } } }] })).json).toEqual(
			invalid(
				'Error: body.records[1] is not a NewRecord; body.records[1].fields.Txt is not a CellValue; body.records[1].fields.Txt is none of number, string, boolean, null, 1 more',
			),
		);
		expect((await api.post(rec(t), { records: [{ fields: { Tags: ['a'] } }] })).json).toEqual(
			invalid(
				'Error: body.records[0] is not a NewRecord; body.records[0].fields.Tags is not a CellValue; body.records[0].fields.Tags is none of number, string, boolean, null, 1 more; body.records[0].fields.Tags[0] is not a GristObjCode; body.records[0].fields.Tags[0] is not a valid enum value',
			),
		);
		const cols = `/api/docs/${docId}/tables/${t}/columns`;
		expect((await api.post(cols, { columns: [] })).json).toEqual(
			invalid(
				'Error: body.columns[0] is not a NewRecordWithStringId; body.columns[0] is not an object',
			),
		);
		expect((await api.put(cols, { columns: [] })).json).toEqual(
			invalid(
				'Error: value.columns[0] is not a RecordWithStringId; value.columns[0] is not an object',
			),
		);
		expect(
			(await api.post(`/api/docs/${docId}/tables`, { tables: [{ id: 'NoCols' }] })).json,
		).toEqual(
			invalid('Error: body.tables[0] is not a TablePost; body.tables[0].columns is missing'),
		);
		expect((await api.post(rec(t, '/list'), { limit: '5' })).json).toEqual(
			invalid('Error: body.limit is not a number'),
		);
		expect(emu.records(docId, t)).toEqual([]);
	});

	it("a filter on an unknown column is the sandbox's KeyError", async () => {
		const t = typedTable();
		const r = await api.get(rec(t, `?filter=${encodeURIComponent(JSON.stringify({ Nope: [1] }))}`));
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ error: "Error manipulating data: [Sandbox] KeyError 'Nope'" });
		const list = await api.post(rec(t, '/list'), { filter: { Nope: [1] } });
		expect([list.status, list.json]).toEqual([
			400,
			{ error: "Error manipulating data: [Sandbox] KeyError 'Nope'" },
		]);
	});
});

clock.describe('/apply: columns, tables and trigger formulas', () => {
	let clock = 1_700_000_000_000;
	beforeAll(() => emu.setClock(() => clock));

	/** A table with Name, Note and an empty column turned into a trigger-formula DateTime as a user would. */
	async function stamped(recalc: { recalcWhen: number; deps?: string[] }): Promise<string> {
		const t = `Stamped${++n}`;
		expect(
			(
				await apply([
					[
						'AddTable',
						t,
						[
							{ id: 'Name', type: 'Text' },
							{ id: 'Note', type: 'Text' },
						],
					],
				])
			).status,
		).toBe(200);
		const add = await apply([['AddColumn', t, 'Stamp', {}]]);
		expect(add.json.retValues[0]).toMatchObject({ colId: 'Stamp' });
		const cols = (await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${t}/columns`)).json
			.columns;
		const ref = (id: string) => cols.find((c) => c.id === id)!.fields.colRef;
		const r = await apply([
			['ModifyColumn', t, 'Stamp', { type: 'DateTime:UTC' }],
			[
				'ModifyColumn',
				t,
				'Stamp',
				{
					isFormula: false,
					formula: 'NOW()',
					recalcWhen: recalc.recalcWhen,
					recalcDeps: recalc.deps ? ['L', ...recalc.deps.map(ref)] : null,
				},
			],
		]);
		expect(r.status).toBe(200);
		return t;
	}
	const stamps = (t: string) => emu.records(docId, t).map((r) => r.fields.Stamp);

	it('recalcWhen 2 (any field): set on add, reset on every real change, kept when nothing changes', async () => {
		const t = await stamped({ recalcWhen: 2 });
		const fields = (
			await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${t}/columns`)
		).json.columns.find((c) => c.id === 'Stamp')!.fields;
		expect(fields).toMatchObject({
			type: 'DateTime:UTC',
			isFormula: false,
			formula: 'NOW()',
			recalcWhen: 2,
			recalcDeps: null,
		});
		clock = 1_700_000_100_000;
		await api.post(rec(t), { records: [{ fields: { Name: 'a' } }, { fields: { Name: 'b' } }] });
		expect(stamps(t)).toEqual([1_700_000_100, 1_700_000_100]);
		clock = 1_700_000_200_500;
		await api.patch(rec(t), { records: [{ id: 2, fields: { Note: 'x' } }] });
		expect(stamps(t)).toEqual([1_700_000_100, 1_700_000_200.5]);
		clock = 1_700_000_300_000;
		await api.patch(rec(t), {
			records: [
				{ id: 1, fields: { Name: 'a' } },
				{ id: 2, fields: { Name: 'B' } },
			],
		});
		expect(stamps(t)).toEqual([1_700_000_100, 1_700_000_300]);
		await api.put(rec(t), { records: [{ require: { Name: 'a' }, fields: { Note: 'up' } }] });
		await apply([['UpdateRecord', t, 2, { Note: 'y' }]]);
		expect(stamps(t)).toEqual([1_700_000_300, 1_700_000_300]);
		// an explicit value wins, on add and on update
		await api.post(rec(t), { records: [{ fields: { Name: 'c', Stamp: 5 } }] });
		await api.patch(rec(t), { records: [{ id: 1, fields: { Note: 'z', Stamp: 6 } }] });
		expect(stamps(t)).toEqual([6, 1_700_000_300, 5]);
		const typed = await api.get<RecordsBody>(rec(t, '?cellFormat=typed&limit=1&sort=-id'));
		expect(typed.json.records[0].fields.Stamp).toEqual(['D', 5, 'UTC']);
	});

	it('recalcWhen 0 with recalcDeps: only changes to the listed columns; without deps: only new rows; 1: never', async () => {
		clock = 1_700_000_000_000;
		const onName = await stamped({ recalcWhen: 0, deps: ['Name'] });
		const onAdd = await stamped({ recalcWhen: 0 });
		const never = await stamped({ recalcWhen: 1 });
		for (const t of [onName, onAdd, never])
			await api.post(rec(t), { records: [{ fields: { Name: 'a' } }] });
		expect([stamps(onName), stamps(onAdd), stamps(never)]).toEqual([
			[1_700_000_000],
			[1_700_000_000],
			[null],
		]);
		clock = 1_700_000_050_000;
		for (const t of [onName, onAdd, never])
			await api.patch(rec(t), { records: [{ id: 1, fields: { Note: 'n' } }] });
		expect([stamps(onName), stamps(onAdd), stamps(never)]).toEqual([
			[1_700_000_000],
			[1_700_000_000],
			[null],
		]);
		for (const t of [onName, onAdd, never])
			await api.patch(`/api/docs/${docId}/tables/${t}/data`, { id: [1], Name: ['b'] });
		expect([stamps(onName), stamps(onAdd), stamps(never)]).toEqual([
			[1_700_000_050],
			[1_700_000_000],
			[null],
		]);
	});

	it('RemoveColumn, RenameTable, RemoveTable', async () => {
		const t = await stamped({ recalcWhen: 2 });
		expect((await apply([['RemoveColumn', t, 'Note']])).status).toBe(200);
		expect(
			(await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${t}/columns`)).json.columns.map(
				(c) => c.id,
			),
		).toEqual(['Name', 'Stamp']);
		const renamed = await apply([['RenameTable', t, `${t}New`]]);
		expect(renamed.json.retValues).toEqual([`${t}New`]);
		expect((await api.get(rec(t))).status).toBe(404);
		expect((await apply([['RemoveTable', `${t}New`]])).status).toBe(200);
		expect((await api.get(rec(`${t}New`))).status).toBe(404);
		const bad = await apply([['ModifyColumn', 'Nope', 'X', {}]]);
		expect(bad.status).toBe(500);
		expect(bad.json.error).toBe("[Sandbox] KeyError 'Nope'");
	});
});
