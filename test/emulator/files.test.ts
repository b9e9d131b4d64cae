/** Emulator: attachments (multipart upload byte-exact, list, metadata, download headers) and CSV/XLSX exports. */
import { randomBytes } from 'node:crypto';
import { startEmulator, type DemoSite, type GristEmulator } from './index';
import { client, type RecordsBody } from './testutil';
import ExcelJS from 'exceljs';
import { tarFiles, untarFiles } from './tar';
import { unzip } from './zip';
import { emulatorOnly } from '../harness/target';

const uploadLimitSwitch = emulatorOnly(
	'attachmentMaxBytes is an emulator switch (a real server has GRIST_MAX_UPLOAD_ATTACHMENT_MB)',
);
const clock = emulatorOnly('timeUploaded is set through the emulator’s clock (setClock)');

let emu: GristEmulator;
let demo: DemoSite;
let api: ReturnType<typeof client>;

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
	api = client(emu, demo.apiKey);
});
afterAll(() => emu.close());

function upload(
	files: Array<{ field?: string; name: string; data: Buffer }>,
	key = demo.apiKey,
	e = emu,
	docId = demo.docId,
) {
	const form = new FormData();
	for (const f of files)
		form.append(f.field ?? 'upload', new Blob([new Uint8Array(f.data)]), f.name);
	return fetch(`${e.url}/api/docs/${docId}/attachments`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${key}` },
		body: form,
	});
}

describe('attachments', () => {
	it('multipart round trip of a 20 MB binary file is byte-exact', async () => {
		const data = randomBytes(20 * 1024 * 1024);
		// make sure boundary-like and CRLF sequences occur inside the payload
		Buffer.from('\r\n--\r\n\r\n------WebKitFormBoundary\r\n').copy(data, 1000);
		const small = Buffer.from('hello\r\n');
		const res = await upload([
			{ name: 'big.bin', data },
			{ name: 'note.txt', data: small },
		]);
		expect(res.status).toBe(200);
		const ids = (await res.json()) as number[];
		expect(ids).toEqual([demo.attachmentId + 1, demo.attachmentId + 2]);
		expect(emu.attachmentData(demo.docId, ids[0])!.equals(data)).toBe(true);
		const dl = await fetch(`${emu.url}/api/docs/${demo.docId}/attachments/${ids[0]}/download`, {
			headers: { Authorization: `Bearer ${demo.apiKey}` },
		});
		expect(Buffer.from(await dl.arrayBuffer()).equals(data)).toBe(true);
		const meta = await api.get(`/api/docs/${demo.docId}/attachments/${ids[1]}`);
		expect(meta.json).toEqual({
			fileName: 'note.txt',
			fileSize: 7,
			timeUploaded: expect.any(String),
		});
		const logged = emu.log[emu.log.length - 3];
		expect(logged.body).toEqual({
			files: [
				{ field: 'upload', fileName: 'big.bin', size: data.length },
				{ field: 'upload', fileName: 'note.txt', size: 7 },
			],
			fields: {},
		});
	});

	it('missing upload field is 400 missing payload; viewers get 403', async () => {
		const r = await upload([{ field: 'file', name: 'a.txt', data: Buffer.from('a') }]);
		expect(r.status).toBe(400);
		expect(await r.json()).toEqual({ error: 'missing payload' });
		const v = await upload([{ name: 'a.txt', data: Buffer.from('a') }], demo.viewerApiKey);
		expect(v.status).toBe(403);
		expect(await v.json()).toEqual({ error: 'No write access' });
	});

	uploadLimitSwitch.it('size over attachmentMaxBytes is 413', async () => {
		const e = await startEmulator({ attachmentMaxBytes: 1000 });
		try {
			const d = e.seedDemo();
			const r = await upload([{ name: 'big.bin', data: randomBytes(2000) }], d.apiKey, e, d.docId);
			expect(r.status).toBe(413);
			expect(((await r.json()) as { error: string }).error).toMatch(/^Attachments must not exceed/);
		} finally {
			await e.close();
		}
	});

	clock.it('list supports filter/sort/limit; metadata errors', async () => {
		emu.setClock(() => Date.UTC(2024, 4, 1));
		const id = emu.addAttachment(demo.docId, {
			fileName: 'photo.png',
			data: Buffer.from([1, 2, 3]),
		});
		emu.setClock(() => Date.now());
		const list = await api.get(
			`/api/docs/${demo.docId}/attachments?filter=${encodeURIComponent('{"fileName":["photo.png"]}')}`,
		);
		expect(list.json).toEqual({
			records: [
				{
					id,
					fields: { fileName: 'photo.png', fileSize: 3, timeUploaded: '2024-05-01T00:00:00.000Z' },
				},
			],
		});
		const sorted = await api.get<RecordsBody>(
			`/api/docs/${demo.docId}/attachments?sort=-fileSize&limit=1`,
		);
		expect(sorted.json.records[0].fields.fileName).toBe('big.bin');
		const missing = await api.get(`/api/docs/${demo.docId}/attachments/999`);
		expect(missing.status).toBe(404);
		expect(missing.json).toEqual({ error: 'Attachment not found: 999' });
		const nonInt = await api.get(`/api/docs/${demo.docId}/attachments/abc`);
		expect(nonInt.status).toBe(400);
		expect(nonInt.json).toEqual({
			error: 'attId parameter cannot be understood as an integer: abc',
		});
	});

	it('download headers: type from extension, disposition, inline, name, cache and CSP', async () => {
		const id = emu.addAttachment(demo.docId, { fileName: 'pic.png', data: Buffer.from([9, 9]) });
		const base = `/api/docs/${demo.docId}/attachments/${id}/download`;
		const r = await api.get(base);
		expect(r.headers['content-type']).toBe('image/png');
		expect(r.headers['content-disposition']).toBe('attachment; filename="pic.png"');
		expect(r.headers['cache-control']).toBe('private, max-age=3600');
		expect(r.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
		expect((await api.get(`${base}?inline=1`)).headers['content-disposition']).toBe(
			'inline; filename="pic.png"',
		);
		// `name` renames the download; the type stays the stored file's (measured on grist-core 1.7.17)
		const named = await api.get(`${base}?name=other.pdf`);
		expect(named.headers['content-type']).toBe('image/png');
		expect(named.headers['content-disposition']).toBe('attachment; filename="other.pdf"');
		const html = emu.addAttachment(demo.docId, { fileName: 'x.html', data: Buffer.from('<b>') });
		const h = await api.get(`/api/docs/${demo.docId}/attachments/${html}/download?inline=1`);
		expect(h.headers['content-disposition']).toBe('attachment; filename="x.html"');
	});
});

/** A downloaded XLSX file as ExcelJS reads it. */
async function workbook(data: Buffer): Promise<ExcelJS.Workbook> {
	const wb = new ExcelJS.Workbook();
	await wb.xlsx.load(data as unknown as ArrayBuffer);
	return wb;
}

describe('exports', () => {
	it('CSV: LF line ends, labels or colIds, file names, errors', async () => {
		const r = await api.get(`/api/docs/${demo.docId}/download/csv?tableId=Orders`);
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toMatch(/^text\/csv/);
		expect(r.headers['content-disposition']).toBe('attachment; filename="CRM-Orders.csv"');
		expect(r.text).not.toContain('\r');
		const lines = r.text.split('\n');
		expect(lines[0]).toBe('Customer,Amount,Ordered,Status,Tags,Invoice,Total');
		// an Attachments cell is exported as its attachment ids
		expect(lines[1]).toBe(`Alice Martin,120.5,2024-06-01,Paid,rush,${demo.attachmentId},241`);
		expect(lines[3]).toBe('Alice Martin,42.25,2024-06-03,Shipped,"gift, bulk",,84.5');
		const t = await api.get(
			`/api/docs/${demo.docId}/download/csv?tableId=Customers&header=colId&title=My%20Export`,
		);
		expect(t.headers['content-disposition']).toBe('attachment; filename="My Export.csv"');
		expect(t.text.split('\n')[0]).toBe('Name,Email,Country,Since');
		const missing = await api.get(`/api/docs/${demo.docId}/download/csv`);
		expect(missing.status).toBe(400);
		expect(missing.json).toEqual({ error: 'tableId parameter is required' });
		const unknown = await api.get(`/api/docs/${demo.docId}/download/csv?tableId=Nope`);
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({ error: 'Table Nope not found.' });
	});

	it('TSV uses tabs and its own type and file name', async () => {
		const r = await api.get(`/api/docs/${demo.docId}/download/tsv?tableId=Customers&header=colId`);
		expect(r.headers['content-type']).toMatch(/^text\/tab-separated-values/);
		expect(r.headers['content-disposition']).toBe('attachment; filename="CRM-Customers.tsv"');
		expect(r.text.split('\n')[0]).toBe('Name\tEmail\tCountry\tSince');
		expect(r.text).not.toContain('\r');
	});

	it('CSV quotes quotes and newlines', async () => {
		emu.addTable(demo.doc2Id, 'Quotes', [{ id: 'Q', type: 'Text' }]);
		emu.addRecords(demo.doc2Id, 'Quotes', [{ Q: 'say "hi"\nbye' }]);
		const r = await api.get(`/api/docs/${demo.doc2Id}/download/csv?tableId=Quotes`);
		expect(r.text).toBe('Q\n"say ""hi""\nbye"\n');
	});

	it('XLSX is a valid zip with workbook and one sheet per table', async () => {
		const r = await api.get(`/api/docs/${demo.docId}/download/xlsx`);
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe(
			'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
		);
		expect(r.headers['content-disposition']).toBe('attachment; filename="CRM.xlsx"');
		// The package passes the file on byte for byte, so what matters is a workbook a spreadsheet
		// reads: its parts (beyond these, grist-core's ExcelJS writer adds docProps/app.xml and
		// core.xml, xl/sharedStrings.xml and xl/theme/theme1.xml; measured on grist-core 1.7.17)
		// and its cells as ExcelJS reads them (Grist writes text as shared strings, the emulator
		// inline).
		const parts = unzip(r.body);
		for (const part of [
			'[Content_Types].xml',
			'_rels/.rels',
			'xl/_rels/workbook.xml.rels',
			'xl/styles.xml',
			'xl/workbook.xml',
			'xl/worksheets/sheet1.xml',
			'xl/worksheets/sheet2.xml',
		])
			expect(parts.has(part)).toBe(true);
		expect(parts.has('xl/worksheets/sheet3.xml')).toBe(false);
		const wb = await workbook(r.body);
		expect(wb.worksheets.map((w) => w.name)).toEqual(['Customers', 'Orders']);
		const orders = wb.getWorksheet('Orders')!;
		expect(orders.getCell('A1').value).toBe('Customer');
		expect(orders.getCell('B2').value).toBe(120.5);
		// Date cells are Excel serial dates with a date format: 2024-06-01
		expect(orders.getCell('C2').value).toEqual(new Date(Date.UTC(2024, 5, 1)));
		expect(orders.getCell('C2').numFmt).toMatch(/[dy]/i);
		const one = await api.get(
			`/api/docs/${demo.docId}/download/xlsx?tableId=Customers&header=colId&title=Report`,
		);
		expect(one.headers['content-disposition']).toBe('attachment; filename="Report.xlsx"');
		const oneBook = await workbook(one.body);
		expect(oneBook.worksheets.map((w) => w.name)).toEqual(['Customers']);
		expect(oneBook.worksheets[0].getRow(1).values).toContain('Since');
	});

	it('the zip reader rejects corruption (so the check above means something)', async () => {
		const r = await api.get(`/api/docs/${demo.docId}/download/xlsx?tableId=Customers`);
		const broken = Buffer.from(r.body);
		const at = broken.indexOf('Customers');
		broken[at + 200] ^= 0xff;
		expect(() => unzip(broken)).toThrow();
	});
});

describe('attachment archive and stores', () => {
	it('the archive: zip by default, tar on request, Grist’s names and headers; an unknown format is 400', async () => {
		const zip = await api.get(`/api/docs/${demo.docId}/attachments/archive`);
		expect(zip.status).toBe(200);
		expect(zip.headers['content-type']).toBe('application/zip');
		expect(zip.headers['content-disposition']).toBe('attachment; filename="CRM-Attachments.zip"');
		expect(zip.headers['cache-control']).toBe('no-store');
		const names = [...unzip(zip.body).keys()];
		expect(names.length).toBeGreaterThan(0);
		expect(names.every((n) => /^[0-9a-f]{40}_/.test(n))).toBe(true);

		const tar = await api.get(`/api/docs/${demo.docId}/attachments/archive?format=tar`);
		expect(tar.headers['content-type']).toBe('application/x-tar');
		expect(tar.headers['content-disposition']).toBe('attachment; filename="CRM-Attachments.tar"');
		expect(untarFiles(tar.body).map((e) => e.name)).toEqual(names);

		const bad = await api.get(`/api/docs/${demo.docId}/attachments/archive?format=rar`);
		expect([bad.status, bad.json]).toEqual([
			400,
			{ error: 'format parameter rar should be one of zip,tar' },
		]);
	});

	it('a restore needs a multipart body with a .tar of type application/x-tar', async () => {
		const path = `/api/docs/${demo.docId}/attachments/archive`;
		const none = await api.call('POST', path);
		expect([none.status, none.json]).toEqual([415, { error: 'missing content-type header' }]);
		const json = await api.post(path, {});
		expect([json.status, json.json]).toEqual([415, { error: 'unsupported content-type' }]);
		const send = (name: string, type: string, data: Buffer) => {
			const form = new FormData();
			form.append('upload', new Blob([new Uint8Array(data)], { type }), name);
			return fetch(`${emu.url}${path}`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${demo.apiKey}` },
				body: form,
			});
		};
		const tar = tarFiles([{ name: 'x_y.txt', data: Buffer.from('y') }]);
		const untyped = await send('a.tar', 'application/octet-stream', tar);
		expect([untyped.status, await untyped.json()]).toEqual([
			400,
			{ error: 'No .tar file found in request' },
		]);
		const ok = await send('a.tar', 'application/x-tar', tar);
		expect([ok.status, await ok.json()]).toEqual([200, { added: 0, errored: 0, unused: 1 }]);
		const empty = await send('a.tar', 'application/x-tar', Buffer.alloc(0));
		expect(await empty.json()).toEqual({ added: 0, errored: 0, unused: 0 });
	});

	it('the tar reader fails as tar-stream does (so the restore errors above mean something)', () => {
		const tar = tarFiles([{ name: 'a_b.txt', data: Buffer.from('hello') }]);
		expect(untarFiles(tar)).toEqual([{ name: 'a_b.txt', data: Buffer.from('hello') }]);
		expect(() => untarFiles(tar.subarray(0, 700))).toThrow('Unexpected end of data');
		expect(() => untarFiles(Buffer.alloc(100, 1))).toThrow('Unexpected end of data');
		expect(() => untarFiles(Buffer.alloc(1024, 0x41))).toThrow(/^Invalid tar header/);
	});

	it('the store: internal; a bad type is Invalid payload; the server has no external store', async () => {
		const path = `/api/docs/${demo.docId}/attachments`;
		expect((await api.get(`${path}/store`)).json).toEqual({ type: 'internal' });
		expect((await api.get(`${path}/stores`)).json).toEqual({ stores: [] });
		expect((await api.post(`${path}/store`, {})).json).toEqual({
			error: 'Invalid payload',
			details: { userError: 'Error: value.type is missing' },
		});
		expect((await api.post(`${path}/store`, { type: 'foo' })).json).toEqual({
			error: 'Invalid payload',
			details: {
				userError:
					'Error: value.type is not a AttachmentStore; value.type is none of "internal", "external"',
			},
		});
		expect((await api.post(`${path}/store`, { type: 'internal' })).json).toEqual({});
		expect((await api.get(`${path}/transferStatus`)).json).toEqual({
			status: { pendingTransferCount: 0, isRunning: false, successes: 0, failures: 0 },
			locationSummary: 'internal',
		});
	});

	it('DSV separates with 💩 and Table Schema describes the CSV export', async () => {
		const dsv = await api.get(`/api/docs/${demo.docId}/download/dsv?tableId=Customers`);
		expect(dsv.headers['content-type']).toBe('text/x-doo-separated-values; charset=utf-8');
		expect(dsv.headers['content-disposition']).toBe('attachment; filename="CRM-Customers.dsv"');
		expect(dsv.text.split('\n')[0]).toBe('Name💩Email💩Country💩Since');
		const schema = await api.get<Record<string, unknown>>(
			`/api/docs/${demo.docId}/download/table-schema?tableId=Customers`,
		);
		expect(schema.headers['content-type']).toMatch(/^application\/json/);
		expect(schema.json).toMatchObject({ name: 'customers', title: 'Customers', format: 'csv' });
		const missing = await api.get(`/api/docs/${demo.docId}/download/table-schema`);
		expect([missing.status, missing.json]).toEqual([
			400,
			{ error: 'tableId parameter is required' },
		]);
	});
});
