/**
 * Emulator: what the Table / Column operations and the SQL conditions rely on —
 * PUT /columns' noadd and noupdate, POST /columns adjusting a duplicate id, /apply RemoveTable
 * of an unknown table, and /sql's raw encodings with SQLite's json_each, LIKE and typeof.
 */
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';

let emu: GristEmulator;
let docId: string;
let orgId: number;
let api: ReturnType<typeof client>;
const OWNER = 'schema-test-key-0123456789';

interface SqlBody {
	records: Array<{ fields: Record<string, unknown> }>;
}
interface ColumnsBody {
	columns: Array<{ id: string; fields: { type: string; label: string; isFormula: boolean } }>;
}

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	orgId = org.id;
	const ws = emu.addWorkspace(org.id, 'W');
	docId = emu.addDoc(ws.id, { name: 'D' }).id;
	emu.addTable(docId, 'Things', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Flag', type: 'Bool' },
		{ id: 'Due', type: 'Date' },
		{ id: 'Tags', type: 'ChoiceList' },
		{ id: 'Links', type: 'RefList:Things' },
	]);
	emu.addRecords(docId, 'Things', [
		{ Name: 'Ab_c', Flag: true, Due: 1704067200, Tags: ['L', 'x', 'y'], Links: ['L', 2] },
		{ Name: 'abc', Flag: false, Due: null, Tags: null, Links: null },
	]);
	api = client(emu, OWNER, '/o/t');
});
afterAll(() => emu.close());

const cols = () => `/api/docs/${docId}/tables/Things/columns`;
const ids = async () => (await api.get<ColumnsBody>(cols())).json.columns.map((c) => c.id);

test('PUT /columns: noadd changes only listed columns that exist, noupdate only adds', async () => {
	const noadd = await api.put(`${cols()}?noadd=1`, {
		columns: [
			// untied: a label alone would rename the column (see the tie test below)
			{ id: 'Name', fields: { label: 'The name', untieColIdFromLabel: true } },
			{ id: 'New1', fields: { type: 'Text' } },
		],
	});
	expect(noadd.status).toBe(200);
	let listed = (await api.get<ColumnsBody>(cols())).json.columns;
	expect(listed.find((c) => c.id === 'Name')?.fields.label).toBe('The name');
	expect(listed.map((c) => c.id)).not.toContain('New1');
	const noupdate = await api.put(`${cols()}?noupdate=1`, {
		columns: [
			{ id: 'Name', fields: { label: 'Ignored' } },
			{ id: 'New2', fields: { type: 'Int', isFormula: false } },
		],
	});
	expect(noupdate.status).toBe(200);
	listed = (await api.get<ColumnsBody>(cols())).json.columns;
	expect(listed.find((c) => c.id === 'Name')?.fields.label).toBe('The name');
	expect(listed.find((c) => c.id === 'New2')?.fields).toMatchObject({
		type: 'Int',
		isFormula: false,
	});
});

test('POST /columns with an existing id: Grist adjusts the id instead of failing', async () => {
	const res = await api.post<{ columns: Array<{ id: string }> }>(cols(), {
		columns: [{ id: 'Name', fields: { type: 'Text' } }],
	});
	expect(res.status).toBe(200);
	expect(res.json.columns[0].id).toBe('Name2');
	expect(await ids()).toContain('Name2');
	await api.del(`${cols()}/Name2`);
});

test('/apply RemoveTable of an unknown table fails as a whole (sandbox error), nothing removed', async () => {
	const res = await api.post<ErrorBody>(`/api/docs/${docId}/apply`, [['RemoveTable', 'Nope']]);
	expect(res.status).toBeGreaterThanOrEqual(400);
	expect(res.json.error).toMatch(/Nope/);
	const tables = await api.get<{ tables: Array<{ id: string }> }>(`/api/docs/${docId}/tables`);
	expect(tables.json.tables.map((t) => t.id)).toContain('Things');
});

test("/sql: Bool as 0/1, dates as numbers, lists as JSON text; json_each, LIKE and typeof work as in Grist's SQLite", async () => {
	const raw = await api.post<SqlBody>(`/api/docs/${docId}/sql`, {
		sql: 'select Flag, Due, Tags, Links from Things order by id',
	});
	expect(raw.json.records.map((r) => r.fields)).toEqual([
		{ Flag: 1, Due: 1704067200, Tags: '["x","y"]', Links: '[2]' },
		{ Flag: 0, Due: null, Tags: null, Links: null },
	]);
	const search = await api.post<SqlBody>(`/api/docs/${docId}/sql`, {
		sql: `select Name from Things where EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(Tags) THEN Tags ELSE '[]' END) WHERE value IN (?)) OR (Name LIKE ? ESCAPE '\\' AND typeof(Due) = 'null')`,
		args: ['y', 'ab\\_%'],
	});
	expect(search.status).toBe(200);
	expect(search.json.records.map((r) => r.fields.Name)).toEqual(['Ab_c']);
});

test("/sql strips one ';' at the very end, as grist-core's runSQLQuery does (not one followed by a space)", async () => {
	const ok = await api.post<SqlBody>(`/api/docs/${docId}/sql`, { sql: 'select 1 as one;' });
	expect(ok.status).toBe(200);
	expect(ok.json.records).toEqual([{ fields: { one: 1 } }]);
	const bad = await api.post<ErrorBody>(`/api/docs/${docId}/sql`, { sql: 'select 1 as one; ' });
	expect(bad.status).toBe(400);
	expect(bad.json.error).toMatch(/syntax error/);
});

describe("a column's ID is tied to its label, as in grist-core (useractions.py _adjust_one_column_update)", () => {
	type Col = { id: string; fields: { label: string; untieColIdFromLabel: boolean } };
	const tieCols = () => `/api/docs/${docId}/tables/Tie/columns`;
	const listed = async () =>
		(await api.get<{ columns: Col[] }>(tieCols())).json.columns.map((c) => [
			c.id,
			c.fields.label,
			c.fields.untieColIdFromLabel,
		]);
	const patch = (columns: unknown[]) => api.patch(tieCols(), { columns });
	beforeAll(() => {
		emu.addTable(docId, 'Tie', [
			{ id: 'Due', type: 'Date' },
			{ id: 'Kept', type: 'Text' },
			{ id: 'Untied', type: 'Text' },
			{ id: 'Name', type: 'Text' },
			{ id: 'Other', type: 'Text' },
			{ id: 'A1', type: 'Text' },
			{ id: 'B', type: 'Text' },
			{ id: 'C', type: 'Text' },
		]);
		emu.addRecords(docId, 'Tie', [{ Due: 1704067200, Kept: 'k' }]);
	});

	test('a label alone renames the column after it (sanitized), its values moving along', async () => {
		expect((await patch([{ id: 'Due', fields: { label: 'Due date' } }])).status).toBe(200);
		expect((await listed())[0]).toEqual(['Due_date', 'Due date', false]);
		const rows = await api.get<{ records: Array<{ fields: Record<string, unknown> }> }>(
			`/api/docs/${docId}/tables/Tie/records`,
		);
		expect(rows.json.records[0].fields.Due_date).toBe(1704067200);
		expect(rows.json.records[0].fields).not.toHaveProperty('Due');
	});

	test('colId (the same ID) or untieColIdFromLabel: true keeps the ID; untied stays untied; untieColIdFromLabel: false ties again', async () => {
		await patch([{ id: 'Kept', fields: { label: 'Kept label', colId: 'Kept' } }]);
		await patch([{ id: 'Untied', fields: { label: 'First', untieColIdFromLabel: true } }]);
		expect((await listed()).slice(1, 3)).toEqual([
			['Kept', 'Kept label', false],
			['Untied', 'First', true],
		]);
		await patch([{ id: 'Untied', fields: { label: 'Second' } }]);
		expect((await listed())[2]).toEqual(['Untied', 'Second', true]);
		await patch([{ id: 'Untied', fields: { untieColIdFromLabel: false } }]);
		expect((await listed())[2]).toEqual(['Second', 'Second', false]);
	});

	test("collisions get identifiers.py's suffixes (Name2, A1_2), ignoring case; accents, digits and keywords as grist-core", async () => {
		await patch([{ id: 'Other', fields: { label: 'name' } }]);
		expect((await listed())[4]).toEqual(['name2', 'name', false]);
		await patch([{ id: 'name2', fields: { label: 'A1' } }]);
		expect((await listed())[4]).toEqual(['A1_2', 'A1', false]);
		// its own ID is free: a label that sanitizes to the current ID changes nothing
		await patch([{ id: 'A1_2', fields: { label: 'A1*2' } }]);
		expect((await listed())[4][0]).toBe('A1_2');
		await patch([{ id: 'A1', fields: { label: 'Été 2024!' } }]);
		await patch([{ id: 'B', fields: { label: '2024 total' } }]);
		await patch([{ id: 'C', fields: { label: 'class' } }]);
		expect((await listed()).slice(5).map((c) => c[0])).toEqual([
			'Ete_2024_',
			'c2024_total',
			'cclass',
		]);
	});

	test('one PATCH of several columns: the second avoids the ID picked for the first (Bob_Z, Bob_Z2)', async () => {
		await patch([
			{ id: 'Ete_2024_', fields: { label: 'Bob Z' } },
			{ id: 'c2024_total', fields: { label: 'Bob-Z' } },
		]);
		expect((await listed()).slice(5, 7).map((c) => c[0])).toEqual(['Bob_Z', 'Bob_Z2']);
	});

	test('PUT updates and /apply ModifyColumn are tied too; a new column keeps the given ID', async () => {
		await api.put(tieCols(), {
			columns: [
				{ id: 'Bob_Z', fields: { label: 'Put label' } },
				{ id: 'Fresh', fields: { label: 'Fresh label', type: 'Text' } },
			],
		});
		const after = await listed();
		expect(after[5]).toEqual(['Put_label', 'Put label', false]);
		expect(after.find((c) => c[0] === 'Fresh')).toEqual(['Fresh', 'Fresh label', false]);
		const applied = await api.post(`/api/docs/${docId}/apply`, [
			['ModifyColumn', 'Tie', 'Put_label', { label: 'Modified' }],
		]);
		expect(applied.status).toBe(200);
		expect((await listed())[5]).toEqual(['Modified', 'Modified', false]);
		// a colId alone renames and leaves the label as it was
		await patch([{ id: 'Modified', fields: { colId: 'Renamed' } }]);
		expect((await listed())[5]).toEqual(['Renamed', 'Modified', false]);
	});
});

test("a new column is tied to its label whatever the create says: AddColumn / AddTable drop untieColIdFromLabel (and description), as grist-core's doAddColumn / doAddTable", async () => {
	const created = await api.post<{ columns: Array<{ id: string }> }>(cols(), {
		columns: [
			{
				id: 'Fresh',
				fields: { label: 'Fresh label', untieColIdFromLabel: true, description: 'd' },
			},
		],
	});
	expect(created.json.columns).toEqual([{ id: 'Fresh' }]);
	const table = await api.post(`/api/docs/${docId}/tables`, {
		tables: [
			{
				id: 'Made',
				columns: [{ id: 'Lbl', fields: { label: 'My label', untieColIdFromLabel: true } }],
			},
		],
	});
	expect(table.status).toBe(200);
	type Col = {
		id: string;
		fields: { label: string; untieColIdFromLabel: boolean; description: string };
	};
	const fresh = (await api.get<{ columns: Col[] }>(cols())).json.columns.find(
		(c) => c.id === 'Fresh',
	);
	expect(fresh?.fields).toMatchObject({
		label: 'Fresh label',
		untieColIdFromLabel: false,
		description: '',
	});
	const made = (await api.get<{ columns: Col[] }>(`/api/docs/${docId}/tables/Made/columns`)).json
		.columns;
	expect(made.map((c) => [c.id, c.fields.label, c.fields.untieColIdFromLabel])).toEqual([
		['Lbl', 'My label', false],
	]);
	// so a later label-only update renames it, unless it is untied first
	await api.patch(`/api/docs/${docId}/tables/Made/columns`, {
		columns: [{ id: 'Lbl', fields: { label: 'Other' } }],
	});
	expect(
		(await api.get<{ columns: Col[] }>(`/api/docs/${docId}/tables/Made/columns`)).json.columns[0]
			.id,
	).toBe('Other');
	await api.del(`${cols()}/Fresh`);
});

test('a Reference to a table the document lacks is accepted, as in grist-core (the node refuses it)', async () => {
	const res = await api.post(`/api/docs/${docId}/tables`, {
		tables: [{ id: 'Haunted', columns: [{ id: 'Who', fields: { type: 'Ref:Ghost' } }] }],
	});
	expect(res.status).toBe(200);
	expect(
		(await api.patch(cols(), { columns: [{ id: 'Name', fields: { type: 'Ref:Ghost' } }] })).status,
	).toBe(200);
	type Col = { id: string; fields: { type: string } };
	expect(
		(await api.get<{ columns: Col[] }>(cols())).json.columns.find((c) => c.id === 'Name')?.fields
			.type,
	).toBe('Ref:Ghost');
	await api.patch(cols(), { columns: [{ id: 'Name', fields: { type: 'Text' } }] });
});

test('GET /tables and /columns follow the open document’s metadata order: a removed row’s place goes to the last row', async () => {
	// ActiveDoc answers both from its metadata cache (TableData), which fills a removed row's
	// place with the last row (onRemoveRecord); measured on grist-core 1.7.17
	const d = emu.addDoc(emu.addWorkspace(orgId, 'W2').id, { name: 'Order' }).id;
	const made = await api.post(`/api/docs/${d}/tables`, {
		tables: ['A', 'B', 'C', 'E'].map((id) => ({ id, columns: [{ id: 'X', fields: {} }] })),
	});
	expect(made.status).toBe(200);
	expect((await api.post(`/api/docs/${d}/apply`, [['RemoveTable', 'B']])).status).toBe(200);
	const tables = await api.get<{ tables: Array<{ id: string }> }>(`/api/docs/${d}/tables`);
	expect(tables.json.tables.map((t) => t.id)).toEqual(['A', 'E', 'C']);
	const colsOf = `/api/docs/${d}/tables/A/columns`;
	await api.post(colsOf, { columns: ['Y', 'Z'].map((id) => ({ id, fields: {} })) });
	// A's Z is the last column row (added last), so it fills X's place
	expect((await api.del(`${colsOf}/X`)).status).toBe(200);
	expect((await api.get<ColumnsBody>(colsOf)).json.columns.map((c) => c.id)).toEqual(['Z', 'Y']);
});
