/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test: opens the downloaded .grist with the sqlite3 CLI */
/**
 * Document and workspace lifecycle (copy, .grist backup, import, trash and restore, Apply
 * Actions) run through n8n-core (test harness level b) against the emulator.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { DemoSite, GristEmulator } from '../emulator';
import { buildXlsx } from '../emulator/zip';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const runDoc = resourceRunner(fx, 'document');
const runWs = resourceRunner(fx, 'workspace');

function file(content: Buffer | string, fileName: string, mimeType: string) {
	const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
	return { data: data.toString('base64'), mimeType, fileName };
}

async function records(docId: string, tableId: string) {
	const res = await fetch(`${emu.url}/api/docs/${docId}/tables/${tableId}/records`, {
		headers: { Authorization: `Bearer ${demo.apiKey}` },
	});
	return ((await res.json()) as { records: Array<{ id: number; fields: Record<string, unknown> }> })
		.records;
}

describe('document copy', () => {
	it('copies with data into the picked workspace and returns the new document', async () => {
		const { items, error } = await runDoc({
			operation: 'copy',
			document: rl('id', demo.docId),
			destinationWorkspace: rl('id', String(demo.workspace2Id)),
			name: 'CRM – client A',
		});
		expect(error).toBeUndefined();
		const doc = items[0].json;
		expect(doc).toMatchObject({ name: 'CRM – client A', workspace: { id: demo.workspace2Id } });
		expect(requests()).toEqual([
			`POST /o/demo/api/docs/${demo.docId}/copy`,
			`GET /o/demo/api/docs/${doc.id}`,
		]);
		expect(emu.log[0].body).toEqual({
			workspaceId: demo.workspace2Id,
			documentName: 'CRM – client A',
			asTemplate: false,
		});
		expect(await records(String(doc.id), 'Customers')).toEqual(
			await records(demo.docId, 'Customers'),
		);
	});

	it('as a template: structure without records', async () => {
		const { items, error } = await runDoc({
			operation: 'copy',
			document: rl('id', demo.docId),
			destinationWorkspace: rl('id', String(demo.workspaceId)),
			name: 'CRM template',
			copyMode: 'template',
		});
		expect(error).toBeUndefined();
		expect(emu.log[0].body).toMatchObject({ asTemplate: true });
		expect(await records(String(items[0].json.id), 'Customers')).toEqual([]);
	});

	it('a workspace without write access: Grist says access denied, the hint names the field', async () => {
		const { error } = await runDoc(
			{
				operation: 'copy',
				document: rl('id', demo.docId),
				destinationWorkspace: rl('id', String(demo.workspace2Id)),
				name: 'X',
			},
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toContain('Access denied');
		expect(error?.description).toContain(`Destination Workspace (${demo.workspace2Id})`);
	});

	it('an empty name is refused before any request, naming the item', async () => {
		const { error } = await runDoc(
			{
				operation: 'copy',
				document: rl('id', demo.docId),
				destinationWorkspace: rl('id', String(demo.workspace2Id)),
				name: '={{ $json.name }}',
			},
			{ input: [{ json: { name: 'ok' } }, { json: { name: ' ' } }] },
		);
		expect(error?.message).toBe('The Name is empty');
		expect((error as unknown as { context?: { itemIndex?: number } })?.context?.itemIndex).toBe(1);
		expect(requests().filter((r) => r.startsWith('POST'))).toHaveLength(1);
	});
});

describe('document downloadBackup', () => {
	it('the whole document as a .grist file that opens as SQLite, with name and MIME type', async () => {
		const result = await runDoc({
			operation: 'downloadBackup',
			document: rl('id', demo.docId),
			options: { nohistory: true },
		});
		expect(result.error).toBeUndefined();
		const item = result.items[0];
		expect(item.json).toMatchObject({
			documentId: demo.docId,
			fileName: 'CRM.grist',
			mimeType: 'application/x-sqlite3',
			withoutHistory: true,
			template: false,
		});
		expect(item.binary?.data).toMatchObject({ fileName: 'CRM.grist', fileExtension: 'grist' });
		expect(emu.log[0].path).toBe(`/o/demo/api/docs/${demo.docId}/download`);
		expect(emu.log[0].query).toEqual({ nohistory: '1' });
		const bytes = await result.binary(0, 'data');
		expect(item.json.fileSize).toBe(bytes.length);
		const dir = mkdtempSync(path.join(tmpdir(), 'grist-backup-'));
		const dbFile = path.join(dir, 'crm.grist');
		writeFileSync(dbFile, bytes);
		const count = execFileSync('sqlite3', [dbFile, 'select count(*) from Customers']).toString();
		expect(Number(count)).toBe((await records(demo.docId, 'Customers')).length);
	});

	it('as a template with its own file name into its own binary field', async () => {
		const result = await runDoc({
			operation: 'downloadBackup',
			document: rl('id', demo.docId),
			binaryPropertyName: 'backup',
			options: { template: true, fileName: 'crm-structure' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.backup?.fileName).toBe('crm-structure.grist');
		expect(emu.log[0].query).toEqual({ template: '1' });
	});

	it('a document in the trash: Grist\'s "Document is deleted", under Continue On Fail as an item', async () => {
		const id = emu.addDoc(demo.workspaceId, { name: 'Gone soon' }).id;
		await runDoc({ operation: 'moveToTrash', document: rl('id', id) });
		const { items, error } = await runDoc(
			{ operation: 'downloadBackup', document: rl('id', id) },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ httpCode: '404' });
		expect(String(items[0].json.error)).toContain('Document is deleted');
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('document importFile', () => {
	it('a CSV from a binary field becomes a new document, with its ID and URL', async () => {
		const csv = 'Name,Amount\nAcme,12.5\nBeta,7\n';
		const { items, error } = await runDoc(
			{
				operation: 'importFile',
				workspace: rl('id', String(demo.workspace2Id)),
				documentName: 'Clients',
			},
			{ input: [{ json: {}, binary: { data: file(csv, 'clients.csv', 'text/csv') } }] },
		);
		expect(error).toBeUndefined();
		const doc = items[0].json;
		expect(doc).toMatchObject({
			name: 'Clients',
			workspace: { id: demo.workspace2Id },
			fileName: 'clients.csv',
			url: `${fx.site}/doc/${String(doc.id)}`,
		});
		expect(requests()).toEqual([
			`GET /o/demo/api/workspaces/${demo.workspace2Id}`,
			`POST /o/demo/api/workspaces/${demo.workspace2Id}/import`,
			`GET /o/demo/api/docs/${String(doc.id)}`,
		]);
		expect(emu.log[1].body).toEqual({
			files: [{ field: 'upload', fileName: 'clients.csv', size: csv.length }],
			fields: { documentName: 'Clients' },
		});
		expect((await records(String(doc.id), 'Clients')).map((r) => r.fields)).toEqual([
			{ Name: 'Acme', Amount: 12.5 },
			{ Name: 'Beta', Amount: 7 },
		]);
	});

	it('an XLSX without a name: the document is named after the file', async () => {
		const xlsx = buildXlsx([{ name: 'People', rows: [['Name'], ['Ann']] }]);
		const mime = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
		const { items, error } = await runDoc(
			{ operation: 'importFile', workspace: rl('id', String(demo.workspaceId)) },
			{ input: [{ json: {}, binary: { data: file(xlsx, 'team.xlsx', mime) } }] },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.name).toBe('team');
		expect(await records(String(items[0].json.id), 'People')).toHaveLength(1);
	});

	it("a file Grist cannot read: Grist's message, a hint naming the binary field, and the empty document Grist created is deleted", async () => {
		const docsOf = async (wid: number) =>
			(
				(await (
					await fetch(`${emu.url}/api/workspaces/${wid}`, {
						headers: { Authorization: `Bearer ${demo.apiKey}` },
					})
				).json()) as { docs: Array<{ id: string; name: string }> }
			).docs;
		const before = await docsOf(demo.workspaceId);
		emu.clearLog();
		const { error } = await runDoc(
			{ operation: 'importFile', workspace: rl('id', String(demo.workspaceId)) },
			{ input: [{ json: {}, binary: { data: file('garbage', 'book.xlsx', 'application/zip') } }] },
		);
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toContain('Failed to parse Excel file');
		expect(error?.description).toContain('"book.xlsx" of the binary field "data"');
		expect(error?.description).toMatch(
			/Grist had created the document "book" \(ID \w+\) in workspace \d+ before reading the file; this empty document was deleted, so nothing is left behind\./,
		);
		const left = emu.log.find((e) => e.method === 'DELETE')!;
		expect(requests()).toEqual([
			`GET /o/demo/api/workspaces/${demo.workspaceId}`,
			`POST /o/demo/api/workspaces/${demo.workspaceId}/import`,
			`GET /o/demo/api/workspaces/${demo.workspaceId}`,
			`GET ${left.path}/tables`,
			`DELETE ${left.path}`,
		]);
		expect((await docsOf(demo.workspaceId)).map((d) => d.id)).toEqual(before.map((d) => d.id));
	});

	it('never deletes a document the workspace had before, nor one with tables; names what it cannot delete', async () => {
		// a document of the same name existed before: kept; the new empty one goes
		const mine = await runDoc(
			{
				operation: 'importFile',
				workspace: rl('id', String(demo.workspace2Id)),
				documentName: 'Same',
			},
			{ input: [{ json: {}, binary: { data: file('a,b\n1,2\n', 'ok.csv', 'text/csv') } }] },
		);
		expect(mine.error).toBeUndefined();
		emu.clearLog();
		const failed = await runDoc(
			{
				operation: 'importFile',
				workspace: rl('id', String(demo.workspace2Id)),
				documentName: 'Same',
			},
			{ input: [{ json: {}, binary: { data: file('x', 'bad.png', 'image/png') } }] },
		);
		expect(failed.error?.message).toBe('File format is not supported.');
		expect(failed.error?.description).toMatch(/"Same" \(ID \w+\).*was deleted/);
		const deleted = emu.log.filter((e) => e.method === 'DELETE');
		expect(deleted).toHaveLength(1);
		expect(deleted[0].path).not.toContain(String(mine.items[0].json.id));
		const kept = await fetch(`${emu.url}/api/docs/${String(mine.items[0].json.id)}`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		expect(kept.status).toBe(200);
		// when the deletion fails, the error names the document left behind
		emu.clearLog();
		emu.fault({
			method: 'DELETE',
			path: /\/api\/docs\//,
			status: 500,
			body: { error: 'disk busy' },
		});
		const stuck = await runDoc(
			{ operation: 'importFile', workspace: rl('id', String(demo.workspace2Id)) },
			{ input: [{ json: {}, binary: { data: file('x', 'stuck.png', 'image/png') } }] },
		);
		emu.clearFaults();
		expect(stuck.error?.description).toMatch(
			/Grist created the document "stuck" \(ID (\w+)\) in workspace \d+ before reading the file, and it could not be deleted \(.*\): delete it in Grist\./,
		);
		const stuckId = /ID (\w+)/.exec(stuck.error?.description ?? '')![1];
		const still = await fetch(`${emu.url}/api/docs/${stuckId}`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		expect(still.status).toBe(200);
	});

	it('a bad .grist file: the document Grist left cannot be opened (NO_METADATA_ERROR) and is deleted', async () => {
		const { error } = await runDoc(
			{ operation: 'importFile', workspace: rl('id', String(demo.workspaceId)) },
			{
				input: [
					{
						json: {},
						binary: { data: file('not SQLite', 'backup.grist', 'application/x-sqlite3') },
					},
				],
			},
		);
		expect(error?.httpCode).toBe('400');
		expect(error?.description).toMatch(
			/Grist had created the document "backup" \(ID \w+\) in workspace \d+ before reading the file; this document, which Grist cannot open, was deleted, so nothing is left behind\./,
		);
		const id = /ID (\w+)/.exec(error?.description ?? '')![1];
		const tables = emu.log.find((e) => e.path.endsWith(`/docs/${id}/tables`));
		expect(tables?.status).toBe(500);
		expect(requests().slice(-2)).toEqual([
			`GET /o/demo/api/docs/${id}/tables`,
			`DELETE /o/demo/api/docs/${id}`,
		]);
		const gone = await fetch(`${emu.url}/api/docs/${id}`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		expect(gone.status).toBe(404);
	});

	it.each([
		[
			'a failing server (500)',
			{ status: 500, body: { error: 'database is locked' } },
			/\(Database is locked\)/,
		],
		["a proxy without Grist's answer (502)", { status: 502 }, /\(Injected fault \(502\)\)/],
		['no access (403)', { status: 403, body: { error: 'No view access' } }, /\(No view access\)/],
		[
			"Grist's unopenable-document text with another status",
			{ status: 400, body: { error: 'NO_METADATA_ERROR: x has no metadata' } },
			/\(NO_METADATA_ERROR: x has no metadata\)/,
		],
		[
			'a broken connection',
			{ drop: true, times: 6 },
			/\(The connection to the Grist server at .+ broke before its answer arrived: ECONNRESET: socket hang up\)/,
		],
	])(
		'reading the tables of the document Grist left fails otherwise, %s: it is kept, and the error names it and why',
		async (_what, fault, reason) => {
			emu.fault({ method: 'GET', path: /\/tables$/, ...fault });
			const { error } = await runDoc(
				{ operation: 'importFile', workspace: rl('id', String(demo.workspaceId)) },
				{ input: [{ json: {}, binary: { data: file('x', 'kept.xlsx', 'application/zip') } }] },
			);
			emu.clearFaults();
			expect(error?.httpCode).toBe('400');
			expect(error?.message).toContain('Failed to parse Excel file');
			const description = error?.description ?? '';
			expect(description).toMatch(
				/Grist created the document "kept" \(ID \w+\) in workspace \d+ before reading the file\. It was kept, as reading its tables to check that it is empty failed \(.+\): look at it in Grist and delete it if it is empty\./,
			);
			expect(description).toMatch(reason);
			expect(emu.log.filter((e) => e.method === 'DELETE')).toEqual([]);
			const id = /ID (\w+)/.exec(description)![1];
			const kept = await fetch(`${emu.url}/api/docs/${id}`, {
				headers: { Authorization: `Bearer ${demo.apiKey}` },
			});
			expect(kept.status).toBe(200);
			await fetch(`${emu.url}/api/docs/${id}`, {
				method: 'DELETE',
				headers: { Authorization: `Bearer ${demo.apiKey}` },
			});
		},
	);

	it('a missing binary field is refused before the request, naming the item', async () => {
		const { error } = await runDoc(
			{ operation: 'importFile', workspace: rl('id', String(demo.workspaceId)) },
			{ input: [{ json: {} }] },
		);
		expect(error?.message).toBe('Item 0 has no binary field "data" (Input Binary Field)');
		expect(emu.log).toHaveLength(0);
	});
});

describe('trash and restore', () => {
	it('document: Move to Trash, then Restore brings it back', async () => {
		const id = emu.addDoc(demo.workspaceId, { name: 'Old report', owner: demo.email }).id;
		const trashed = await runDoc({ operation: 'moveToTrash', document: rl('id', id) });
		expect(trashed.error).toBeUndefined();
		expect(trashed.items[0].json).toEqual({ id, inTrash: true });
		expect(requests()).toEqual([`POST /o/demo/api/docs/${id}/remove`]);
		emu.clearLog();
		const restored = await runDoc({ operation: 'restore', document: rl('id', id) });
		expect(restored.error).toBeUndefined();
		expect(restored.items[0].json).toMatchObject({ id, name: 'Old report' });
		expect(requests()).toEqual([
			`GET /o/demo/api/docs/${id}`,
			`POST /o/demo/api/docs/${id}/unremove`,
			`GET /o/demo/api/docs/${id}`,
		]);
		expect(emu.log[0].query).toEqual({ showRemoved: '1' });
	});

	it('document Get Many with In Trash lists the trashed documents (workspace and site)', async () => {
		const ws = emu.addWorkspace(demo.orgId, 'Trash check');
		const id = emu.addDoc(ws.id, { name: 'Binned' }).id;
		const none = await runDoc({
			operation: 'getAll',
			scope: 'workspace',
			workspace: rl('id', String(ws.id)),
			returnAll: true,
			filters: { inTrash: true },
		});
		expect(none.error).toBeUndefined();
		expect(none.items).toHaveLength(0);
		await runDoc({ operation: 'moveToTrash', document: rl('id', id) });
		emu.clearLog();
		const inWs = await runDoc({
			operation: 'getAll',
			scope: 'workspace',
			workspace: rl('id', String(ws.id)),
			returnAll: true,
			filters: { inTrash: true },
		});
		expect(inWs.items.map((i) => i.json.id)).toEqual([id]);
		expect(typeof inWs.items[0].json.removedAt).toBe('string');
		expect(emu.log[0].query).toEqual({ showRemoved: '1' });
		const inSite = await runDoc({
			operation: 'getAll',
			scope: 'org',
			org: rl('list', ''),
			returnAll: true,
			filters: { inTrash: true },
		});
		// (an earlier test trashed another document of the site)
		expect(inSite.items.map((i) => i.json.id)).toContain(id);
		expect(inSite.items.every((i) => typeof i.json.removedAt === 'string')).toBe(true);
		const active = await runDoc({
			operation: 'getAll',
			scope: 'workspace',
			workspace: rl('id', String(ws.id)),
			returnAll: true,
		});
		expect(active.items).toHaveLength(0);
		const missing = await runDoc({
			operation: 'getAll',
			scope: 'workspace',
			workspace: rl('id', '99999'),
			returnAll: true,
			filters: { inTrash: true },
		});
		expect(missing.error?.httpCode).toBe('404');
	});

	it('document: restoring one that is not in the trash is a clear error, nothing sent', async () => {
		const { error } = await runDoc({ operation: 'restore', document: rl('id', demo.docId) });
		expect(error?.message).toBe(`The document "${demo.docId}" is not in the trash (item 0)`);
		expect(requests().some((r) => r.includes('unremove'))).toBe(false);
		const missing = await runDoc({ operation: 'restore', document: rl('id', 'NoSuchDoc') });
		expect(missing.error?.message).toBe(
			'The document "NoSuchDoc" is not in the trash and was not found (item 0)',
		);
	});

	it("document: a viewer cannot move it to the trash (Grist's message)", async () => {
		const { error } = await runDoc(
			{ operation: 'moveToTrash', document: rl('id', demo.doc2Id) },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
	});

	it('workspace: Move to Trash, then Restore; restoring an active one is an error', async () => {
		const ws = emu.addWorkspace(demo.orgId, 'Archive 2023');
		emu.addDoc(ws.id, { name: 'Inside' });
		const trashed = await runWs({ operation: 'moveToTrash', workspace: rl('id', String(ws.id)) });
		expect(trashed.error).toBeUndefined();
		expect(trashed.items[0].json).toEqual({ id: ws.id, inTrash: true });
		expect(requests()).toEqual([`POST /o/demo/api/workspaces/${ws.id}/remove`]);
		emu.clearLog();
		const restored = await runWs({ operation: 'restore', workspace: rl('id', String(ws.id)) });
		expect(restored.error).toBeUndefined();
		expect(restored.items[0].json).toMatchObject({ id: ws.id, name: ws.name });
		expect((restored.items[0].json.docs as Array<{ name: string }>).map((d) => d.name)).toEqual([
			'Inside',
		]);
		expect(requests()).toEqual([
			`GET /o/demo/api/workspaces/${ws.id}`,
			`POST /o/demo/api/workspaces/${ws.id}/unremove`,
			`GET /o/demo/api/workspaces/${ws.id}`,
		]);
		emu.clearLog();
		const again = await runWs({ operation: 'restore', workspace: rl('id', String(ws.id)) });
		expect(again.error?.message).toBe(`The workspace ${ws.id} is not in the trash (item 0)`);
		expect(requests()).toEqual([`GET /o/demo/api/workspaces/${ws.id}`]);
	});
});

describe('document applyActions', () => {
	it("sends the user actions as they are and returns Grist's answer", async () => {
		const { items, error } = await runDoc({
			operation: 'applyActions',
			document: rl('id', demo.doc2Id),
			userActions:
				'[["AddTable", "Notes", [{"id": "Text", "type": "Text"}]], ["AddRecord", "Notes", null, {"Text": "hi"}]]',
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ documentId: demo.doc2Id });
		expect((items[0].json.retValues as unknown[]).length).toBe(2);
		expect(requests()).toEqual([`POST /o/demo/api/docs/${demo.doc2Id}/apply`]);
		expect(emu.log[0].query).toEqual({});
		expect((await records(demo.doc2Id, 'Notes')).map((r) => r.fields)).toEqual([{ Text: 'hi' }]);
	});

	it('Parse Strings off sends noparse', async () => {
		const { error } = await runDoc({
			operation: 'applyActions',
			document: rl('id', demo.doc2Id),
			userActions: '[["AddRecord", "Notes", null, {"Text": "x"}]]',
			options: { parseStrings: false },
		});
		expect(error).toBeUndefined();
		expect(emu.log[0].query).toEqual({ noparse: '1' });
	});

	it('malformed actions are refused before the request, naming the field, item and action', async () => {
		const { error } = await runDoc(
			{
				operation: 'applyActions',
				document: rl('id', demo.doc2Id),
				userActions: '={{ $json.actions }}',
			},
			{ input: [{ json: { actions: '[["RemoveTable", "Notes"], {"oops": 1}]' } }] },
		);
		expect(error?.message).toMatch(
			/^User Actions \(JSON\) in item 0: action 2 \(\{"oops":1\}\) is not a list that starts with the action's name/,
		);
		const bad = await runDoc({
			operation: 'applyActions',
			document: rl('id', demo.doc2Id),
			userActions: '[["AddRecord", ',
		});
		expect(bad.error?.message).toMatch(/^User Actions \(JSON\) in item 0: it is not valid JSON/);
		expect(emu.log).toHaveLength(0);
	});

	it("an action Grist refuses: Grist's error text passed through", async () => {
		const { error } = await runDoc({
			operation: 'applyActions',
			document: rl('id', demo.doc2Id),
			userActions: '[["NoSuchAction", "Notes"]]',
		});
		// grist-core 1.7.17 refuses an unknown action name before the data engine (GranularAccess)
		expect(error?.message).toContain(
			"Blocked by access rules: 'NoSuchAction' actions are not controlled",
		);
	});
});
