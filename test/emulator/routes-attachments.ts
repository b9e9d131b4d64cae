/**
 * §8 Attachments: POST /api/docs/{docId}/attachments (multipart, field `upload`), GET
 * /attachments (filter/sort/limit), GET /attachments/{id} (metadata), GET
 * /attachments/{id}/download (raw bytes; Content-Type from the stored file's extension, even with
 * `?name=`, as grist-core's DocApi does).
 */
import type { Route } from './context';
import { RAW, integerParam } from './context';
import { docRoute, flag, queryFromRequest } from './docworker';
import { ApiError, attachmentsTooLarge, contentDisposition, sendRaw } from './http';
import type { Doc } from './model';
import type { QueryRow } from './query';
import { runQuery } from './query';

const MIME: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	gif: 'image/gif',
	webp: 'image/webp',
	svg: 'image/svg+xml',
	bmp: 'image/bmp',
	ico: 'image/vnd.microsoft.icon',
	pdf: 'application/pdf',
	txt: 'text/plain',
	csv: 'text/csv',
	tsv: 'text/tab-separated-values',
	json: 'application/json',
	xml: 'application/xml',
	html: 'text/html',
	htm: 'text/html',
	md: 'text/markdown',
	zip: 'application/zip',
	gz: 'application/gzip',
	mp3: 'audio/mpeg',
	wav: 'audio/wav',
	mp4: 'video/mp4',
	webm: 'video/webm',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	js: 'application/javascript',
};

function mimeFor(fileName: string): string {
	const m = fileName.toLowerCase().match(/\.([a-z0-9]+)$/);
	return (m && MIME[m[1]]) || 'application/octet-stream';
}

function getAttachment(doc: Doc, raw: string) {
	const id = integerParam(raw, 'attId');
	const a = doc.attachments.get(id);
	if (!a) throw new ApiError(404, `Attachment not found: ${id}`);
	return a;
}

export const attachmentsRoutes: Route[] = [
	docRoute('POST', 'attachments', 'editors', (c, doc) => {
		const files = (c.body.files ?? []).filter((f) => f.field === 'upload');
		if (c.body.kind !== 'multipart' || !files.length) throw new ApiError(400, 'missing payload');
		for (const f of files)
			if (f.data.length > c.opts.attachmentMaxBytes)
				throw attachmentsTooLarge(c.opts.attachmentMaxBytes);
		return files.map((f) => c.store.addAttachment(doc, f.fileName, f.data));
	}),
	docRoute('GET', 'attachments', 'viewers', (c, doc) => {
		const rows: QueryRow[] = [...doc.attachments.values()]
			.sort((a, b) => a.id - b.id)
			.map((a) => ({
				id: a.id,
				row: { fileName: a.fileName, fileSize: a.fileSize, timeUploaded: a.timeUploaded },
			}));
		const known = new Set(['fileName', 'fileSize', 'timeUploaded']);
		const out = runQuery(
			rows,
			queryFromRequest(c),
			(k) => known.has(k),
			(k) => (known.has(k) ? k : undefined),
		);
		return { records: out.map((r) => ({ id: r.id, fields: r.row })) };
	}),
	docRoute('GET', 'attachments/([^/]+)', 'viewers', (_c, doc, m) => {
		const a = getAttachment(doc, m[2]);
		return { fileName: a.fileName, fileSize: a.fileSize, timeUploaded: a.timeUploaded };
	}),
	docRoute('GET', 'attachments/([^/]+)/download', 'viewers', (c, doc, m) => {
		const a = getAttachment(doc, m[2]);
		const name = c.query.name || a.fileName;
		const type = mimeFor(a.fileName); // grist-core: `.type(ext)` of the stored file, not of `name`
		const inline = flag(c, 'inline') && type !== 'text/html';
		sendRaw(
			c.res,
			200,
			{
				'Content-Type': type,
				'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', name),
				'Cache-Control': 'private, max-age=3600',
				'Content-Security-Policy': "sandbox; default-src 'none'",
			},
			a.data,
		);
		return RAW;
	}),
];
