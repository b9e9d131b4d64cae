/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test: runs the sqlite3 CLI on a downloaded file */
/** Emulator: trash and restore of docs and workspaces, copy, .grist download, import of CSV/XLSX/.grist. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '../harness/until';
import { realGrist } from '../harness/target';
import { startEmulator, type DemoSite, type GristEmulator } from './index';
import { client, type ErrorBody, type RecordsBody, type Workspace } from './testutil';
import { buildXlsx } from './zip';

let emu: GristEmulator;
let demo: DemoSite;
let api: ReturnType<typeof client>;

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
	api = client(emu, demo.apiKey);
});
afterAll(() => emu.close());

function importFile(name: string, data: Buffer, wid = demo.workspaceId, documentName?: string) {
	const form = new FormData();
	form.append('upload', new Blob([new Uint8Array(data)]), name);
	if (documentName) form.append('documentName', documentName);
	return fetch(`${emu.url}/api/workspaces/${wid}/import`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${demo.apiKey}` },
		body: form,
	});
}

async function columnTypes(docId: string, tableId: string): Promise<Record<string, string>> {
	const res = await api.get<{ columns: Array<{ id: string; fields: { type: string } }> }>(
		`/api/docs/${docId}/tables/${tableId}/columns`,
	);
	return Object.fromEntries(res.json.columns.map((c) => [c.id, c.fields.type]));
}

/**
 * The status of GET `path` once Grist's doc-auth cache has let go: unremove does not flush it
 * (ApiServer's /unremove routes; HomeDBManager caches a document's access, including `removed`,
 * for GRIST_TEST_DOC_AUTH_CACHE_TTL, 5 s by default), so a document read while in the trash
 * still answers 404 `Document is deleted` for up to 5 s after its restore (measured on grist-core
 * 1.7.17). The emulator has that cache only when started with `docAuthCacheMs` (below); here it
 * answers at once.
 */
async function statusAfterAuthCache(path: string): Promise<number> {
	return await waitFor(
		`GET ${path} answers something else than 404 (the doc-auth cache let go)`,
		async () => (await api.get(path)).status,
		(status) => status !== 404,
		{ timeoutMs: 6000, intervalMs: 250 },
	);
}

describe('trash and restore', () => {
	it('a document in the trash is listed only with showRemoved, 404 elsewhere, and comes back', async () => {
		const docId = (
			await api.post<string>(`/api/workspaces/${demo.workspace2Id}/docs`, { name: 'Tmp' })
		).json;
		const rm = await api.post(`/api/docs/${docId}/remove`);
		expect([rm.status, rm.json]).toEqual([200, null]);
		const ws = await api.get<Workspace>(`/api/workspaces/${demo.workspace2Id}`);
		expect(ws.json.docs.map((d) => d.id)).not.toContain(docId);
		const trash = await api.get<Workspace & { docs: Array<{ id: string; removedAt?: string }> }>(
			`/api/workspaces/${demo.workspace2Id}?showRemoved=1`,
		);
		expect(trash.json.docs.map((d) => d.id)).toEqual([docId]);
		expect(typeof trash.json.docs[0].removedAt).toBe('string');
		const meta = await api.get<ErrorBody>(`/api/docs/${docId}`);
		expect([meta.status, meta.json.error]).toEqual([404, 'document not found']);
		const tables = await api.get<ErrorBody>(`/api/docs/${docId}/tables`);
		expect([tables.status, tables.json.error]).toEqual([404, 'Document is deleted']);
		const un = await api.post(`/api/docs/${docId}/unremove`);
		expect([un.status, un.json]).toEqual([200, null]);
		expect(await statusAfterAuthCache(`/api/docs/${docId}/tables`)).toBe(200);
		// restoring what is not in the trash: a no-op, as in grist-core
		expect((await api.post(`/api/docs/${docId}/unremove`)).status).toBe(200);
		// a viewer may not trash it
		const viewer = client(emu, demo.viewerApiKey);
		const denied = await viewer.post<ErrorBody>(`/api/docs/${docId}/remove`);
		expect([denied.status, denied.json.error]).toEqual([403, 'No write access']);
	});

	it('a workspace in the trash hides its documents; restore brings both back; permanent removes', async () => {
		const wid = (await api.post<number>(`/api/orgs/${demo.orgId}/workspaces`, { name: 'Old' }))
			.json;
		const docId = (await api.post<string>(`/api/workspaces/${wid}/docs`, { name: 'In old' })).json;
		expect((await api.post(`/api/workspaces/${wid}/remove`)).status).toBe(200);
		const list = await api.get<Workspace[]>(`/api/orgs/${demo.orgId}/workspaces`);
		expect(list.json.map((w) => w.id)).not.toContain(wid);
		const trash = await api.get<Workspace[]>(`/api/orgs/${demo.orgId}/workspaces?showRemoved=1`);
		expect(trash.json.find((w) => w.id === wid)?.docs.map((d) => d.id)).toEqual([docId]);
		expect((await api.get(`/api/workspaces/${wid}`)).status).toBe(404);
		const add = await api.post<ErrorBody>(`/api/workspaces/${wid}/docs`, { name: 'x' });
		expect([add.status, add.json.error]).toEqual([
			400,
			'Cannot add document to a deleted workspace',
		]);
		expect((await api.get<ErrorBody>(`/api/docs/${docId}/tables`)).json.error).toBe(
			'Document is deleted',
		);
		expect((await api.post(`/api/workspaces/${wid}/unremove`)).status).toBe(200);
		expect(await statusAfterAuthCache(`/api/docs/${docId}/tables`)).toBe(200);
		const perm = await api.post(`/api/workspaces/${wid}/remove?permanent=1`);
		expect([perm.status, perm.json]).toEqual([200, wid]);
		expect((await api.get(`/api/docs/${docId}`)).status).toBe(404);
	});
});

describe("the home server's doc-auth cache (emulator: docAuthCacheMs; grist-core: 5 s)", () => {
	// grist-core's TTL is GRIST_TEST_DOC_AUTH_CACHE_TTL (5000 ms by default); the emulator's is short
	const TTL = realGrist ? 5000 : 600;
	let cached: GristEmulator;
	let site: DemoSite;
	let owner: ReturnType<typeof client>;
	beforeAll(async () => {
		cached = await startEmulator({ docAuthCacheMs: TTL });
		site = cached.seedDemo();
		owner = client(cached, site.apiKey);
	});
	afterAll(() => cached.close());

	const newDoc = async (wid: number) =>
		(await owner.post<string>(`/api/workspaces/${wid}/docs`, { name: 'Cached' })).json;
	const tables = async (docId: string) => {
		const r = await owner.get<ErrorBody>(`/api/docs/${docId}/tables`);
		return r.status === 200 ? 200 : `${r.status} ${r.json.error}`;
	};
	const backAfterCache = async (docId: string) =>
		await waitFor(
			`the restored document ${docId} answers 200 once the cache let go`,
			async () => await tables(docId),
			(answer) => answer === 200,
			{ timeoutMs: TTL + 1000, intervalMs: 100 },
		);

	it('a document read while in the trash answers 404 Document is deleted after its restore, until its entry expires', async () => {
		const docId = await newDoc(site.workspace2Id);
		expect((await owner.post(`/api/docs/${docId}/remove`)).status).toBe(200);
		expect(await tables(docId)).toBe('404 Document is deleted');
		expect((await owner.post(`/api/docs/${docId}/unremove`)).status).toBe(200);
		expect(await tables(docId)).toBe('404 Document is deleted');
		expect(await backAfterCache(docId)).toBe(200);
	});

	it('GET /api/docs/{docId} refreshes the entry; removing a document flushes it', async () => {
		const docId = await newDoc(site.workspace2Id);
		expect(await tables(docId)).toBe(200); // cached: not in the trash
		expect((await owner.post(`/api/docs/${docId}/remove`)).status).toBe(200);
		expect(await tables(docId)).toBe('404 Document is deleted'); // flushed by the remove
		expect((await owner.post(`/api/docs/${docId}/unremove`)).status).toBe(200);
		expect((await owner.get(`/api/docs/${docId}`)).status).toBe(200);
		expect(await tables(docId)).toBe(200); // refreshed by the home read
	});

	it("the documents of a restored workspace: the same; the workspace's routes flush nothing", async () => {
		const wid = (
			await owner.post<number>(`/api/orgs/${site.orgId}/workspaces`, { name: 'Cached ws' })
		).json;
		const docId = await newDoc(wid);
		expect((await owner.post(`/api/workspaces/${wid}/remove`)).status).toBe(200);
		expect(await tables(docId)).toBe('404 Document is deleted');
		expect((await owner.post(`/api/workspaces/${wid}/unremove`)).status).toBe(200);
		expect((await owner.get(`/api/workspaces/${wid}`)).status).toBe(200);
		expect(await tables(docId)).toBe('404 Document is deleted');
		expect(await backAfterCache(docId)).toBe(200);
	});
});

describe('copy', () => {
	it('copies tables with data, or as a template without rows', async () => {
		const full = await api.post<string>(`/api/docs/${demo.docId}/copy`, {
			workspaceId: demo.workspace2Id,
			documentName: 'CRM copy',
		});
		expect(full.status).toBe(200);
		const tpl = await api.post<string>(`/api/docs/${demo.docId}/copy`, {
			workspaceId: demo.workspace2Id,
			documentName: 'CRM template',
			asTemplate: true,
		});
		const src = await api.get<RecordsBody>(`/api/docs/${demo.docId}/tables/Customers/records`);
		const copied = await api.get<RecordsBody>(`/api/docs/${full.json}/tables/Customers/records`);
		expect(copied.json.records).toEqual(src.json.records);
		const empty = await api.get<RecordsBody>(`/api/docs/${tpl.json}/tables/Customers/records`);
		expect(empty.json.records).toEqual([]);
		expect(await columnTypes(tpl.json, 'Customers')).toEqual(
			await columnTypes(demo.docId, 'Customers'),
		);
		expect((await api.get<{ name: string }>(`/api/docs/${tpl.json}`)).json.name).toBe(
			'CRM template',
		);
		// a copy is independent of its source
		await api.post(`/api/docs/${full.json}/tables/Customers/records`, {
			records: [{ fields: {} }],
		});
		expect(
			(await api.get<RecordsBody>(`/api/docs/${demo.docId}/tables/Customers/records`)).json.records,
		).toHaveLength(src.json.records.length);
	});

	it('refuses a workspace without write access or that does not exist', async () => {
		const viewer = client(emu, demo.viewerApiKey);
		const denied = await viewer.post<ErrorBody>(`/api/docs/${demo.docId}/copy`, {
			workspaceId: demo.workspace2Id,
			documentName: 'x',
		});
		expect([denied.status, denied.json.error]).toEqual([403, 'access denied']);
		const missing = await api.post<ErrorBody>(`/api/docs/${demo.docId}/copy`, {
			workspaceId: 99999,
			documentName: 'x',
		});
		expect([missing.status, missing.json.error]).toEqual([404, 'workspace not found']);
	});
});

describe('.grist download', () => {
	it('is a SQLite file that sqlite3 opens, with the rows (none as a template)', async () => {
		const res = await fetch(`${emu.url}/api/docs/${demo.docId}/download?nohistory=1`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/x-sqlite3');
		expect(res.headers.get('content-disposition')).toBe('attachment; filename="CRM.grist"');
		const data = Buffer.from(await res.arrayBuffer());
		expect(data.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
		const dir = mkdtempSync(path.join(tmpdir(), 'grist-dl-'));
		const file = path.join(dir, 'crm.grist');
		writeFileSync(file, data);
		const count = execFileSync('sqlite3', [file, 'select count(*) from Customers'])
			.toString()
			.trim();
		const src = await api.get<RecordsBody>(`/api/docs/${demo.docId}/tables/Customers/records`);
		expect(Number(count)).toBe(src.json.records.length);
		const tables = execFileSync('sqlite3', [file, 'select tableId from _grist_Tables order by id'])
			.toString()
			.trim()
			.split('\n');
		expect(tables).toEqual(['Customers', 'Orders']);
		const tpl = await fetch(`${emu.url}/api/docs/${demo.docId}/download?template=1`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		writeFileSync(file, Buffer.from(await tpl.arrayBuffer()));
		expect(
			execFileSync('sqlite3', [file, 'select count(*) from Customers']).toString().trim(),
		).toBe('0');
	});
});

describe('import', () => {
	it('a CSV becomes a new document with guessed column types', async () => {
		const csv =
			'Name,Amount,Paid,Due,Note\nAcme,12.5,true,2024-01-31,\n"Beta, Inc",7,false,2024-02-01,\n';
		const res = await importFile('clients.csv', Buffer.from(csv), demo.workspaceId, 'Clients 2024');
		expect(res.status).toBe(200);
		const body = (await res.json()) as { id: string; title: string };
		expect(body.title).toBe('clients');
		expect((await api.get<{ name: string }>(`/api/docs/${body.id}`)).json.name).toBe(
			'Clients 2024',
		);
		const types = await columnTypes(body.id, 'Clients');
		expect(types).toEqual({
			Name: 'Text',
			Amount: 'Numeric',
			Paid: 'Bool',
			Due: 'Date',
			Note: 'Any',
		});
		const recs = await api.get<RecordsBody>(`/api/docs/${body.id}/tables/Clients/records`);
		expect(recs.json.records.map((r) => r.fields)).toEqual([
			{ Name: 'Acme', Amount: 12.5, Paid: true, Due: 1706659200, Note: null },
			{ Name: 'Beta, Inc', Amount: 7, Paid: false, Due: 1706745600, Note: null },
		]);
	});

	it('an XLSX becomes one table per sheet, typed cells kept', async () => {
		const xlsx = buildXlsx([
			{
				name: 'People',
				rows: [
					['Name', 'Age'],
					['Ann', 31],
					['Bob', 45],
				],
			},
			{ name: 'Notes', rows: [['Text'], ['hello']] },
		]);
		const res = await importFile('book.xlsx', xlsx);
		expect(res.status).toBe(200);
		const { id } = (await res.json()) as { id: string };
		expect(await columnTypes(id, 'People')).toEqual({ Name: 'Text', Age: 'Numeric' });
		const recs = await api.get<RecordsBody>(`/api/docs/${id}/tables/People/records`);
		expect(recs.json.records.map((r) => r.fields)).toEqual([
			{ Name: 'Ann', Age: 31 },
			{ Name: 'Bob', Age: 45 },
		]);
		expect(
			(await api.get<RecordsBody>(`/api/docs/${id}/tables/Notes/records`)).json.records,
		).toHaveLength(1);
	});

	it('a .grist backup imports back as a document with the same rows', async () => {
		const dl = await fetch(`${emu.url}/api/docs/${demo.docId}/download`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		const res = await importFile('CRM.grist', Buffer.from(await dl.arrayBuffer()));
		expect(res.status).toBe(200);
		const { id } = (await res.json()) as { id: string };
		const a = await api.get<RecordsBody>(`/api/docs/${demo.docId}/tables/Orders/records`);
		const b = await api.get<RecordsBody>(`/api/docs/${id}/tables/Orders/records`);
		expect(b.json.records.map((r) => r.id)).toEqual(a.json.records.map((r) => r.id));
	});

	it('a file Grist cannot read is 400 with the parser message; the document created before reading it stays, without tables, and the error does not name it (as in grist-core)', async () => {
		const docsNow = async () =>
			(await api.get<Workspace>(`/api/workspaces/${demo.workspaceId}`)).json.docs;
		const before = new Set((await docsNow()).map((d) => d.id));
		const bad = await importFile('broken.xlsx', Buffer.from('not a zip'));
		expect(bad.status).toBe(400);
		const badBody = (await bad.json()) as ErrorBody;
		expect(badBody.error).toMatch(/^Failed to parse Excel file\.\nError: /);
		expect(JSON.stringify(badBody)).not.toMatch(/"id"|docId/);
		const odd = await importFile('picture.png', Buffer.from([1, 2, 3]), demo.workspaceId, 'Named');
		expect(((await odd.json()) as ErrorBody).error).toBe('File format is not supported.');
		const left = (await docsNow()).filter((d) => !before.has(d.id));
		expect(left.map((d) => d.name).sort()).toEqual(['Named', 'broken']);
		for (const d of left) {
			const tables = await api.get<{ tables: unknown[] }>(`/api/docs/${d.id}/tables`);
			expect(tables.json.tables).toEqual([]);
		}
	});

	it('a bad .grist file leaves a document that cannot be opened: 500 NO_METADATA_ERROR on the routes that open it, until it is deleted', async () => {
		const docsNow = async () =>
			(await api.get<Workspace>(`/api/workspaces/${demo.workspaceId}`)).json.docs;
		const before = new Set((await docsNow()).map((d) => d.id));
		const bad = await importFile('broken.grist', Buffer.from('not a SQLite file'));
		expect(bad.status).toBe(400);
		expect(JSON.stringify(await bad.json())).not.toMatch(/"id"|docId/);
		const left = (await docsNow()).filter((d) => !before.has(d.id));
		expect(left.map((d) => d.name)).toEqual(['broken']);
		const id = left[0].id;
		// the home database has it; opening it fails, and fails again
		expect((await api.get<{ name: string }>(`/api/docs/${id}`)).json.name).toBe('broken');
		for (const path of [
			`/api/docs/${id}/tables`,
			`/api/docs/${id}/tables`,
			`/api/docs/${id}/sql`,
		]) {
			const res = await api.get<ErrorBody>(`${path}${path.endsWith('sql') ? '?q=select+1' : ''}`);
			expect([res.status, res.json.error]).toEqual([
				500,
				`NO_METADATA_ERROR: ${id} has no metadata`,
			]);
		}
		const records = await api.get<ErrorBody>(`/api/docs/${id}/tables/Table1/records`);
		expect([records.status, records.json.error]).toEqual([
			500,
			`NO_METADATA_ERROR: ${id} has no metadata`,
		]);
		// deleting it does not open it
		const del = await api.del<string>(`/api/docs/${id}`);
		expect([del.status, del.json]).toEqual([200, id]);
		expect((await api.get(`/api/docs/${id}`)).status).toBe(404);
	});

	it("CSV is read as Python's csv module reads it: an unterminated quote runs to the end, blank lines are rows, an empty column is Any", async () => {
		// import_csv.py (csv.reader, not strict): `"x,1\n` at the end of the file is one field
		// holding the rest; the header's column b without values is an Any data column
		const quote = await importFile('q.csv', Buffer.from('a,b\n"x,1\n'));
		expect(quote.status).toBe(200);
		const q = ((await quote.json()) as { id: string }).id;
		const cols = await api.get<{
			columns: Array<{ id: string; fields: { type: string; isFormula: boolean } }>;
		}>(`/api/docs/${q}/tables/Q/columns`);
		expect(cols.json.columns.map((c) => [c.id, c.fields.type, c.fields.isFormula])).toEqual([
			['a', 'Text', false],
			['b', 'Any', false],
		]);
		const rows = await api.get<RecordsBody>(`/api/docs/${q}/tables/Q/records`);
		expect(rows.json.records).toEqual([{ id: 1, fields: { a: 'x,1\n', b: null } }]);
		const odd = await importFile('odd.csv', Buffer.from('a,b\n"ab"c,2\nd"e,3\n\n'));
		const o = ((await odd.json()) as { id: string }).id;
		const oddRows = await api.get<RecordsBody>(`/api/docs/${o}/tables/Odd/records`);
		expect(oddRows.json.records.map((r) => r.fields)).toEqual([
			{ a: 'abc', b: 2 },
			{ a: 'd"e', b: 3 },
			{ a: '', b: null },
		]);
	});
});
