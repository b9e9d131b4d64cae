/**
 * Real n8n 2.41.1 with the packed package (test level c): a workflow makes a file itself
 * (Set → Convert to File), uploads it to Grist, downloads it again by the id the upload returned,
 * and the bytes are compared with what the workflow made; a complete backup (the attachments
 * archive) is restored into a document lacking its files, and a table exported as TSV.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { DemoSite, GristEmulator } from '../emulator';
import { byId } from '../harness/builders';
import { importWithFilesElsewhere } from '../harness/attachment-store';
import { fileSource, gristNode, manualWorkflow, useN8nDemoSite, type N8n } from '../harness/e2e';

const fx = useN8nDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
beforeAll(() => ({ emu, demo, n8n } = fx));

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('a file made in the workflow is uploaded, attached to a record, downloaded and unchanged', async () => {
	const content = randomBytes(256 * 1024);
	const cred = await n8n.createCredential({
		name: 'Grist attachments',
		type: 'gristRecordsApi',
		data: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
	});
	const document = byId(demo.docId);
	const row = demo.orderIds[2];
	const wf = manualWorkflow([
		...fileSource(content, 'random.bin', 'application/octet-stream'),
		gristNode(
			{
				resource: 'attachment',
				operation: 'upload',
				document,
				binaryPropertyName: 'data',
				attachToRecord: true,
				table: byId('Orders'),
				rowId: row,
				attachmentsColumn: 'Invoice',
				attachMode: 'append',
			},
			cred,
			{ name: 'Upload' },
		),
		gristNode(
			{
				resource: 'attachment',
				operation: 'download',
				document,
				attachmentId: '={{ $json.attachments[0].id }}',
				binaryPropertyName: 'file',
			},
			cred,
			{ name: 'Download' },
		),
	]);
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const [uploaded] = run.output('Upload') as Array<{
		attachments: Array<{ id: number; fileName: string; size: number }>;
	}>;
	expect(uploaded.attachments).toEqual([
		{
			id: expect.any(Number),
			fileName: 'random.bin',
			size: content.length,
			mimeType: 'application/octet-stream',
			binaryProperty: 'data',
		},
	]);
	const id = uploaded.attachments[0].id;
	expect(sha256(emu.attachmentData(demo.docId, id)!)).toBe(sha256(content));
	expect(emu.records(demo.docId, 'Orders').find((r) => r.id === row)?.fields.Invoice).toEqual([
		'L',
		id,
	]);

	expect(run.output('Download')).toEqual([
		{ id, fileName: 'random.bin', mimeType: 'application/octet-stream', fileSize: content.length },
	]);
	const downloaded = await run.binary('Download', 0, 'file');
	expect(downloaded.length).toBe(content.length);
	expect(sha256(downloaded)).toBe(sha256(content));
	expect(run.items('Download')[0].pairedItem).toEqual({ item: 0 });
});

test('README recipe: read a record, Split Out its Attachments cell, download every file', async () => {
	const files = [Buffer.from('first file\n'), randomBytes(4096)];
	const ids = [
		emu.addAttachment(demo.docId, { fileName: 'notes.txt', data: files[0] }),
		emu.addAttachment(demo.docId, { fileName: 'photo.png', data: files[1] }),
	];
	const [row] = emu.addRecords(demo.docId, 'Orders', [{ Amount: 1, Invoice: ['L', ...ids] }]);
	const cred = await n8n.createCredential({
		name: 'Grist recipe',
		type: 'gristRecordsApi',
		data: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
	});
	const document = byId(demo.docId);
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'record',
					operation: 'getAll',
					document,
					table: byId('Orders'),
					returnAll: true,
					filterType: 'json',
					filterJson: JSON.stringify({ id: [row] }),
				},
				cred,
				{ name: 'Get Order' },
			),
			{
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'Invoice', include: 'noOtherFields', options: {} },
			},
			gristNode(
				{
					resource: 'attachment',
					operation: 'download',
					document,
					attachmentId: '={{ $json.Invoice }}',
				},
				cred,
				{ name: 'Download' },
			),
		]),
	);
	expect(run.error).toBeUndefined();
	expect(run.output('Get Order')).toEqual([expect.objectContaining({ id: row, Invoice: ids })]);
	expect(run.output('Download')).toEqual([
		{ id: ids[0], fileName: 'notes.txt', mimeType: 'text/plain', fileSize: files[0].length },
		{ id: ids[1], fileName: 'photo.png', mimeType: 'image/png', fileSize: files[1].length },
	]);
	expect(await run.binary('Download', 0)).toEqual(files[0]);
	expect(sha256(await run.binary('Download', 1))).toBe(sha256(files[1]));
});

test('a complete backup restored: Download All (TAR) → Restore From Archive into a document lacking its files → Export Table (TSV)', async () => {
	const text = Buffer.from('kept in an external store\n');
	const png = randomBytes(2048);
	const ws = emu.addWorkspace(demo.orgId, 'Backups').id;
	const source = emu.addDoc(ws, { name: 'Source' }).id;
	emu.addTable(source, 'Notes', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Files', type: 'Attachments' },
	]);
	const ids = [
		emu.addAttachment(source, { fileName: 'note.txt', data: text }),
		emu.addAttachment(source, { fileName: 'photo.png', data: png }),
	];
	emu.addRecords(source, 'Notes', [{ Name: 'one', Files: ['L', ...ids] }]);
	const site = `${emu.url}/o/${demo.orgDomain}`;
	// the document as Import File makes it from the .grist backup of a server with S3: files missing
	const restored = await importWithFilesElsewhere(site, demo.apiKey, source, ws, 'Restored');

	const cred = await n8n.createCredential({
		name: 'Grist backups',
		type: 'gristRecordsApi',
		data: { apiKey: demo.apiKey, url: site },
	});
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{ resource: 'attachment', operation: 'downloadAll', document: byId(source) },
				cred,
				{ name: 'Download All' },
			),
			gristNode(
				{ resource: 'attachment', operation: 'restoreFromArchive', document: byId(restored) },
				cred,
				{ name: 'Restore' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'exportTable',
					document: byId(demo.docId),
					table: byId('Customers'),
					format: 'tsv',
				},
				cred,
				{ name: 'Export TSV' },
			),
		]),
	);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');
	const [archive] = run.output('Download All') as Array<Record<string, unknown>>;
	expect(archive).toEqual({
		documentId: source,
		format: 'tar',
		fileName: 'Source-Attachments.tar',
		mimeType: 'application/x-tar',
		fileSize: expect.any(Number),
	});
	expect((await run.binary('Download All', 0, 'data')).length).toBe(archive.fileSize);
	expect(run.output('Restore')).toEqual([
		{ documentId: restored, fileName: 'Source-Attachments.tar', added: 2, errored: 0, unused: 0 },
	]);
	expect(run.items('Restore')[0].pairedItem).toEqual({ item: 0 });
	expect(emu.attachmentData(restored, ids[0])).toEqual(text);
	expect(sha256(emu.attachmentData(restored, ids[1])!)).toBe(sha256(png));

	expect(run.output('Export TSV')).toEqual([
		{
			documentId: demo.docId,
			tableId: 'Customers',
			fileName: 'CRM-Customers.tsv',
			mimeType: 'text/tab-separated-values',
			fileSize: expect.any(Number),
		},
	]);
	const tsv = (await run.binary('Export TSV', 0, 'data')).toString('utf8');
	expect(tsv.split('\n')[0]).toBe('Name\tEmail\tCountry\tSince');
});
