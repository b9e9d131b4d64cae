/**
 * Emulator (issue #15): what the Table / Column operations and the SQL conditions rely on —
 * PUT /columns' noadd and noupdate, POST /columns adjusting a duplicate id, /apply RemoveTable
 * of an unknown table, and /sql's raw encodings with SQLite's json_each, LIKE and typeof.
 */
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';

let emu: GristEmulator;
let docId: string;
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
			{ id: 'Name', fields: { label: 'The name' } },
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
	expect(res.json.columns[0].id).toBe('Name_2');
	expect(await ids()).toContain('Name_2');
	await api.del(`${cols()}/Name_2`);
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
