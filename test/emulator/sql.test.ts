/** Emulator: §10 SQL (GET/POST /sql) on a real SQLite (sql.js), and the rowsScanned cost model. */
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';
import { emulatorOnly } from '../harness/target';

const costModel = emulatorOnly('the log’s rowsScanned is the emulator’s cost model');

let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
const OWNER = 'sql-test-key-0123456789';
const VIEWER = 'sql-test-viewer-0123456789';

interface SqlBody {
	statement: string;
	records: Array<{ fields: Record<string, unknown> }>;
}

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	emu.addUser({ email: 'v@example.com', name: 'V', apiKey: VIEWER });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	const ws = emu.addWorkspace(org.id, 'W');
	docId = emu.addDoc(ws.id, { name: 'D' }).id;
	emu.setAccess('doc', docId, 'v@example.com', 'viewers');
	emu.addTable(docId, 'People', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Age', type: 'Numeric' },
		{ id: 'Ok', type: 'Bool' },
		{ id: 'Tags', type: 'ChoiceList' },
	]);
	emu.addRecords(docId, 'People', [
		{ Name: 'Ann', Age: 30, Ok: true, Tags: ['L', 'a', 'b'] },
		{ Name: 'Bob', Age: 40, Ok: false, Tags: null },
	]);
	api = client(emu, OWNER, '/o/t');
});
afterAll(() => emu.close());

const sqlPath = () => `/api/docs/${docId}/sql`;

test('GET ?q= and POST with ? args answer raw SQLite values', async () => {
	const get = await api.get<SqlBody>(
		`${sqlPath()}?q=${encodeURIComponent('select * from People')}`,
	);
	expect(get.status).toBe(200);
	expect(get.json).toEqual({
		statement: 'select * from People',
		records: [
			{ fields: { id: 1, manualSort: 1, Name: 'Ann', Age: 30, Ok: 1, Tags: '["a","b"]' } },
			{ fields: { id: 2, manualSort: 2, Name: 'Bob', Age: 40, Ok: 0, Tags: null } },
		],
	});
	const post = await api.post<SqlBody>(sqlPath(), {
		sql: 'select Name from People where Age > ? and Ok = ?',
		args: [35, 0],
	});
	expect(post.status).toBe(200);
	expect(post.json.records).toEqual([{ fields: { Name: 'Bob' } }]);
	const viewer = await client(emu, VIEWER, '/o/t').post<SqlBody>(sqlPath(), {
		sql: 'select count(*) as n from People',
	});
	expect(viewer.json.records).toEqual([{ fields: { n: 2 } }]);
});

test('errors: not a select, SQLite errors, bad payload, one statement only', async () => {
	const notSelect = await api.post<ErrorBody>(sqlPath(), { sql: 'delete from People' });
	expect(notSelect.status).toBe(400);
	expect(notSelect.json.error).toBe('only select statements are supported');
	const bad = await api.post<ErrorBody>(sqlPath(), { sql: 'select nope from People' });
	expect(bad.status).toBe(400);
	expect(bad.json.error).toBe('SQLITE_ERROR: no such column: nope');
	const missing = await api.post<ErrorBody>(sqlPath(), {});
	expect(missing.status).toBe(400);
	expect(missing.json).toEqual({
		error: 'Invalid payload',
		details: { userError: 'Error: body.sql is missing' },
	});
	const twice = await api.post<ErrorBody>(sqlPath(), {
		sql: 'select 1; delete from People',
	});
	expect(twice.status).toBe(400);
	expect(emu.records(docId, 'People')).toHaveLength(2);
});

test('sees writes made through the REST API', async () => {
	await api.post(`/api/docs/${docId}/tables/People/records`, {
		records: [{ fields: { Name: 'Cy', Age: 50 } }],
	});
	const r = await api.post<SqlBody>(sqlPath(), { sql: 'select max(id) as top from People' });
	expect(r.json.records).toEqual([{ fields: { top: 3 } }]);
	await api.patch(`/api/docs/${docId}/tables/People/records`, {
		records: [{ id: 3, fields: { Age: 51 } }],
	});
	const r2 = await api.post<SqlBody>(sqlPath(), { sql: 'select Age from People where id = 3' });
	expect(r2.json.records).toEqual([{ fields: { Age: 51 } }]);
});

costModel.test(
	'cost model: max(id) reads O(1) rows, a sorted records read the whole table',
	async () => {
		const scannedBy = async (call: () => Promise<unknown>): Promise<number | undefined> => {
			emu.clearLog();
			await call();
			return emu.log[0].rowsScanned;
		};
		emu.addTable(docId, 'Big', [{ id: 'N', type: 'Numeric' }]);
		const costs: Array<[number, number | undefined, number | undefined, number | undefined]> = [];
		for (const size of [100, 1000]) {
			emu.addRecords(
				docId,
				'Big',
				Array.from({ length: size - emu.records(docId, 'Big').length }, (_, i) => ({ N: i })),
			);
			costs.push([
				size,
				await scannedBy(() => api.post(sqlPath(), { sql: 'select max(id) as top from Big' })),
				await scannedBy(() => api.get(`/api/docs/${docId}/tables/Big/records?sort=-id&limit=1`)),
				await scannedBy(() =>
					api.post(sqlPath(), { sql: 'select id, N from Big order by N desc limit 2' }),
				),
			]);
		}
		expect(costs).toEqual([
			[100, 1, 100, 100],
			[1000, 1, 1000, 1000],
		]);
	},
);

test('timeout: a statement running past it is interrupted (400), capped at 1000 ms', async () => {
	const slow = await api.post<ErrorBody>(sqlPath(), {
		sql: 'with recursive c(x) as (select 1 union all select x + 1 from c limit 3000000) select x from c',
		timeout: 1,
	});
	expect(slow.status).toBe(400);
	expect(slow.json.error).toBe('a slow statement resulted in a database interrupt');
	const noQ = await api.get<ErrorBody>(sqlPath());
	expect(noQ.status).toBe(400);
	expect(noQ.json.error).toBe('q parameter is required');
});
