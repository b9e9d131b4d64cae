/** Emulator: records (GET/list/POST/PATCH/PUT/delete), parsing, formulas, /data, tables and columns. */
import { startEmulator, type GristEmulator } from './index';
import {
	client,
	type ActionBody,
	type ColumnsBody,
	type ErrorBody,
	type RecordsBody,
	type TablesBody,
} from './testutil';
import { emulatorOnly } from '../harness/target';

const clock = emulatorOnly('NOW() is read at a time set by the emulator’s clock (setClock)');
const summarySeed = emulatorOnly('seeds a summary table (summarySourceTable) directly');

let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
const OWNER = 'records-test-key-0123456789';

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	const ws = emu.addWorkspace(org.id, 'W');
	docId = emu.addDoc(ws.id, { name: 'D' }).id;
	api = client(emu, OWNER);
});
afterAll(() => emu.close());

let n = 0;
/** A fresh table per test: People(Name Text, Age Numeric, Born Date, Team Ref:Teams, Tags ChoiceList, Double formula). */
function freshTables(): { P: string; Teams: string } {
	n++;
	const Teams = `Teams${n}`;
	const P = `People${n}`;
	emu.addTable(docId, Teams, [{ id: 'Title', type: 'Text' }]);
	emu.addRecords(docId, Teams, [{ Title: 'Red' }, { Title: 'Blue' }]);
	emu.addTable(docId, P, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Age', type: 'Numeric' },
		{ id: 'Born', type: 'Date' },
		{ id: 'Team', type: `Ref:${Teams}`, visibleCol: 'Title' },
		{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['a', 'b'] } },
		{ id: 'Level', type: 'Choice', widgetOptions: { choices: ['high', 'mid', 'low'] } },
		{ id: 'Double', formula: '$Age * 2' },
	]);
	return { P, Teams };
}
const rec = (t: string, qs = '') => `/api/docs/${docId}/tables/${t}/records${qs}`;

describe('GET /records', () => {
	it('returns fields incl. formulas; hidden=1 adds manualSort', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [{ Name: 'Ann', Age: 30 }]);
		const r = await api.get(rec(P));
		expect(r.json).toEqual({
			records: [
				{
					id: 1,
					fields: { Name: 'Ann', Age: 30, Born: null, Team: 0, Tags: null, Level: '', Double: 60 },
				},
			],
		});
		const h = await api.get<RecordsBody>(rec(P, '?hidden=1'));
		expect(h.json.records[0].fields.manualSort).toBe(1);
	});

	it('filter: ANDed keys, ORed values, id; errors', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [
			{ Name: 'A', Age: 1 },
			{ Name: 'B', Age: 2 },
			{ Name: 'C', Age: 2 },
		]);
		const f = (o: unknown) => rec(P, `?filter=${encodeURIComponent(JSON.stringify(o))}`);
		expect((await api.get<RecordsBody>(f({ Age: [2] }))).json.records.map((x) => x.id)).toEqual([
			2, 3,
		]);
		expect(
			(await api.get<RecordsBody>(f({ Age: [2], Name: ['C', 'A'] }))).json.records.map((x) => x.id),
		).toEqual([3]);
		expect((await api.get<RecordsBody>(f({ id: [1, 3] }))).json.records.map((x) => x.id)).toEqual([
			1, 3,
		]);
		const bad = await api.get(f({ Age: 2 }));
		expect(bad.status).toBe(400);
		expect(bad.json).toEqual({ error: 'Invalid query: filter values must be arrays' });
		const unknown = await api.get<ErrorBody>(f({ Nope: [1] }));
		expect(unknown.status).toBe(400);
		expect(unknown.json.error).toContain('Nope');
		const malformed = await api.get<ErrorBody>(rec(P, '?filter=%7Bnope'));
		// JSON.parse's text as grist-core on Node 22 answers it, whatever Node runs the emulator
		expect(malformed.status).toBe(500);
		expect(malformed.json).toEqual({
			error: "Expected property name or '}' in JSON at position 1 (line 1 column 2)",
		});
		const twoLines = await api.get<ErrorBody>(rec(P, `?filter=${encodeURIComponent('{\r\n x')}`));
		expect(twoLines.json.error).toBe(
			"Expected property name or '}' in JSON at position 4 (line 2 column 2)",
		);
	});

	it('sort with options, limit, X-Sort/X-Limit headers and errors', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [
			{ Name: 'item10', Age: 3, Level: 'low' },
			{ Name: '', Age: 1, Level: 'high' },
			{ Name: 'item9', Age: 2, Level: 'mid' },
		]);
		const ids = async (qs: string, h?: Record<string, string>) =>
			(await api.get<RecordsBody>(rec(P, qs), h)).json.records.map((x) => x.id);
		expect(await ids('?sort=Name')).toEqual([2, 1, 3]); // empties first, plain string order
		expect(await ids('?sort=Name:emptyLast')).toEqual([1, 3, 2]);
		expect(await ids('?sort=Name:naturalSort;emptyLast')).toEqual([3, 1, 2]);
		expect(await ids('?sort=-Age')).toEqual([1, 3, 2]);
		expect(await ids('?sort=Level:orderByChoice')).toEqual([2, 3, 1]);
		expect(await ids('?sort=Level:choiceOrder')).toEqual([2, 1, 3]); // unknown option ignored
		expect(await ids('?sort=Age&limit=2')).toEqual([2, 3]);
		expect(await ids('?limit=0')).toEqual([1, 2, 3]);
		expect(await ids('', { 'X-Sort': '-Age', 'X-Limit': '1' })).toEqual([1]);
		const unknown = await api.get(rec(P, '?sort=Nope'));
		expect(unknown.status).toBe(500);
		expect(unknown.json).toEqual({ error: 'unknown key Nope' });
		const lim = await api.get(rec(P, '?limit=abc'));
		expect(lim.status).toBe(500);
		expect(lim.json).toEqual({ error: 'limit is not a number' });
	});

	it('formula errors: null plus errors in /records, raw in /data and typed', async () => {
		const { P } = freshTables();
		emu.addTable(docId, `${P}E`, [
			{ id: 'A', type: 'Numeric' },
			{ id: 'Bad', formula: '1/0' },
		]);
		emu.addRecords(docId, `${P}E`, [{ A: 1 }]);
		const r = await api.get<RecordsBody>(rec(`${P}E`));
		expect(r.json.records[0]).toEqual({
			id: 1,
			fields: { A: 1, Bad: null },
			errors: { Bad: 'ZeroDivisionError' },
		});
		const d = await api.get<Record<string, unknown[][]>>(`/api/docs/${docId}/tables/${P}E/data`);
		expect(d.json.Bad[0].slice(0, 2)).toEqual(['E', 'ZeroDivisionError']);
		const t = await api.get<RecordsBody>(rec(`${P}E`, '?cellFormat=typed'));
		expect((t.json.records[0].fields.Bad as unknown[]).slice(0, 2)).toEqual([
			'E',
			'ZeroDivisionError',
		]);
	});

	clock.it('NOW() uses the emulator clock', async () => {
		emu.addTable(docId, `Clock${n}`, [{ id: 'At', type: 'DateTime:UTC', formula: 'NOW()' }]);
		emu.addRecords(docId, `Clock${n}`, [{}]);
		emu.setClock(() => Date.UTC(2024, 0, 2, 3, 4, 5));
		try {
			expect((await api.get<RecordsBody>(rec(`Clock${n}`))).json.records[0].fields.At).toBe(
				Date.UTC(2024, 0, 2, 3, 4, 5) / 1000,
			);
		} finally {
			emu.setClock(() => Date.now());
		}
	});

	it('POST /records/list takes the query in the body', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [{ Age: 1 }, { Age: 2 }, { Age: 3 }]);
		const r = await api.post<RecordsBody>(rec(P, '/list'), {
			filter: { Age: [1, 3] },
			sort: ['-Age'],
			limit: 1,
		});
		expect(r.json.records.map((x) => x.id)).toEqual([3]);
	});

	it('POST /records/list takes a filter of 10,000 values in one body, hidden columns on request', async () => {
		const { P } = freshTables();
		const names = Array.from({ length: 10_000 }, (_, k) => `person${k}@example.com`);
		emu.addRecords(docId, P, [{ Name: names[0] }, { Name: 'other' }, { Name: names[9_999] }]);
		const r = await api.post<RecordsBody>(rec(P, '/list'), {
			filter: { Name: names },
			hidden: true,
		});
		expect(r.status).toBe(200);
		expect(r.json.records.map((x) => [x.id, x.fields.Name])).toEqual([
			[1, names[0]],
			[3, names[9_999]],
		]);
		expect(Object.keys(r.json.records[0].fields)).toContain('manualSort');
		const plain = await api.post<RecordsBody>(rec(P, '/list'), { filter: { Name: [names[0]] } });
		expect(Object.keys(plain.json.records[0].fields)).not.toContain('manualSort');
	});

	it("POST /records/list refuses what grist-core's payload check refuses", async () => {
		const { P } = freshTables();
		const sort = await api.post<ErrorBody>(rec(P, '/list'), { sort: '-Age' });
		expect(sort.status).toBe(400);
		expect(sort.json).toEqual({
			error: 'Invalid payload',
			details: { userError: 'Error: body.sort is not an array' },
		});
		const filter = await api.post<ErrorBody>(rec(P, '/list'), { filter: { Age: 1 } });
		expect(filter.status).toBe(400);
		expect(filter.json).toEqual({
			error: 'Invalid payload',
			details: { userError: 'Error: body.filter.Age is not an array' },
		});
		const unknown = await api.post<ErrorBody>(rec(P, '/list'), { filter: { Nope: [1] } });
		expect(unknown.status).toBe(400);
		expect(unknown.json.error).toBe("Error manipulating data: [Sandbox] KeyError 'Nope'");
	});

	it('unknown table is 404; viewers cannot write', async () => {
		const r = await api.get(rec('Nope'));
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ error: 'Table not found "Nope"' });
		const v = emu.addUser({ email: `v${n}@example.com`, apiKey: `viewer-${n}-0123456789` });
		emu.setAccess('doc', docId, v.email, 'viewers');
		const { P } = freshTables();
		const w = await client(emu, v.apiKey).post(rec(P), { records: [{}] });
		expect(w.status).toBe(403);
		expect(w.json).toEqual({ error: 'No write access' });
		expect((await client(emu, v.apiKey).get(rec(P))).status).toBe(200);
	});
});

describe('POST/PATCH/delete /records', () => {
	it('POST returns ids in order, parses strings unless noparse', async () => {
		const { P } = freshTables();
		const r = await api.post(rec(P), {
			records: [
				{ fields: { Name: 'Ann', Age: '42', Born: '2024-01-10', Team: 'Blue', Tags: 'a, b' } },
				{ fields: { Age: 'lots', Team: 'Green' } },
				{},
			],
		});
		expect(r.json).toEqual({ records: [{ id: 1 }, { id: 2 }, { id: 3 }] });
		const rows = emu.records(docId, P);
		expect(rows[0].fields).toMatchObject({
			Name: 'Ann',
			Age: 42,
			Born: 1704844800,
			Team: 2,
			Tags: ['L', 'a', 'b'],
		});
		expect(rows[1].fields).toMatchObject({ Age: 'lots', Team: 'Green' }); // alt text
		// fields the others name are null in a record without them (a Ref's null is stored as 0)
		expect(rows[2].fields).toMatchObject({ Name: null, Age: null, Team: 0 });
		await api.post(rec(P, '?noparse=1'), { records: [{ fields: { Age: '$7' } }] });
		expect(emu.records(docId, P)[3].fields.Age).toBe('$7');
		await api.post(rec(P, '?noparse=false'), { records: [{ fields: { Age: '$8' } }] });
		expect(emu.records(docId, P)[4].fields.Age).toBe(8);
	});

	it('parses Bool, Int, DateTime (column tz), RefList, Attachments, ChoiceList JSON; alt text on failure', async () => {
		const { Teams } = freshTables();
		const T = `Types${n}`;
		emu.addTable(docId, T, [
			{ id: 'B', type: 'Bool' },
			{ id: 'I', type: 'Int' },
			{ id: 'DT', type: 'DateTime:America/New_York' },
			{ id: 'RL', type: `RefList:${Teams}`, visibleCol: 'Title' },
			{ id: 'At', type: 'Attachments' },
			{ id: 'CL', type: 'ChoiceList' },
		]);
		// Attachments parse by row id of _grist_Attachments: the ids must exist in the document
		const att = [1, 2].map((i) =>
			emu.addAttachment(docId, { fileName: `a${i}.txt`, data: Buffer.from(`a${i}`) }),
		);
		await api.post(rec(T), {
			records: [
				{
					fields: {
						B: 'yes',
						I: '12',
						DT: '2024-01-10 09:30',
						RL: 'Red, Blue',
						At: att.join(','),
						CL: '["x","y"]',
					},
				},
				{
					fields: {
						B: 'maybe',
						I: '1.5',
						DT: '2024-07-01T12:00:00Z',
						RL: 'Red, Green',
						At: '',
						CL: '',
					},
				},
			],
		});
		const rows = emu.records(docId, T);
		expect(rows[0].fields).toEqual({
			B: true,
			I: 12,
			DT: Date.UTC(2024, 0, 10, 14, 30) / 1000, // 09:30 EST = 14:30 UTC
			RL: ['L', 1, 2],
			At: ['L', ...att],
			CL: ['L', 'x', 'y'],
		});
		expect(rows[1].fields).toEqual({
			B: 'maybe',
			I: 1, // the data engine's int(float('1.5'))
			DT: Date.UTC(2024, 6, 1, 12) / 1000,
			RL: 'Red, Green',
			At: null,
			CL: null,
		});
		const typed = await api.get<RecordsBody>(rec(T, '?cellFormat=typed&limit=1'));
		expect(typed.json.records[0].fields).toMatchObject({
			DT: ['D', Date.UTC(2024, 0, 10, 14, 30) / 1000, 'America/New_York'],
			RL: ['r', Teams, [1, 2]],
			At: ['r', '_grist_Attachments', att],
		});
		// an id without an attachment leaves the text as it is (measured on grist-core 1.7.17)
		const gone = Math.max(...att) + 1000;
		await api.post(rec(T), { records: [{ fields: { At: `${att[0]},${gone}` } }] });
		expect(emu.records(docId, T)[2].fields.At).toBe(`${att[0]},${gone}`);
	});

	it('POST errors: empty records, unknown column (atomic), formula column', async () => {
		const { P } = freshTables();
		const empty = await api.post<ErrorBody>(rec(P), { records: [] });
		expect(empty.status).toBe(400);
		expect(empty.json.error).toBe('Invalid payload');
		expect(empty.json.details?.userError).toMatch(/^Error: body\.records/);
		const missing = await api.post(rec(P), {});
		expect(missing.json).toEqual({
			error: 'Invalid payload',
			details: { userError: 'Error: body.records is missing' },
		});
		const bad = await api.post(rec(P), {
			records: [{ fields: { Name: 'ok' } }, { fields: { X: 1 } }],
		});
		expect(bad.status).toBe(400);
		expect(bad.json).toEqual({ error: 'Invalid column "X"' });
		expect(emu.records(docId, P)).toEqual([]);
		const f = await api.post<ErrorBody>(rec(P), { records: [{ fields: { Double: 3 } }] });
		expect(f.status).toBe(400);
		expect(f.json.error).toMatch(/^Error manipulating data: \[Sandbox\] /);
	});

	it('PATCH: same field set required, invalid row id, atomic', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [{ Name: 'A' }, { Name: 'B' }]);
		const ok = await api.patch(rec(P), {
			records: [
				{ id: 1, fields: { Age: 5 } },
				{ id: 2, fields: { Age: 6 } },
			],
		});
		expect(ok.status).toBe(200);
		expect(ok.json).toBeNull();
		expect(emu.records(docId, P).map((r) => r.fields.Age)).toEqual([5, 6]);
		const shape = await api.patch(rec(P), {
			records: [
				{ id: 1, fields: { Age: 1 } },
				{ id: 2, fields: { Name: 'x' } },
			],
		});
		expect(shape.status).toBe(400);
		expect(shape.json).toEqual({ error: 'PATCH requires all records to have same fields' });
		const badId = await api.patch(rec(P), {
			records: [
				{ id: 1, fields: { Age: 9 } },
				{ id: 99, fields: { Age: 9 } },
			],
		});
		expect(badId.status).toBe(400);
		expect(badId.json).toEqual({ error: 'Invalid row id 99' });
		expect(emu.records(docId, P).map((r) => r.fields.Age)).toEqual([5, 6]);
	});

	it('delete via /records/delete and /data/delete; ids reuse max+1', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [{ Name: 'A' }, { Name: 'B' }, { Name: 'C' }]);
		expect((await api.post(rec(P, '/delete'), [3])).json).toBeNull();
		const missing = await api.post(rec(P, '/delete'), [42]); // ids that do not exist are ignored
		expect([missing.status, missing.json]).toEqual([200, null]);
		expect(emu.records(docId, P).map((r) => r.id)).toEqual([1, 2]);
		expect((await api.post(rec(P), { records: [{}] })).json).toEqual({ records: [{ id: 3 }] });
		await api.post(`/api/docs/${docId}/tables/${P}/data/delete`, [1]);
		expect(emu.records(docId, P).map((r) => r.id)).toEqual([2, 3]);
	});
});

describe('PUT /records (upsert)', () => {
	const put = <T = unknown>(t: string, body: unknown, qs = '') => api.put<T>(rec(t, qs), body);

	it('adds, updates (onmany first/none/all) and reports ids', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [
			{ Name: 'A', Age: 1 },
			{ Name: 'B', Age: 1 },
			{ Name: 'B', Age: 2 },
		]);
		const r = await put(P, {
			records: [
				{ require: { Name: 'A' }, fields: { Age: 10 } },
				{ require: { Name: 'Z' }, fields: { Age: 99, Name: 'ZZ' } },
				{ require: { Name: 'B' }, fields: { Age: 20 } },
			],
		});
		expect(r.json).toEqual({
			recordIds: [[1], [4], [2]],
			addRecordIds: [4],
			updateRecordIds: [[1], [2]],
		});
		expect(emu.records(docId, P).map((x) => [x.fields.Name, x.fields.Age])).toEqual([
			['A', 10],
			['B', 20],
			['B', 2],
			['ZZ', 99],
		]);
		await put(P, { records: [{ require: { Name: 'B' }, fields: { Age: 0 } }] }, '?onmany=none');
		expect(emu.records(docId, P)[1].fields.Age).toBe(20);
		const all = await put<ActionBody>(
			P,
			{ records: [{ require: { Name: 'B' }, fields: { Age: 7 } }] },
			'?onmany=all',
		);
		expect(all.json.recordIds).toEqual([[2, 3]]);
		expect(
			emu
				.records(docId, P)
				.filter((x) => x.fields.Name === 'B')
				.map((x) => x.fields.Age),
		).toEqual([7, 7]);
		const bad = await put(P, { records: [{ require: { Name: 'B' } }] }, '?onmany=foo');
		expect(bad.json).toEqual({ error: 'onmany parameter foo should be one of first,none,all' });
	});

	it('noadd, noupdate, require.id, empty require, duplicates, unknown column', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [{ Name: 'A' }]);
		await put(P, { records: [{ require: { Name: 'Q' }, fields: { Age: 1 } }] }, '?noadd=1');
		expect(emu.records(docId, P)).toHaveLength(1);
		await put(P, { records: [{ require: { Name: 'A' }, fields: { Age: 1 } }] }, '?noupdate=true');
		expect(emu.records(docId, P)[0].fields.Age).toBe(0);
		const withId = await put<ActionBody>(P, {
			records: [{ require: { id: 10 }, fields: { Name: 'Ten' } }],
		});
		expect(withId.json.addRecordIds).toEqual([10]);
		expect(emu.records(docId, P).map((r) => r.id)).toEqual([1, 10]);
		const empty = await put<ErrorBody>(P, { records: [{ require: {}, fields: { Age: 3 } }] });
		expect(empty.status).toBe(400);
		expect(empty.json.error).toContain(
			"ValueError require is empty but allow_empty_require isn't set",
		);
		await put(
			P,
			{ records: [{ require: {}, fields: { Age: 3 } }] },
			'?allow_empty_require=1&onmany=all',
		);
		expect(emu.records(docId, P).map((r) => r.fields.Age)).toEqual([3, 3]);
		const dup = await put<ErrorBody>(P, {
			records: [
				{ require: { Name: 'D' }, fields: { Age: 1 } },
				{ require: { Name: 'D' }, fields: { Age: 2 } },
			],
		});
		expect(dup.status).toBe(400);
		expect(dup.json.error).toContain('require values must be unique');
		const unknown = await put(P, { records: [{ require: { Nope: 1 } }] });
		expect(unknown.json).toEqual({ error: 'Invalid column "Nope"' });
		expect(emu.records(docId, P)).toHaveLength(2);
	});

	it('groups by shape: a later group sees rows added by an earlier one', async () => {
		const { P } = freshTables();
		const r = await put<ActionBody>(P, {
			records: [
				{ require: { Name: 'N' }, fields: { Age: 1 } },
				{ require: { Name: 'N' }, fields: { Born: 0 } },
			],
		});
		expect(r.json.recordIds).toEqual([[1], [1]]);
		expect(emu.records(docId, P)).toHaveLength(1);
	});

	it('require strings are parsed like fields (Ref via visible column)', async () => {
		const { P } = freshTables();
		emu.addRecords(docId, P, [{ Name: 'A', Team: 1 }]);
		const r = await put<ActionBody>(P, {
			records: [{ require: { Team: 'Red' }, fields: { Age: 5 } }],
		});
		expect(r.json.updateRecordIds).toEqual([[1]]);
	});
});

describe('/data (columnar)', () => {
	it('GET includes hidden columns; POST/PATCH round trip', async () => {
		const { P } = freshTables();
		const ids = await api.post(`/api/docs/${docId}/tables/${P}/data`, {
			Name: ['x', 'y'],
			Age: [1, 2],
		});
		expect(ids.json).toEqual([1, 2]);
		expect(
			(await api.patch(`/api/docs/${docId}/tables/${P}/data`, { id: [2], Age: [5] })).json,
		).toBeNull();
		const d = await api.get(`/api/docs/${docId}/tables/${P}/data`);
		expect(d.json).toMatchObject({
			id: [1, 2],
			manualSort: [1, 2],
			Name: ['x', 'y'],
			Age: [1, 5],
			Double: [2, 10],
		});
	});
});

describe('tables and columns', () => {
	summarySeed.it('GET /tables lists tables with fields; POST/PATCH tables', async () => {
		const created = await api.post(`/api/docs/${docId}/tables`, {
			tables: [
				{ id: 'people', columns: [{ id: 'Name', fields: { type: 'Text', label: 'Full name' } }] },
			],
		});
		expect(created.json).toEqual({ tables: [{ id: 'People' }] });
		const list = await api.get<TablesBody>(`/api/docs/${docId}/tables`);
		const people = list.json.tables.find((t) => t.id === 'People')!;
		expect(Object.keys(people.fields).sort()).toEqual(
			[
				'onDemand',
				'primaryViewId',
				'rawViewSectionRef',
				'recordCardViewSectionRef',
				'summarySourceTable',
				'tableRef',
			].sort(),
		);
		expect(people.fields.summarySourceTable).toBe(0);
		const expanded = await api.get<TablesBody>(`/api/docs/${docId}/tables?expand=column`);
		expect(expanded.json.tables.find((t) => t.id === 'People')?.columns.map((c) => c.id)).toEqual([
			'Name',
		]);
		emu.addTable(docId, 'People_summary_Name', [{ id: 'Name' }, { id: 'count', type: 'Int' }], {
			summarySourceTable: 'People',
		});
		const withSummary = await api.get<TablesBody>(`/api/docs/${docId}/tables`);
		const summary = withSummary.json.tables.find((t) => t.id === 'People_summary_Name')!;
		expect(summary.fields.summarySourceTable).toBe(people.fields.tableRef);
		const missing = await api.patch(`/api/docs/${docId}/tables`, {
			tables: [{ id: 'Nope', fields: {} }],
		});
		expect(missing.status).toBe(404);
	});

	it('columns: GET (hidden), POST, PATCH (rename), PUT, DELETE', async () => {
		const { P } = freshTables();
		const base = `/api/docs/${docId}/tables/${P}/columns`;
		const cols = await api.get<ColumnsBody>(base);
		expect(cols.json.columns.map((c) => c.id)).toEqual([
			'Name',
			'Age',
			'Born',
			'Team',
			'Tags',
			'Level',
			'Double',
		]);
		const tags = cols.json.columns.find((c) => c.id === 'Tags')?.fields;
		expect(tags).toMatchObject({
			type: 'ChoiceList',
			widgetOptions: '{"choices":["a","b"]}',
			isFormula: false,
			formula: '',
			label: 'Tags',
		});
		expect(cols.json.columns.find((c) => c.id === 'Double')?.fields).toMatchObject({
			isFormula: true,
			formula: '$Age * 2',
		});
		const hidden = await api.get<ColumnsBody>(`${base}?hidden=1`);
		expect(hidden.json.columns.map((c) => c.id)).toContain('manualSort');
		const added = await api.post(base, {
			columns: [
				{ id: 'Notes', fields: { type: 'Text' } },
				{ id: 'Name', fields: {} },
			],
		});
		expect(added.json).toEqual({ columns: [{ id: 'Notes' }, { id: 'Name2' }] });
		expect(
			(
				await api.patch(base, {
					columns: [{ id: 'Notes', fields: { colId: 'Memo', label: 'Memo' } }],
				})
			).json,
		).toBeNull();
		const missing = await api.patch(base, { columns: [{ id: 'Nope', fields: { label: 'x' } }] });
		expect(missing.status).toBe(404);
		expect(missing.json).toEqual({ error: 'Column not found "Nope"' });
		await api.put(`${base}?replaceall=1`, {
			columns: [
				{ id: 'Name', fields: {} },
				{ id: 'Memo', fields: {} },
				{ id: 'New', fields: { type: 'Int' } },
			],
		});
		// GET /columns follows the metadata cache's row order: New is added last, then removing
		// Age, Born, Team, Tags, Level, Double and Name2 each moves the last row into its place
		// (TableData.onRemoveRecord), so New lands before Memo (measured on grist-core 1.7.17)
		expect((await api.get<ColumnsBody>(base)).json.columns.map((c) => c.id)).toEqual([
			'Name',
			'New',
			'Memo',
		]);
		expect((await api.del(`${base}/Memo`)).json).toBeNull();
		const gone = await api.del(`${base}/Memo`);
		expect(gone.status).toBe(404);
		expect(gone.json).toEqual({ error: `Table or column not found "${P}.Memo"` });
	});

	it('writing to an empty formula column turns it into a data column', async () => {
		const { P } = freshTables();
		await api.post(`/api/docs/${docId}/tables/${P}/columns`, {
			columns: [{ id: 'Empty', fields: {} }],
		});
		const col = async () =>
			(await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${P}/columns`)).json.columns.find(
				(c) => c.id === 'Empty',
			)?.fields;
		expect(await col()).toMatchObject({ type: 'Any', isFormula: true, formula: '' });
		await api.post(rec(P), { records: [{ fields: { Empty: 'v' } }] });
		expect((await col())?.isFormula).toBe(false);
		expect(emu.records(docId, P)[0].fields.Empty).toBe('v');
	});
});

describe('POST /apply (user actions subset)', () => {
	it('applies actions in order, returns retValues, and is atomic', async () => {
		const base = `/api/docs/${docId}/apply`;
		const r = await api.post<ActionBody>(base, [
			['AddTable', 'Scratch', [{ id: 'A', type: 'Numeric', isFormula: false }]],
			['BulkAddRecord', 'Scratch', [null, null], { A: [1, '2'] }],
			['UpdateRecord', 'Scratch', 1, { A: 5 }],
		]);
		expect(r.status).toBe(200);
		expect(r.json.retValues.slice(1)).toEqual([[1, 2], null]);
		expect(r.json.retValues[0]).toMatchObject({ table_id: 'Scratch', columns: ['A'] });
		expect(emu.records(docId, 'Scratch').map((x) => x.fields.A)).toEqual([5, 2]);
		const bad = await api.post<ErrorBody>(base, [
			['AddRecord', 'Scratch', null, { A: 9 }],
			['UpdateRecord', 'Scratch', 99, { A: 1 }],
		]);
		expect(bad.status).toBe(500);
		expect(bad.json.error).toBe(
			'[Sandbox] AssertionError docactions.[Bulk]UpdateRecord for non-existent record #99',
		);
		expect(emu.records(docId, 'Scratch')).toHaveLength(2);
		expect((await api.post(base, [['RemoveTable', 'Scratch']])).status).toBe(200);
		expect((await api.get(rec('Scratch'))).status).toBe(404);
	});
});

describe('payload details', () => {
	it('PATCH /columns also requires the same field set', async () => {
		const { P } = freshTables();
		const r = await api.patch(`/api/docs/${docId}/tables/${P}/columns`, {
			columns: [
				{ id: 'Name', fields: { label: 'N' } },
				{ id: 'Age', fields: { type: 'Int' } },
			],
		});
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ error: 'PATCH requires all records to have same fields' });
	});

	it('a non-JSON body is treated as {} (body.records is missing)', async () => {
		const { P } = freshTables();
		const r = await api.call('POST', rec(P), undefined, { 'Content-Type': 'text/plain' });
		expect(r.status).toBe(400);
		expect(r.json).toEqual({
			error: 'Invalid payload',
			details: { userError: 'Error: body.records is missing' },
		});
	});
});

/**
 * What GET /columns says about a Reference column's shown column (Options → Add Reference Display
 * Values relies on it): `visibleCol` is the colRef of the referenced table's shown column as POST
 * /columns set it; POST /tables drops it; `displayCol` stays 0 for columns made through the REST
 * API (only Grist's web client adds the display helper column; measured on grist-core 1.7.17).
 */
describe('Reference columns: visibleCol and displayCol', () => {
	const columnsOf = async (table: string) =>
		(await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${table}/columns`)).json.columns;

	it('visibleCol names the shown column by colRef; POST /tables drops it; displayCol stays 0', async () => {
		const made = await api.post(`/api/docs/${docId}/tables`, {
			tables: [
				{
					id: 'RcClients',
					columns: [
						{ id: 'Name', fields: { type: 'Text' } },
						{ id: 'Email', fields: { type: 'Text' } },
					],
				},
			],
		});
		expect(made.status).toBe(200);
		const email = (await columnsOf('RcClients')).find((c) => c.id === 'Email')!;
		const emailRef = email.fields.colRef as number;
		expect(typeof emailRef).toBe('number');

		const deals = await api.post(`/api/docs/${docId}/tables`, {
			tables: [
				{
					id: 'RcDeals',
					columns: [{ id: 'Client', fields: { type: 'Ref:RcClients', visibleCol: emailRef } }],
				},
			],
		});
		expect(deals.status).toBe(200);
		const added = await api.post(`/api/docs/${docId}/tables/RcDeals/columns`, {
			columns: [
				{ id: 'Shown', fields: { type: 'Ref:RcClients', visibleCol: emailRef } },
				{ id: 'Many', fields: { type: 'RefList:RcClients', visibleCol: emailRef } },
			],
		});
		expect(added.status).toBe(200);
		const fields = Object.fromEntries(
			(await columnsOf('RcDeals')).map((c) => [
				c.id,
				{ type: c.fields.type, visibleCol: c.fields.visibleCol, displayCol: c.fields.displayCol },
			]),
		);
		expect(fields).toEqual({
			Client: { type: 'Ref:RcClients', visibleCol: 0, displayCol: 0 },
			Shown: { type: 'Ref:RcClients', visibleCol: emailRef, displayCol: 0 },
			Many: { type: 'RefList:RcClients', visibleCol: emailRef, displayCol: 0 },
		});
	});
});
