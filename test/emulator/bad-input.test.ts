/**
 * Emulator: what grist-core does with bad input to the record writes, as checked on grist-core 1.7.17
 * by REST — it stores dangling references (Ref and RefList) without a word, refuses a whole
 * PATCH for one missing row id (400 `Invalid row id N`, the first one it meets) and a whole POST
 * for one unknown column (400 `Invalid column "X"`), adds a blank row for `{}`; and the reads the
 * reference check uses: `/sql` with `json_each(?)` answering the missing IDs, `no such table`,
 * records filtered by id, `Table not found`.
 */
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody, type RecordsBody } from './testutil';

let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
const OWNER = 'bad-input-test-key-0123456789';

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	const ws = emu.addWorkspace(org.id, 'W');
	docId = emu.addDoc(ws.id, { name: 'D' }).id;
	api = client(emu, OWNER);
	const tables = await api.post(`/api/docs/${docId}/tables`, {
		tables: [
			{ id: 'Owners', columns: [{ id: 'Name', fields: { type: 'Text' } }] },
			{
				id: 'Tasks',
				columns: [
					{ id: 'Title', fields: { type: 'Text' } },
					{ id: 'Owner', fields: { type: 'Ref:Owners' } },
					{ id: 'Helpers', fields: { type: 'RefList:Owners' } },
				],
			},
		],
	});
	expect(tables.status).toBe(200);
	await api.post(rec('Owners'), {
		records: [{ fields: { Name: 'Ann' } }, { fields: { Name: 'Bob' } }],
	});
});
afterAll(() => emu.close());

const rec = (t: string) => `/api/docs/${docId}/tables/${t}/records`;
const tasks = async () => (await api.get<RecordsBody>(rec('Tasks'))).json.records;

describe('bad input as grist-core takes it', () => {
	it('stores dangling references (Ref and RefList) without an error', async () => {
		const r = await api.post<RecordsBody>(rec('Tasks'), {
			records: [{ fields: { Title: 'ghost', Owner: 99999, Helpers: ['L', 1, 77777] } }],
		});
		expect(r.status).toBe(200);
		const [row] = (await tasks()).filter((t) => t.id === r.json.records[0].id);
		expect(row.fields).toEqual({ Title: 'ghost', Owner: 99999, Helpers: ['L', 1, 77777] });
	});

	it('refuses a whole PATCH for a missing row id, naming the first it meets; changes no row', async () => {
		const before = await tasks();
		const r = await api.patch<ErrorBody>(rec('Tasks'), {
			records: [
				{ id: before[0].id, fields: { Title: 'changed' } },
				{ id: 555, fields: { Title: 'x' } },
				{ id: 444, fields: { Title: 'y' } },
			],
		});
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ error: 'Invalid row id 555' });
		expect(await tasks()).toEqual(before);
	});

	it('refuses a whole POST for one unknown column; adds a blank row for {}', async () => {
		const before = await tasks();
		const r = await api.post<ErrorBody>(rec('Tasks'), {
			records: [{ fields: { Title: 'a' } }, { fields: { Title: 'b', X: 1 } }],
		});
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ error: 'Invalid column "X"' });
		expect(await tasks()).toEqual(before);
		const blank = await api.post<RecordsBody>(rec('Tasks'), { records: [{}] });
		expect(blank.status).toBe(200);
		expect((await tasks()).length).toBe(before.length + 1);
	});

	it('/sql json_each(?) answers the IDs a table lacks; an unknown table is 400 no such table', async () => {
		const sql = (table: string) => ({
			sql: `SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM "${table}" WHERE id = value)`,
			args: ['[1,2,99999,88888]'],
		});
		const r = await api.post<{ records: Array<{ fields: { id: number } }> }>(
			`/api/docs/${docId}/sql`,
			sql('Owners'),
		);
		expect(r.status).toBe(200);
		expect(r.json.records.map((x) => x.fields.id)).toEqual([99999, 88888]);
		const ghost = await api.post<ErrorBody>(`/api/docs/${docId}/sql`, sql('Ghost'));
		expect(ghost.status).toBe(400);
		expect(ghost.json.error).toBe('SQLITE_ERROR: no such table: Ghost');
	});

	it('records filtered by id give the rows that exist; an unknown table is 404 Table not found', async () => {
		const filter = encodeURIComponent(JSON.stringify({ id: [1, 2, 99999] }));
		const r = await api.get<RecordsBody>(`${rec('Owners')}?filter=${filter}`);
		expect(r.json.records.map((x) => x.id)).toEqual([1, 2]);
		const ghost = await api.get<ErrorBody>(`${rec('Ghost')}?filter=${filter}`);
		expect(ghost.status).toBe(404);
		expect(ghost.json).toEqual({ error: 'Table not found "Ghost"' });
	});
});
