/**
 * The archive and store operations of Attachment (Download All, Restore From Archive, Remove
 * Unused, Get Store, Set Store, Get Stores, Transfer All, Get Transfer Status) and Export Table's
 * TSV, DSV and Table Schema, run by n8n-core against the emulator (and a real Grist with
 * `npm run test:real`): exact requests, archive contents, the round trip into a document whose
 * files are missing, Grist's errors turned into what to do, Continue On Fail and paired items.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { DemoSite, GristEmulator } from '../emulator';
import { tarFiles, untarFiles } from '../emulator/tar';
import { unzip } from '../emulator/zip';
import { importWithFilesElsewhere } from '../harness/attachment-store';
import { byId } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { waitFor } from '../harness/until';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let site: string;

const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest('hex');
const TEXT = 'hello world';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let wsId: number;
/** A document with two attachments: a.txt in a cell, b.png in none. */
let docId: string;
let usedId: number;
let unusedId: number;

beforeAll(() => {
	({ emu, demo, site } = fx);
	wsId = emu.addWorkspace(demo.orgId, 'Attachment archives').id;
	docId = emu.addDoc(wsId, { name: 'Files' }).id;
	emu.addTable(docId, 'Notes', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Files', type: 'Attachments' },
	]);
	usedId = emu.addAttachment(docId, { fileName: 'a.txt', data: Buffer.from(TEXT) });
	unusedId = emu.addAttachment(docId, { fileName: 'b.png', data: PNG });
	emu.addRecords(docId, 'Notes', [{ Name: 'first', Files: ['L', usedId] }]);
});
beforeEach(() => emu.clearFaults());

const run = resourceRunner(fx, 'attachment', { defaults: () => ({ document: byId(docId) }) });
const runDocument = resourceRunner(fx, 'document');
const calls = () => emu.log.map((e) => `${e.method} ${e.apiPath}`);
const att = (id: string, rest = '') => `/api/docs/${id}/attachments${rest}`;

/** A fresh document holding the same attachments as `docId`, their files missing. */
async function docLackingFiles(name: string): Promise<string> {
	const id = await importWithFilesElsewhere(site, demo.apiKey, docId, wsId, name);
	emu.clearLog();
	return id;
}

function tarItem(data: Buffer, fileName: string) {
	return { json: {}, binary: { data: file(data, fileName, 'application/x-tar') } };
}

function file(data: Buffer, fileName: string, mimeType: string) {
	return { data: data.toString('base64'), mimeType, fileName };
}

async function downloadArchive(format: 'tar' | 'zip'): Promise<Buffer> {
	const r = await run({ operation: 'downloadAll', archiveFormat: format });
	expect(r.error).toBeUndefined();
	return await r.binary(0, 'data');
}

describe('Download All', () => {
	it('downloads every file as a TAR, each named <sha1>_<name>', async () => {
		const r = await run({ operation: 'downloadAll' });
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(1);
		const tar = await r.binary(0, 'data');
		expect(r.items[0].json).toEqual({
			documentId: docId,
			format: 'tar',
			fileName: 'Files-Attachments.tar',
			mimeType: 'application/x-tar',
			fileSize: tar.length,
		});
		expect(r.items[0].pairedItem).toEqual({ item: 0 });
		expect(untarFiles(tar).map((e) => [e.name, e.data.toString('hex')])).toEqual([
			[`${sha1(TEXT)}_a.txt`, Buffer.from(TEXT).toString('hex')],
			[`${sha1(PNG)}_b.png`, PNG.toString('hex')],
		]);
		expect(calls()).toEqual([`GET ${att(docId, '/archive')}`]);
		expect(emu.log[0].query).toEqual({ format: 'tar' });
	});

	it('downloads a ZIP under the File Name given, into the field named', async () => {
		const r = await run({
			operation: 'downloadAll',
			archiveFormat: 'zip',
			binaryPropertyName: 'archive',
			options: { fileName: 'backup.zip' },
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({
			format: 'zip',
			fileName: 'backup.zip',
			mimeType: 'application/zip',
		});
		const entries = unzip(await r.binary(0, 'archive'));
		expect([...entries.keys()]).toEqual([`${sha1(TEXT)}_a.txt`, `${sha1(PNG)}_b.png`]);
		expect(entries.get(`${sha1(PNG)}_b.png`)).toEqual(PNG);
		expect(emu.log[0].query).toEqual({ format: 'zip' });
	});

	it('with Continue On Fail, an unknown document gives an error item and the next item its archive', async () => {
		const r = await run(
			{ operation: 'downloadAll', document: byId('={{ $json.doc }}') },
			{
				input: [{ json: { doc: 'NoSuchDoc12345' } }, { json: { doc: docId } }],
				continueOnFail: true,
			},
		);
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(2);
		expect(r.items[0].json.error).toBe('Document not found');
		expect(r.items[0].pairedItem).toEqual({ item: 0 });
		expect(r.items[1].json.fileName).toBe('Files-Attachments.tar');
		expect(r.items[1].pairedItem).toEqual({ item: 1 });
		expect(untarFiles(await r.binary(1, 'data'))).toHaveLength(2);
	});
});

describe('Restore From Archive', () => {
	it('puts back the files a document lacks, then finds nothing more to add', async () => {
		const tar = await downloadArchive('tar');
		const lacking = await docLackingFiles('Files without files');
		const status = await run({ operation: 'getTransferStatus', document: byId(lacking) });
		expect(status.items[0].json.locationSummary).toBe('external');
		emu.clearLog();

		const r = await run(
			{ operation: 'restoreFromArchive', document: byId(lacking) },
			{ input: [tarItem(tar, 'Files-Attachments.tar')] },
		);
		expect(r.error).toBeUndefined();
		expect(r.items).toEqual([
			{
				json: {
					documentId: lacking,
					fileName: 'Files-Attachments.tar',
					added: 2,
					errored: 0,
					unused: 0,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(emu.log.map((e) => [e.method, e.apiPath, e.body])).toEqual([
			[
				'POST',
				att(lacking, '/archive'),
				{
					files: [{ field: 'upload', fileName: 'Files-Attachments.tar', size: tar.length }],
					fields: {},
				},
			],
		]);
		expect(emu.attachmentData(lacking, usedId)?.toString()).toBe(TEXT);
		expect(emu.attachmentData(lacking, unusedId)).toEqual(PNG);

		const again = await run(
			{ operation: 'restoreFromArchive', document: byId(lacking) },
			{ input: [tarItem(tar, 'Files-Attachments.tar')] },
		);
		expect(again.items[0].json).toMatchObject({ added: 0, errored: 0, unused: 2 });
	});

	it('counts a file whose bytes do not match its name as errored', async () => {
		const lacking = await docLackingFiles('Files with a wrong file');
		const tar = tarFiles([
			{ name: `${sha1(TEXT)}_a.txt`, data: Buffer.from('not the same bytes') },
			{ name: `${sha1(PNG)}_b.png`, data: PNG },
		]);
		const r = await run(
			{ operation: 'restoreFromArchive', document: byId(lacking) },
			{ input: [tarItem(tar, 'mixed.tar')] },
		);
		expect(r.items[0].json).toMatchObject({ added: 1, errored: 1, unused: 0 });
		expect(emu.attachmentData(lacking, unusedId)).toEqual(PNG);
	});

	it("turns Grist's answer to a ZIP into what to do", async () => {
		const zip = await downloadArchive('zip');
		emu.clearLog();
		const r = await run(
			{ operation: 'restoreFromArchive' },
			{
				input: [
					{ json: {}, binary: { data: file(zip, 'Files-Attachments.zip', 'application/zip') } },
				],
			},
		);
		expect(r.error?.message).toBe('No .tar file found in request');
		expect(r.error?.httpCode).toBe('400');
		expect(r.error?.description).toBe(
			'Grist restores attachments only from a .tar archive, and "Files-Attachments.zip" (binary field "data") is not one. Use the file Attachment → Download All makes with Format: TAR; a ZIP archive cannot be restored.',
		);
		expect(calls()).toEqual([`POST ${att(docId, '/archive')}`]);
	});

	it.each([
		['cut short', (tar: Buffer) => tar.subarray(0, 700), 'File is not a valid .tar'],
		[
			'another kind of file',
			() => Buffer.from('x'.repeat(3000)),
			'Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?',
		],
	])('explains a .tar that is %s', async (_what, make, message) => {
		const tar = make(await downloadArchive('tar'));
		emu.clearLog();
		const r = await run(
			{ operation: 'restoreFromArchive' },
			{ input: [tarItem(tar, 'broken.tar')] },
		);
		expect(r.error?.message).toBe(message);
		expect(r.error?.httpCode).toBe('500');
		expect(r.error?.description).toBe(
			'"broken.tar" (binary field "data") is named .tar but is not a complete tar archive (cut short, or another kind of file renamed). Use the file Attachment → Download All made with Format: TAR, unchanged.',
		);
	});

	it('sends a .TAR file as a .tar of type application/x-tar', async () => {
		const tar = await downloadArchive('tar');
		emu.clearLog();
		const r = await run(
			{ operation: 'restoreFromArchive' },
			{
				input: [
					{ json: {}, binary: { data: file(tar, 'BACKUP.TAR', 'application/octet-stream') } },
				],
			},
		);
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ fileName: 'BACKUP.TAR', added: 0, unused: 2 });
		expect(emu.log[0].body).toMatchObject({ files: [{ fileName: 'BACKUP.tar' }] });
	});

	it('names a missing binary field before any request; Continue On Fail goes on with the next item', async () => {
		const tar = await downloadArchive('tar');
		emu.clearLog();
		const r = await run(
			{ operation: 'restoreFromArchive' },
			{ input: [{ json: {} }, tarItem(tar, 'a.tar')], continueOnFail: true },
		);
		expect(r.error).toBeUndefined();
		expect(r.items[0]).toEqual({
			json: {
				error: 'Item 0 has no binary field "data" (Input Binary Field)',
				description:
					'Check the Input Binary Field: it must name a binary field of the item that holds the .tar archive, e.g. the output of Attachment → Download All or Read/Write Files from Disk.',
			},
			pairedItem: { item: 0 },
		});
		expect(r.items[1]).toMatchObject({ json: { added: 0, unused: 2 }, pairedItem: { item: 1 } });
		expect(calls()).toEqual([`POST ${att(docId, '/archive')}`]);
	});

	it('a viewer is refused: the Owner role is needed', async () => {
		const tar = await downloadArchive('tar');
		emu.clearLog();
		const r = await run(
			{ operation: 'restoreFromArchive', document: byId(demo.docId) },
			{ input: [tarItem(tar, 'a.tar')], apiKey: demo.viewerApiKey },
		);
		expect(r.error?.httpCode).toBe('403');
		expect(r.error?.description).toMatch(
			/Restoring attachments needs the Owner role on the document\.$/,
		);
	});
});

describe('Remove Unused', () => {
	it('with Only Unused for 7 Days, removes nothing just found unused', async () => {
		const r = await run({ operation: 'removeUnused', options: { expiredOnly: true } });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toEqual({
			documentId: docId,
			removedCount: 0,
			removed: [],
			remainingCount: 2,
		});
		expect(emu.log.map((e) => [e.method, e.apiPath, e.query])).toEqual([
			['GET', att(docId), {}],
			['POST', att(docId, '/removeUnused'), { expiredonly: '1' }],
			['GET', att(docId), {}],
		]);
	});

	it('removes the attachments no cell refers to and names them', async () => {
		const lacking = await docLackingFiles('Files to clean');
		const r = await run({
			operation: 'removeUnused',
			document: byId(lacking),
			options: { verifyFiles: true },
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toEqual({
			documentId: lacking,
			removedCount: 1,
			removed: [
				{ id: unusedId, fileName: 'b.png', fileSize: PNG.length, timeUploaded: expect.any(String) },
			],
			remainingCount: 1,
		});
		expect(emu.log[1].query).toEqual({ verifyfiles: '1' });
	});
});

describe('stores', () => {
	it('Get Store: internal', async () => {
		const r = await run({ operation: 'getStore' });
		expect(r.items[0].json).toEqual({ documentId: docId, type: 'internal' });
		expect(calls()).toEqual([`GET ${att(docId, '/store')}`]);
	});

	it('Get Stores: none on a server without an external store', async () => {
		const r = await run({ operation: 'getStores' });
		expect(r.items[0].json).toEqual({ documentId: docId, stores: [], externalAvailable: false });
		expect(calls()).toEqual([`GET ${att(docId, '/stores')}`]);
	});

	it('Set Store → External is refused when the server has no external store, before setting it', async () => {
		const r = await run({ operation: 'setStore', storeType: 'external' });
		expect(r.error?.message).toBe('This Grist server has no external attachment store (item 0)');
		expect(r.error?.description).toContain(
			`every later upload to document "${docId}" would then fail`,
		);
		expect(calls()).toEqual([`GET ${att(docId, '/stores')}`]);
	});

	it('Set Store → Internal', async () => {
		const r = await run({ operation: 'setStore', storeType: 'internal' });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toEqual({ documentId: docId, type: 'internal', storeId: null });
		expect(emu.log.map((e) => [e.method, e.apiPath, e.body])).toEqual([
			['POST', att(docId, '/store'), { type: 'internal' }],
		]);
	});

	it('Transfer All and Get Transfer Status: nothing to move when the files are where they belong', async () => {
		const t = await run({ operation: 'transferAll' });
		const s = await run({ operation: 'getTransferStatus' });
		const expected = {
			documentId: docId,
			pendingTransferCount: 0,
			isRunning: false,
			successes: 0,
			failures: 0,
			locationSummary: 'internal',
		};
		expect(t.items[0].json).toEqual(expected);
		expect(s.items[0].json).toEqual(expected);
		expect(calls()).toEqual([
			`POST ${att(docId, '/transferAll')}`,
			`GET ${att(docId, '/transferStatus')}`,
		]);
	});

	it('Transfer All of files in a store the server lacks: every move fails, the files stay', async () => {
		const doc = await docLackingFiles('Files to move');
		// the imported files are in the store "gone-snapshots"; the document's store is internal
		const t = await run({ operation: 'transferAll', document: byId(doc) });
		expect(t.error).toBeUndefined();
		expect(t.items[0].json).toMatchObject({ documentId: doc, successes: 0 });
		const done = await waitFor(
			'the transfer to end',
			async () =>
				(await run({ operation: 'getTransferStatus', document: byId(doc) })).items[0].json,
			(s) => s.isRunning === false,
		);
		expect(done).toEqual({
			documentId: doc,
			pendingTransferCount: 0,
			isRunning: false,
			successes: 0,
			failures: 2,
			locationSummary: 'external',
		});
	});

	it('Get Store of a document Grist cannot find: its message', async () => {
		const r = await run({ operation: 'getStore', document: byId('NoSuchDoc12345') });
		expect(r.error?.message).toBe('Document not found');
		expect(r.error?.httpCode).toBe('404');
	});

	it('an upload to a document set to an external store the server lacks is explained', async () => {
		const auth = { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' };
		const set = (type: string) =>
			fetch(`${site}/api/docs/${docId}/attachments/store`, {
				method: 'POST',
				headers: auth,
				body: JSON.stringify({ type }),
			});
		expect((await set('external')).status).toBe(200);
		try {
			const g = await run({ operation: 'getStore' });
			expect(g.items[0].json.type).toBe('external');
			const r = await run(
				{ operation: 'upload' },
				{ input: [{ json: {}, binary: { data: file(Buffer.from('x'), 'x.txt', 'text/plain') } }] },
			);
			expect(r.error?.message).toMatch(/^Store '.+' is not a valid and available store$/);
			expect(r.error?.description).toBe(
				'The document keeps new attachments in an external store that this Grist server does not have. Set it back with Attachment → Set Store → Internal (an owner can), or ask the server admin to set up the external store.',
			);
		} finally {
			expect((await set('internal')).status).toBe(200);
		}
	});
});

describe('Export Table: TSV, DSV, Table Schema', () => {
	const exportTable = (parameters: IDataObject) =>
		runDocument({
			operation: 'exportTable',
			document: byId(demo.docId),
			table: byId('Customers'),
			...parameters,
		});

	it.each([
		['tsv', '\t', 'text/tab-separated-values'],
		['dsv', '💩', 'text/x-doo-separated-values'],
	])('%s: the table with its delimiter, named by Grist', async (format, delimiter, mimeType) => {
		const r = await exportTable({ format });
		expect(r.error).toBeUndefined();
		const text = (await r.binary(0, 'data')).toString('utf8');
		expect(r.items[0].json).toEqual({
			documentId: demo.docId,
			tableId: 'Customers',
			fileName: `CRM-Customers.${format}`,
			mimeType,
			fileSize: Buffer.byteLength(text),
		});
		const lines = text.trim().split(/\r?\n/);
		expect(lines[0]).toBe(['Name', 'Email', 'Country', 'Since'].join(delimiter));
		expect(lines).toHaveLength(4);
		expect(lines[1]).toContain(['Alice Martin', 'alice@example.com', 'France'].join(delimiter));
		expect(emu.log.map((e) => [e.apiPath, e.query])).toEqual([
			[`/api/docs/${demo.docId}/download/${format}`, { tableId: 'Customers' }],
		]);
	});

	it('table-schema: a JSON file and the schema itself in the output, column IDs as names', async () => {
		const r = await exportTable({ format: 'table-schema', options: { header: 'colId' } });
		expect(r.error).toBeUndefined();
		const json = r.items[0].json;
		expect(json).toMatchObject({
			documentId: demo.docId,
			tableId: 'Customers',
			fileName: `${demo.docId}-Customers.json`,
			mimeType: 'application/json',
		});
		const schema = json.tableSchema as IDataObject;
		expect(JSON.parse((await r.binary(0, 'data')).toString('utf8'))).toEqual(schema);
		expect(schema).toMatchObject({
			format: 'csv',
			mediatype: 'text/csv',
			encoding: 'utf-8',
			dialect: { delimiter: ',', doubleQuote: true },
			name: 'customers',
			title: 'Customers',
		});
		expect(String(schema.path)).toMatch(
			/\/api\/docs\/[^/]+\/download\/csv\?tableId=Customers&header=colId$/,
		);
		const fields = (schema.schema as { fields: IDataObject[] }).fields;
		expect(fields.map((f) => f.name)).toEqual(['Name', 'Email', 'Country', 'Since']);
		expect(emu.log.map((e) => [e.apiPath, e.query])).toEqual([
			[`/api/docs/${demo.docId}/download/table-schema`, { tableId: 'Customers', header: 'colId' }],
		]);
	});

	it('refuses a Format that is not offered, before any request', async () => {
		const r = await exportTable({ format: '={{ "pdf" }}' });
		expect(r.error?.message).toBe(
			'The Format of item 0 must be one of csv, tsv, dsv, table-schema, not "pdf"',
		);
		expect(emu.log).toEqual([]);
	});

	it('with Continue On Fail, an unknown table gives its error item and the next its file', async () => {
		const r = await runDocument(
			{
				operation: 'exportTable',
				document: byId(demo.docId),
				table: byId('={{ $json.t }}'),
				format: 'tsv',
			},
			{ input: [{ json: { t: 'Nope' } }, { json: { t: 'Customers' } }], continueOnFail: true },
		);
		expect(r.error).toBeUndefined();
		expect(r.items[0]).toMatchObject({
			json: { error: 'Table Nope not found.' },
			pairedItem: { item: 0 },
		});
		expect(r.items[1]).toMatchObject({
			json: { fileName: 'CRM-Customers.tsv' },
			pairedItem: { item: 1 },
		});
	});
});
