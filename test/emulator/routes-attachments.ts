/* eslint-disable @n8n/community-nodes/require-node-api-error -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * §8 Attachments: POST /api/docs/{docId}/attachments (multipart, field `upload`), GET
 * /attachments (filter/sort/limit), GET /attachments/{id} (metadata), GET
 * /attachments/{id}/download (raw bytes; Content-Type from the stored file's extension, even with
 * `?name=`, as grist-core's DocApi does).
 *
 * The archive and the stores (grist-core's DocApi, ActiveDoc, AttachmentFileManager): GET
 * /attachments/archive (`format=zip|tar`, each file as `<sha1>_<name><ext of the file>`), POST
 * /attachments/archive (the first part named `*.tar` of type application/x-tar; files the
 * document lacks are added when their bytes match their hash), POST /attachments/removeUnused
 * (`expiredonly`: unused for 7 days; `verifyfiles`), GET/POST /attachments/store, GET
 * /attachments/stores, POST /attachments/transferAll, GET /attachments/transferStatus. The
 * server has no external store (grist-core's default without S3 or MinIO): setting `external`
 * is accepted with the id `<install id>-snapshots`, as GRIST_EXTERNAL_ATTACHMENTS_MODE's default
 * does, and every upload then fails, as does reading a file in an external store. Guess: Grist
 * also marks unused attachments in the background; here only Remove Unused marks them, and a
 * transfer is over by the next request (its counts are answered by Transfer Status).
 */
import { createHash } from 'node:crypto';

import type { Ctx, Route } from './context';
import { RAW, integerParam } from './context';
import { docRoute, flag, invalidPayload, queryFromRequest } from './docworker';
import { ApiError, attachmentsTooLarge, contentDisposition, sendRaw } from './http';
import type { Attachment, Doc } from './model';
import { baseType } from './model';
import type { QueryRow } from './query';
import { runQuery } from './query';
import { tarFiles, untarFiles } from './tar';
import { zipFiles } from './zip';

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

/** The id grist-core gives the store of GRIST_EXTERNAL_ATTACHMENTS_MODE=snapshots: `<install id>-snapshots`. */
const EXTERNAL_STORE_ID = 'emulatorInstall0000000-snapshots';

function unavailableStore(storeId: string): ApiError {
	return new ApiError(500, `Store '${storeId}' is not a valid and available store`);
}

/** The bytes of an attachment's file; 500 when they are in an external store (none exists here). */
function fileData(a: Attachment): Buffer {
	if (a.storeId) throw unavailableStore(a.storeId);
	return a.data;
}

/** Node's path.extname, for the names of archive entries. */
function extname(name: string): string {
	const base = name.slice(name.lastIndexOf('/') + 1);
	const dot = base.lastIndexOf('.');
	return dot <= 0 ? '' : base.slice(dot);
}

/** ActiveDoc's attachmentToArchiveFilePath: `<hash>_<name without extension><extension of the file>`. */
function archiveName(a: Attachment): string {
	const hash = a.fileIdent.split('.')[0];
	const nameExt = extname(a.fileName);
	const base = nameExt ? a.fileName.slice(0, -nameExt.length) : a.fileName;
	return `${hash}_${base}${extname(a.fileIdent)}`;
}

/** The attachment ids that cells of Attachments columns refer to. */
function usedAttachmentIds(doc: Doc): Set<number> {
	const used = new Set<number>();
	for (const t of doc.tables) {
		const cols = t.columns.filter((col) => baseType(col.type) === 'Attachments');
		if (!cols.length) continue;
		for (const row of t.rows.values())
			for (const col of cols) {
				const v = row[col.id];
				if (Array.isArray(v)) for (const x of v) if (typeof x === 'number') used.add(x);
			}
	}
	return used;
}

/** AttachmentFileManager.locationSummary over the document's files. */
function locationSummary(doc: Doc): string {
	const files = new Map([...doc.attachments.values()].map((a) => [a.fileIdent, a]));
	if (files.size === 0) return 'none';
	const external = [...files.values()].filter((a) => a.storeId).length;
	if (external === 0) return 'internal';
	return external === files.size ? 'external' : 'mixed';
}

function transferStatus(doc: Doc, pending = 0) {
	return {
		status: {
			pendingTransferCount: pending,
			isRunning: pending > 0,
			successes: doc.attachmentTransfer?.successes ?? 0,
			failures: doc.attachmentTransfer?.failures ?? 0,
		},
		locationSummary: locationSummary(doc),
	};
}

/** The `.tar` part of a restore, as grist-core's parseMultipartFormRequest gives it (415s included). */
function tarPart(c: Ctx): Buffer | undefined {
	const type = c.req.headers['content-type'];
	if (!type) throw new ApiError(415, 'missing content-type header');
	if (c.body.kind !== 'multipart') throw new ApiError(415, 'unsupported content-type');
	return (c.body.files ?? []).find(
		(f) => f.fileName.endsWith('.tar') && f.contentType === 'application/x-tar',
	)?.data;
}

const archiveRoutes: Route[] = [
	docRoute('GET', 'attachments/archive', 'viewers', (c, doc) => {
		const raw = c.query.format;
		if (raw !== undefined && raw !== '' && raw !== 'zip' && raw !== 'tar')
			throw new ApiError(400, `format parameter ${raw} should be one of zip,tar`);
		const format = raw === 'tar' ? 'tar' : 'zip';
		const headers = {
			'Content-Type': format === 'tar' ? 'application/x-tar' : 'application/zip',
			'Content-Disposition': contentDisposition(
				'attachment',
				// the name of the open document (ActiveDoc.doc), which a rename since does not change
				`${c.query.title || `${doc.openedName ?? doc.name}-Attachments`}.${format}`,
			),
			'Cache-Control': 'no-store',
		};
		const seen = new Set<string>();
		const entries: Array<{ name: string; data: Buffer }> = [];
		const sorted = [...doc.attachments.values()].sort((a, b) => a.id - b.id);
		for (const a of sorted) {
			if (a.storeId) {
				// grist-core has sent the headers when packing fails: it resets the connection
				c.res.writeHead(200, headers);
				c.res.flushHeaders();
				c.res.destroy();
				return RAW;
			}
			const name = archiveName(a);
			if (seen.has(name)) continue;
			seen.add(name);
			entries.push({ name, data: a.data });
		}
		const body = format === 'tar' ? tarFiles(entries) : zipFiles(entries);
		sendRaw(c.res, 200, headers, body);
		return RAW;
	}),
	docRoute('POST', 'attachments/archive', 'owners', (c, doc) => {
		const tar = tarPart(c);
		if (!tar) throw new ApiError(400, 'No .tar file found in request');
		let files;
		try {
			files = untarFiles(tar);
		} catch (e) {
			const message = (e as Error).message;
			throw new ApiError(
				500,
				message === 'Unexpected end of data' ? 'File is not a valid .tar' : message,
			);
		}
		const result = { added: 0, errored: 0, unused: 0 };
		for (const f of files) {
			const base = f.name.slice(f.name.lastIndexOf('/') + 1);
			const ident = `${base.split('_')[0]}${extname(base)}`;
			const lacking = [...doc.attachments.values()].filter(
				(a) => a.fileIdent === ident && a.storeId,
			);
			if (!lacking.length) {
				result.unused += 1;
				continue;
			}
			const hash = createHash('sha1').update(f.data).digest('hex');
			if (!ident.startsWith(hash)) {
				result.errored += 1;
				continue;
			}
			for (const a of lacking) {
				a.data = Buffer.from(f.data);
				a.fileSize = f.data.length;
				delete a.storeId;
			}
			result.added += 1;
		}
		return result;
	}),
	docRoute('POST', 'attachments/removeUnused', 'owners', (c, doc) => {
		const now = c.store.clock();
		const used = usedAttachmentIds(doc);
		for (const a of doc.attachments.values()) {
			if (used.has(a.id)) delete a.timeDeleted;
			else a.timeDeleted ??= now;
		}
		const expiry = now - 7 * 24 * 3600 * 1000;
		for (const a of [...doc.attachments.values()]) {
			const gone = flag(c, 'expiredonly')
				? a.timeDeleted !== undefined && a.timeDeleted < expiry
				: a.timeDeleted !== undefined;
			if (gone) doc.attachments.delete(a.id);
		}
		return null;
	}),
	docRoute('GET', 'attachments/store', 'viewers', (_c, doc) => ({
		type: doc.attachmentStoreId ? 'external' : 'internal',
	})),
	docRoute('POST', 'attachments/store', 'owners', (c, doc) => {
		const body = (c.body.json ?? {}) as { type?: unknown };
		if (body.type === undefined) throw invalidPayload('value.type is missing');
		if (body.type !== 'internal' && body.type !== 'external')
			throw invalidPayload(
				'value.type is not a AttachmentStore; value.type is none of "internal", "external"',
			);
		if (body.type === 'internal') delete doc.attachmentStoreId;
		else doc.attachmentStoreId = EXTERNAL_STORE_ID;
		return doc.attachmentStoreId ? { store: doc.attachmentStoreId } : {};
	}),
	docRoute('GET', 'attachments/stores', 'owners', () => ({ stores: [] })),
	docRoute('POST', 'attachments/transferAll', 'owners', (_c, doc) => {
		// every file not in the document's store is moved; none can reach or leave an external
		// store here, so each move fails
		const target = doc.attachmentStoreId;
		const files = new Map([...doc.attachments.values()].map((a) => [a.fileIdent, a]));
		const moving = [...files.values()].filter((a) => (a.storeId ?? undefined) !== target).length;
		doc.attachmentTransfer = { successes: 0, failures: moving };
		return transferStatus(doc, moving);
	}),
	docRoute('GET', 'attachments/transferStatus', 'viewers', (_c, doc) => transferStatus(doc)),
];

export const attachmentsRoutes: Route[] = [
	...archiveRoutes,
	docRoute('POST', 'attachments', 'editors', (c, doc) => {
		const files = (c.body.files ?? []).filter((f) => f.field === 'upload');
		if (c.body.kind !== 'multipart' || !files.length) throw new ApiError(400, 'missing payload');
		if (doc.attachmentStoreId) throw unavailableStore(doc.attachmentStoreId);
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
		const data = fileData(a);
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
			data,
		);
		return RAW;
	}),
];
