/**
 * Attachment operations (upload, get, download, getAll) run by n8n-core against the Grist
 * emulator: exact requests from the emulator's log, bytes compared, bad input refused before any
 * request, Grist's errors (404, 413, 403) explained, Continue On Fail and paired items.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { byId, docTable } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { loadOptions, runNode } from '../harness/inprocess';
import { emulatorOnly } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let serverUrl: string;

beforeAll(() => ({ emu, demo, site: serverUrl } = fx));
beforeEach(() => emu.clearFaults());

const doc = () => byId(demo.docId);
const ordersTable = byId('Orders');

function file(content: Buffer | string, fileName: string, mimeType: string) {
	const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
	return { data: data.toString('base64'), mimeType, fileName };
}

const run = resourceRunner(fx, 'attachment', { defaults: () => docTable(demo.docId) });

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const calls = () => emu.log.map((e) => `${e.method} ${e.apiPath}`);
const attPath = () => `/api/docs/${demo.docId}/attachments`;
const orderInvoice = (rowId: number) =>
	emu.records(demo.docId, 'Orders').find((r) => r.id === rowId)?.fields.Invoice;

describe('upload', () => {
	it('uploads the named binary field as one multipart part and returns id, name and size', async () => {
		const r = await run(
			{ operation: 'upload' },
			{
				input: [
					{ json: { n: 1 }, binary: { data: file('hello grist', 'hello.txt', 'text/plain') } },
				],
			},
		);
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(1);
		const { attachments } = r.items[0].json as { attachments: IDataObject[] };
		expect(attachments).toEqual([
			{
				id: expect.any(Number),
				fileName: 'hello.txt',
				size: 11,
				mimeType: 'text/plain',
				binaryProperty: 'data',
			},
		]);
		expect(r.items[0].pairedItem).toEqual({ item: 0 });
		expect(emu.log).toHaveLength(1);
		expect(emu.log[0]).toMatchObject({
			method: 'POST',
			apiPath: attPath(),
			status: 200,
			body: { files: [{ field: 'upload', fileName: 'hello.txt', size: 11 }], fields: {} },
		});
		expect(emu.attachmentData(demo.docId, attachments[0].id as number)?.toString()).toBe(
			'hello grist',
		);
	});

	it('uploads several comma-separated fields in one request, one request per item, ids in order', async () => {
		const r = await run(
			{ operation: 'upload', binaryPropertyName: 'invoice, photo' },
			{
				input: [
					{
						json: {},
						binary: {
							invoice: file('%PDF-1.4 fake', 'inv.pdf', 'application/pdf'),
							photo: file(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), 'p.png', 'image/png'),
							ignored: file('x', 'x.txt', 'text/plain'),
						},
					},
					{
						json: {},
						binary: {
							invoice: file('second', 'b.pdf', 'application/pdf'),
							photo: file('p2', 'p2.png', 'image/png'),
						},
					},
				],
			},
		);
		expect(r.error).toBeUndefined();
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const first = (r.items[0].json.attachments as IDataObject[]).map((a) => [
			a.fileName,
			a.binaryProperty,
			a.size,
		]);
		expect(first).toEqual([
			['inv.pdf', 'invoice', 13],
			['p.png', 'photo', 7],
		]);
		expect(calls()).toEqual([`POST ${attPath()}`, `POST ${attPath()}`]);
		expect(emu.log.map((e) => e.body)).toEqual([
			{
				files: [
					{ field: 'upload', fileName: 'inv.pdf', size: 13 },
					{ field: 'upload', fileName: 'p.png', size: 7 },
				],
				fields: {},
			},
			{
				files: [
					{ field: 'upload', fileName: 'b.pdf', size: 6 },
					{ field: 'upload', fileName: 'p2.png', size: 2 },
				],
				fields: {},
			},
		]);
		const ids = r.items.flatMap((i) =>
			(i.json.attachments as IDataObject[]).map((a) => a.id as number),
		);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		expect(new Set(ids).size).toBe(4);
		expect(emu.attachmentData(demo.docId, ids[1])).toEqual(
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
		);
		expect(emu.attachmentData(demo.docId, ids[2])?.toString()).toBe('second');
	});

	it('uploads every binary field of the item with "Upload All Binary Fields"', async () => {
		const r = await run(
			{ operation: 'upload', uploadAllBinaries: true, binaryPropertyName: 'nope' },
			{
				input: [
					{
						json: {},
						binary: { a: file('A', 'a.txt', 'text/plain'), b: file('BB', 'b.csv', 'text/csv') },
					},
				],
			},
		);
		expect(r.error).toBeUndefined();
		expect((r.items[0].json.attachments as IDataObject[]).map((a) => a.binaryProperty)).toEqual([
			'a',
			'b',
		]);
		expect(emu.log[0].body).toEqual({
			files: [
				{ field: 'upload', fileName: 'a.txt', size: 1 },
				{ field: 'upload', fileName: 'b.csv', size: 2 },
			],
			fields: {},
		});
	});

	it('names a missing binary field and lists the ones the item has, before any request', async () => {
		const r = await run(
			{ operation: 'upload', binaryPropertyName: 'data, attachment' },
			{
				input: [
					{
						json: {},
						binary: {
							data: file('x', 'x.txt', 'text/plain'),
							file0: file('y', 'y.txt', 'text/plain'),
						},
					},
				],
			},
		);
		expect(r.error?.message).toBe(
			'Item 0 has no binary field "attachment" (named in "Input Binary Field(s)")',
		);
		expect(r.error?.description).toContain('The item has these binary fields: data, file0.');
		expect(emu.log).toHaveLength(0);
	});

	it('says when the item has no binary data at all', async () => {
		const r = await run({ operation: 'upload' }, { input: [{ json: { a: 1 } }] });
		expect(r.error?.message).toBe(
			'Item 0 has no binary field "data" (named in "Input Binary Field(s)")',
		);
		expect(r.error?.description).toContain('The item has no binary data at all');
		const all = await run(
			{ operation: 'upload', uploadAllBinaries: true },
			{ input: [{ json: { a: 1 } }] },
		);
		expect(all.error?.message).toBe('Item 0 has no binary fields to upload');
		expect(emu.log).toHaveLength(0);
	});

	it('with Continue On Fail, keeps going and pairs every output with its item', async () => {
		const r = await run(
			{ operation: 'upload' },
			{
				input: [
					{ json: {}, binary: { data: file('one', '1.txt', 'text/plain') } },
					{ json: {}, binary: { other: file('two', '2.txt', 'text/plain') } },
					{ json: {}, binary: { data: file('three', '3.txt', 'text/plain') } },
				],
				continueOnFail: true,
			},
		);
		expect(r.error).toBeUndefined();
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect((r.items[0].json.attachments as IDataObject[])[0].fileName).toBe('1.txt');
		expect(r.items[1].json.error).toBe(
			'Item 1 has no binary field "data" (named in "Input Binary Field(s)")',
		);
		expect(r.items[1].json.description).toContain('other');
		expect((r.items[2].json.attachments as IDataObject[])[0].fileName).toBe('3.txt');
		expect(calls()).toEqual([`POST ${attPath()}`, `POST ${attPath()}`]);
	});

	it('explains a viewer upload (403 No write access)', async () => {
		const r = await run(
			{ operation: 'upload' },
			{
				input: [{ json: {}, binary: { data: file('x', 'x.txt', 'text/plain') } }],
				apiKey: demo.viewerApiKey,
			},
		);
		expect(r.error?.message).toBe('No write access');
		expect(r.error?.httpCode).toBe('403');
		expect(r.error?.description).toContain('Editor or Owner role');
		expect(r.error?.description).toContain('a Viewer can only read and download them');
		expect(JSON.stringify(r.error)).not.toContain(demo.viewerApiKey);
	});

	emulatorOnly(
		'the 413 comes from the emulator’s attachmentMaxBytes switch (a real server’s limit is its GRIST_MAX_UPLOAD_ATTACHMENT_MB)',
	).it('explains a file over the server limit (413) with the size sent', async () => {
		const small = await startEmulator({ attachmentMaxBytes: 100 * 1024 });
		try {
			const site = small.seedDemo();
			const r = await runNode({
				node: new Grist(),
				parameters: {
					resource: 'attachment',
					operation: 'upload',
					document: byId(site.docId),
				},
				credentials: { apiKey: site.apiKey, url: `${small.url}/o/${site.orgDomain}` },
				input: [
					{
						json: {},
						binary: { data: file(randomBytes(300 * 1024), 'big.bin', 'application/octet-stream') },
					},
				],
			});
			expect(r.error?.message).toBe('Attachments must not exceed 0.1MB');
			expect(r.error?.httpCode).toBe('413');
			expect(r.error?.description).toContain('(300.0 KB) are larger than the Grist server accepts');
			expect(r.error?.description).toContain('GRIST_MAX_UPLOAD_ATTACHMENT_MB');
			expect(small.log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 413']);
		} finally {
			await small.close();
		}
	});

	it('re-sends the whole multipart body after 503 and 429 answers', async () => {
		emu.fault({ method: 'POST', path: attPath(), status: 503, times: 1 });
		emu.fault({ method: 'POST', path: attPath(), status: 429, times: 1 });
		const content = randomBytes(64 * 1024);
		const r = await run(
			{ operation: 'upload' },
			{
				input: [{ json: {}, binary: { data: file(content, 'r.bin', 'application/octet-stream') } }],
			},
		);
		expect(r.error).toBeUndefined();
		expect(emu.log.map((e) => `${e.method} ${e.apiPath} ${e.status}`)).toEqual([
			`POST ${attPath()} 503`,
			`POST ${attPath()} 429`,
			`POST ${attPath()} 200`,
		]);
		for (const e of emu.log) {
			expect(e.body).toEqual({
				files: [{ field: 'upload', fileName: 'r.bin', size: content.length }],
				fields: {},
			});
		}
		const id = (r.items[0].json.attachments as IDataObject[])[0].id as number;
		expect(sha256(emu.attachmentData(demo.docId, id)!)).toBe(sha256(content));
	});

	it('never repeats an upload after the connection broke', async () => {
		const before = [...Array(50).keys()].filter((id) => emu.attachmentData(demo.docId, id)).length;
		emu.fault({ method: 'POST', path: attPath(), drop: true, times: 1 });
		const r = await run(
			{ operation: 'upload' },
			{ input: [{ json: {}, binary: { data: file('once', 'once.txt', 'text/plain') } }] },
		);
		expect(r.error?.message).toMatch(
			/^The connection to the Grist server at http:\/\/127\.0\.0\.1:\d+ broke after the request was sent .*may or may not have been applied$/,
		);
		expect(r.error?.description).toContain('It was not repeated');
		expect(calls()).toEqual([`POST ${attPath()}`]);
		const after = [...Array(50).keys()].filter((id) => emu.attachmentData(demo.docId, id)).length;
		expect(after).toBe(before);
	});
});

describe('upload → Attach to Record', () => {
	const attachParams = (rowId: number, attachMode: 'append' | 'replace', column = 'Invoice') => ({
		operation: 'upload',
		attachToRecord: true,
		table: ordersTable,
		rowId,
		attachmentsColumn: column,
		attachMode,
	});
	const tablePath = () => `/api/docs/${demo.docId}/tables/Orders`;

	it('appends the new ids to what the cell holds', async () => {
		const row = demo.orderIds[0];
		const before = orderInvoice(row) as unknown[];
		expect(before).toEqual(['L', demo.attachmentId]);
		const r = await run(attachParams(row, 'append'), {
			input: [{ json: {}, binary: { data: file('scan', 'scan.pdf', 'application/pdf') } }],
		});
		expect(r.error).toBeUndefined();
		const newId = (r.items[0].json.attachments as IDataObject[])[0].id as number;
		expect(orderInvoice(row)).toEqual(['L', demo.attachmentId, newId]);
		expect(r.items[0].json.record).toEqual({
			table: 'Orders',
			id: row,
			column: 'Invoice',
			value: ['L', demo.attachmentId, newId],
		});
		expect(calls()).toEqual([
			`GET ${tablePath()}/columns`,
			`GET ${tablePath()}/records`,
			`POST ${attPath()}`,
			`PATCH ${tablePath()}/records`,
		]);
		expect(JSON.parse(emu.log[1].query.filter)).toEqual({ id: [row] });
		expect(emu.log[3].body).toEqual({
			records: [{ id: row, fields: { Invoice: ['L', demo.attachmentId, newId] } }],
		});
	});

	it('replaces the cell, and fills an empty cell, for several items (columns read once)', async () => {
		const [row1, row2] = [demo.orderIds[0], demo.orderIds[1]];
		expect(orderInvoice(row2)).toBeNull();
		const r = await run(
			{ ...attachParams(row1, 'replace'), rowId: '={{ $json.row }}' },
			{
				input: [
					{
						json: { row: row1 },
						binary: {
							data: file('new1', 'n1.txt', 'text/plain'),
							extra: file('e', 'e.txt', 'text/plain'),
						},
					},
					{ json: { row: row2 }, binary: { data: file('new2', 'n2.txt', 'text/plain') } },
				],
			},
		);
		expect(r.error).toBeUndefined();
		const id1 = (r.items[0].json.attachments as IDataObject[])[0].id as number;
		const id2 = (r.items[1].json.attachments as IDataObject[])[0].id as number;
		expect(orderInvoice(row1)).toEqual(['L', id1]);
		expect(orderInvoice(row2)).toEqual(['L', id2]);
		expect(calls()).toEqual([
			`GET ${tablePath()}/columns`,
			`GET ${tablePath()}/records`,
			`POST ${attPath()}`,
			`PATCH ${tablePath()}/records`,
			`GET ${tablePath()}/records`,
			`POST ${attPath()}`,
			`PATCH ${tablePath()}/records`,
		]);
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it("offers the table's columns in the Attachments Column picker", async () => {
		const options = (await loadOptions({
			node: new Grist(),
			parameters: { resource: 'attachment', ...attachParams(1, 'append'), document: doc() },
			credentials: { apiKey: demo.apiKey, url: serverUrl },
			method: 'getColumns',
			kind: 'loadOptions',
			path: 'parameters.attachmentsColumn',
		})) as Array<{ name: string; value: string; description?: string }>;
		expect(options).toContainEqual(
			expect.objectContaining({ value: 'Invoice', description: 'Attachments: IDs' }),
		);
		expect(calls()).toEqual([`GET ${tablePath()}/columns`]);
	});

	it('refuses a column that is not of type Attachments, before uploading', async () => {
		const r = await run(attachParams(demo.orderIds[2], 'append', 'Amount'), {
			input: [{ json: {}, binary: { data: file('x', 'x.txt', 'text/plain') } }],
		});
		expect(r.error?.message).toBe(
			'Column "Amount" of table "Orders" is of type Numeric, not Attachments',
		);
		expect(r.error?.description).toBe('Attachments columns of table "Orders": Invoice.');
		expect(calls()).toEqual([`GET ${tablePath()}/columns`]);
	});

	it('refuses an unknown column and lists the Attachments columns', async () => {
		const r = await run(attachParams(demo.orderIds[2], 'append', 'Files'), {
			input: [{ json: {}, binary: { data: file('x', 'x.txt', 'text/plain') } }],
		});
		expect(r.error?.message).toBe('Table "Orders" has no column "Files"');
		expect(r.error?.description).toContain('Attachments columns of table "Orders": Invoice.');
	});

	it('refuses a row that does not exist, before uploading', async () => {
		const r = await run(attachParams(9999, 'append'), {
			input: [{ json: {}, binary: { data: file('x', 'x.txt', 'text/plain') } }],
		});
		expect(r.error?.message).toBe('Table "Orders" has no record with ID 9999');
		expect(calls()).toEqual([`GET ${tablePath()}/columns`, `GET ${tablePath()}/records`]);
	});

	it('says which attachments were uploaded when writing the cell fails', async () => {
		emu.fault({
			method: 'PATCH',
			path: `${tablePath()}/records`,
			status: 400,
			body: { error: 'Invalid row id 3' },
		});
		const r = await run(attachParams(demo.orderIds[2], 'append'), {
			input: [{ json: {}, binary: { data: file('late', 'late.txt', 'text/plain') } }],
		});
		expect(r.error?.message).toBe('Invalid row id 3');
		const uploaded = emu.log.find((e) => e.method === 'POST');
		expect(uploaded?.status).toBe(200);
		expect(r.error?.description).toMatch(
			/The files were uploaded \(attachment IDs \d+\) but not written into the cell/,
		);
		expect(calls()).toEqual([
			`GET ${tablePath()}/columns`,
			`GET ${tablePath()}/records`,
			`POST ${attPath()}`,
			`PATCH ${tablePath()}/records`,
		]);
	});

	it('refuses a Row ID that is not a whole number, before any request', async () => {
		const r = await run(
			{ ...attachParams(1, 'append'), rowId: '={{ "abc" }}' },
			{ input: [{ json: {}, binary: { data: file('x', 'x.txt', 'text/plain') } }] },
		);
		expect(r.error?.message).toBe('The Row ID "abc" is not a record ID (item 0)');
		expect(emu.log).toHaveLength(0);
	});
});

describe('get', () => {
	it('returns file name, size and upload time', async () => {
		const r = await run({ operation: 'get', attachmentId: String(demo.attachmentId) });
		expect(r.error).toBeUndefined();
		expect(r.items).toEqual([
			{
				json: {
					id: demo.attachmentId,
					fileName: 'invoice-1.txt',
					fileSize: 38,
					timeUploaded: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(calls()).toEqual([`GET ${attPath()}/${demo.attachmentId}`]);
	});

	it("gives Grist's text for an unknown id (404)", async () => {
		const r = await run({ operation: 'get', attachmentId: '4242' });
		expect(r.error?.message).toBe('Attachment not found: 4242');
		expect(r.error?.httpCode).toBe('404');
		expect(r.error?.description).toBe(
			`Attachment 4242 was not found in document "${demo.docId}", or the user of this API key cannot see it. Check the attachment ID; Get Many attachments lists them.`,
		);
	});

	it.each([
		['abc', 'The Attachment ID "abc" is not a whole number (item 0)'],
		['1.5', 'The Attachment ID "1.5" is not a whole number (item 0)'],
		['0', 'The Attachment ID "0" is not a valid ID (IDs start at 1) (item 0)'],
		['={{ ["L", 1] }}', 'The Attachment ID is a list (["L",1]), not a whole number (item 0)'],
	])('refuses the id %s before any request', async (attachmentId, message) => {
		const r = await run({ operation: 'get', attachmentId });
		expect(r.error?.message).toBe(message);
		expect(r.error?.description).toContain('a whole number such as 12');
		expect(emu.log).toHaveLength(0);
	});

	it('with Continue On Fail, gives an error item for the bad id and the metadata for the good one', async () => {
		const r = await run(
			{ operation: 'get', attachmentId: '={{ $json.att }}' },
			{
				input: [
					{ json: { att: 'x' } },
					{ json: { att: demo.attachmentId } },
					{ json: { att: 777 } },
				],
				continueOnFail: true,
			},
		);
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(r.items[0].json).toEqual({
			error: 'The Attachment ID "x" is not a whole number (item 0)',
			description: expect.any(String),
		});
		expect(r.items[1].json.fileName).toBe('invoice-1.txt');
		expect(r.items[2].json).toMatchObject({ error: 'Attachment not found: 777', httpCode: '404' });
	});
});

describe('download', () => {
	it('puts the file in the binary field with its real name and MIME type', async () => {
		const r = await run({
			operation: 'download',
			attachmentId: String(demo.attachmentId),
			binaryPropertyName: 'invoice',
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toEqual({
			id: demo.attachmentId,
			fileName: 'invoice-1.txt',
			mimeType: 'text/plain',
			fileSize: 38,
		});
		expect(r.items[0].binary?.invoice).toMatchObject({
			fileName: 'invoice-1.txt',
			mimeType: 'text/plain',
			fileExtension: 'txt',
		});
		expect(r.items[0].pairedItem).toEqual({ item: 0 });
		expect((await r.binary(0, 'invoice')).toString()).toBe(
			'Invoice #1\nAlice Martin\nTotal: 120.50\n',
		);
		expect(calls()).toEqual([`GET ${attPath()}/${demo.attachmentId}/download`]);
	});

	it('follows an Attachments cell read before (the README recipe)', async () => {
		const rows = emu
			.records(demo.docId, 'Orders')
			.filter((row) => Array.isArray(row.fields.Invoice));
		const r = await run(
			{ operation: 'download', attachmentId: '={{ $json.fields.Invoice[1] }}' },
			{ input: rows.map((row) => ({ json: row as unknown as IDataObject })) },
		);
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(rows.length);
		for (const [i, row] of rows.entries()) {
			const id = (row.fields.Invoice as number[])[1];
			expect(r.items[i].json.id).toBe(id);
			expect(await r.binary(i, 'data')).toEqual(emu.attachmentData(demo.docId, id));
		}
	});

	it("gives Grist's text for an unknown id (404), read from the streamed answer", async () => {
		const r = await run({ operation: 'download', attachmentId: '999' });
		expect(r.error?.message).toBe('Attachment not found: 999');
		expect(r.error?.httpCode).toBe('404');
		expect(r.error?.description).toBe(
			`Attachment 999 was not found in document "${demo.docId}", or the user of this API key cannot see it. Check the attachment ID; Get Many attachments lists them.`,
		);
		expect(r.items).toEqual([]);
	});

	it('retries a download after a broken connection (a read) and returns the bytes', async () => {
		emu.fault({ path: `${attPath()}/${demo.attachmentId}/download`, drop: true, times: 1 });
		const r = await run({ operation: 'download', attachmentId: String(demo.attachmentId) });
		expect(r.error).toBeUndefined();
		expect(calls()).toEqual([
			`GET ${attPath()}/${demo.attachmentId}/download`,
			`GET ${attPath()}/${demo.attachmentId}/download`,
		]);
		expect((await r.binary(0, 'data')).toString()).toBe(
			'Invoice #1\nAlice Martin\nTotal: 120.50\n',
		);
	});

	it('retries a download after 503 and returns the bytes once', async () => {
		emu.fault({ path: `${attPath()}/${demo.attachmentId}/download`, status: 503, times: 2 });
		const r = await run({ operation: 'download', attachmentId: String(demo.attachmentId) });
		expect(r.error).toBeUndefined();
		expect(emu.log.map((e) => e.status)).toEqual([503, 503, 200]);
		expect((await r.binary(0, 'data')).toString()).toBe(
			'Invoice #1\nAlice Martin\nTotal: 120.50\n',
		);
	});
});

describe('getAll', () => {
	it('lists every attachment with Return All', async () => {
		const r = await run({ operation: 'getAll', returnAll: true });
		expect(r.error).toBeUndefined();
		expect(r.items[0]).toEqual({
			json: {
				id: demo.attachmentId,
				fileName: 'invoice-1.txt',
				fileSize: 38,
				timeUploaded: expect.any(String),
			},
			pairedItem: { item: 0 },
		});
		expect(r.items.length).toBeGreaterThan(1);
		expect(r.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(emu.log.map((e) => [e.apiPath, e.query])).toEqual([[attPath(), {}]]);
	});

	it('passes Limit to Grist', async () => {
		const r = await run({ operation: 'getAll', returnAll: false, limit: 2 });
		expect(r.items.map((i) => i.json.id)).toHaveLength(2);
		expect(emu.log.map((e) => [e.apiPath, e.query])).toEqual([[attPath(), { limit: '2' }]]);
	});

	it.each([
		['={{ -1 }}', '-1'],
		['={{ 2.5 }}', '2.5'],
		['={{ "many" }}', '"many"'],
	])('refuses Limit %s before any request, naming the field and item', async (limit, shown) => {
		const r = await run({ operation: 'getAll', returnAll: false, limit });
		expect(r.error?.message).toBe(
			`The Limit of item 0 must be a whole number of at least 1, not ${shown}`,
		);
		expect(emu.log).toEqual([]);
	});

	it("gives Grist's text for an unknown document", async () => {
		const r = await run({
			operation: 'getAll',
			returnAll: true,
			document: byId('NoSuchDoc12345'),
		});
		expect(r.error?.message).toBe('Document not found');
		expect(r.error?.httpCode).toBe('404');
	});
});

describe('an empty Document', () => {
	// Each operation with the parameters it needs besides the Document (a function: the demo site
	// is seeded later), and an input item that has what it reads (Upload: a file).
	const attachment = () => ({ attachmentId: String(demo.attachmentId) });
	const cases: Array<[string, () => Record<string, unknown>]> = [
		['get', attachment],
		['getAll', () => ({ returnAll: true })],
		['download', attachment],
		['upload', () => ({})],
	];
	const input = (doc: string) => ({
		json: { doc },
		binary: { data: file('x', 'x.txt', 'text/plain') },
	});

	it.each(cases)(
		'%s: names the field and the item, before any request',
		async (operation, parameters) => {
			// n8n itself refuses a run whose required Document is empty as typed: an expression can
			// still give an empty value
			const r = await run(
				{ operation, ...parameters(), document: byId('={{ $json.doc }}') },
				{ input: [input('')] },
			);
			expect(r.error?.message).toBe('The Document field is empty (item 0)');
			expect(r.error?.description).toBe('Pick a document from the list, or enter its ID or URL.');
			expect(emu.log).toEqual([]);
		},
	);

	it.each(cases)(
		'%s: with Continue On Fail, the item whose Document expression is empty gets the error, the others run',
		async (operation, parameters) => {
			const r = await run(
				{
					operation,
					...parameters(),
					document: byId('={{ $json.doc }}'),
				},
				{ input: [input(''), input(demo.docId)], continueOnFail: true },
			);
			expect(r.error).toBeUndefined();
			expect(r.items[0]).toEqual({
				json: {
					error: 'The Document field is empty (item 0)',
					description: 'Pick a document from the list, or enter its ID or URL.',
				},
				pairedItem: { item: 0 },
			});
			expect(r.items.length).toBeGreaterThan(1);
			expect(r.items.slice(1).every((i) => i.json.error === undefined)).toBe(true);
			expect(r.items.slice(1).map((i) => i.pairedItem)).toEqual(
				r.items.slice(1).map(() => ({ item: 1 })),
			);
			expect(emu.log.every((e) => e.apiPath.startsWith(attPath()))).toBe(true);
			expect(emu.log.length).toBeGreaterThan(0);
		},
	);
});

describe('20 MB round trip', () => {
	it('uploads and downloads a 20 MB random file byte for byte', async () => {
		const content = randomBytes(20 * 1024 * 1024);
		const up = await run(
			{ operation: 'upload' },
			{
				input: [
					{ json: {}, binary: { data: file(content, 'big.bin', 'application/octet-stream') } },
				],
			},
		);
		expect(up.error).toBeUndefined();
		const id = (up.items[0].json.attachments as IDataObject[])[0].id as number;
		expect((up.items[0].json.attachments as IDataObject[])[0].size).toBe(content.length);
		expect(sha256(emu.attachmentData(demo.docId, id)!)).toBe(sha256(content));

		const down = await run({ operation: 'download', attachmentId: String(id) });
		expect(down.error).toBeUndefined();
		expect(down.items[0].json).toEqual({
			id,
			fileName: 'big.bin',
			mimeType: 'application/octet-stream',
			fileSize: content.length,
		});
		const bytes = await down.binary(0, 'data');
		expect(bytes.length).toBe(content.length);
		expect(sha256(bytes)).toBe(sha256(content));
	}, 60_000);
});
