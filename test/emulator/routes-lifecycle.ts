/* eslint-disable @n8n/community-nodes/require-node-api-error -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * §3–§4 document and workspace lifecycle (grist-core DocApi.ts, ApiServer.ts, HomeDBManager.ts,
 * DocManager.ts, DocWorker.ts):
 * - POST /api/docs/{docId}/remove (`?permanent=1`: hard delete, answers the id) and
 *   POST /api/docs/{docId}/unremove; POST /api/workspaces/{wid}/remove (`?permanent=1`) and
 *   /unremove. Soft delete sets `removedAt` (listed only with `?showRemoved=1`, a doc in the trash
 *   is 404 `document not found` in the home DB and 404 `Document is deleted` on doc-worker
 *   routes; a doc of a workspace in the trash counts as in the trash). Owners only (403
 *   `access denied`); remove needs write access first (403 `No write access`). Unremove of
 *   something not in the trash is a 200 no-op, as in grist-core. Both answer `null`.
 * - POST /api/docs/{docId}/copy `{workspaceId, documentName?, asTemplate?}` (viewers of the
 *   source; ADD on the workspace: 403 `access denied`, 404 `workspace not found`, 400 `Cannot add
 *   document to a deleted workspace`): a new document with the tables, columns, rows and
 *   attachments (as template: no rows, no attachments), named `documentName` or else the source's
 *   id (as grist-core names the upload); answers the new id.
 * - GET /api/docs/{docId}/download (`nohistory`, `template`): the `.grist` file (grist-file.ts),
 *   `Content-Type: application/x-sqlite3`, `attachment; filename="<title or name>.grist"`.
 * - POST /api/workspaces/{wid}/import, multipart `upload` (+ `documentName`): a new document from
 *   a CSV/TSV, XLSX or `.grist` file (import-file.ts); answers `{id, title}` (title: the file's
 *   base name). Unreadable file: 400 with Grist's parser message, and the document, created
 *   before the file was read, stays in the workspace without tables (as in grist-core: the error
 *   body does not name it); after a bad `.grist` file it cannot be opened (500
 *   `NO_METADATA_ERROR: <docId> has no metadata` on the routes that open it, docworker.ts).
 */
import type { Ctx, Route } from './context';
import {
	RAW,
	docWorkerAccess,
	integerParam,
	json,
	ownerOrDeny,
	resolveDoc,
	resolveWorkspace,
} from './context';
import { flushDocAuth } from './doc-auth';
import { buildGristFile, readGristAttachments } from './grist-file';
import { wsAccess } from './home';
import { ApiError, contentDisposition, sendRaw } from './http';
import { ImportError, readImport, splitName } from './import-file';
import type { Doc, Table, Workspace } from './model';
import { atLeast, newColId } from './model';
import { isAffirmative } from './query';

function wsOrDeny(c: Ctx, raw: string): Workspace {
	const ws = resolveWorkspace(c, raw);
	if (!wsAccess(c, ws)) throw new ApiError(403, 'access denied');
	return ws;
}

const ASK_FOR_HELP = [{ action: 'ask-for-help', message: 'Ask for help' }];

/** DocManager.importDocToWorkspace (copies and imports) adds a tip to every error it passes on. */
function askForHelp<T>(fn: () => T): T {
	try {
		return fn();
	} catch (e) {
		if (e instanceof ApiError) throw new ApiError(e.status, e.message, { tips: ASK_FOR_HELP });
		throw e;
	}
}

/** HomeDBManager.addDocument's checks on the target workspace. */
function targetWorkspace(c: Ctx, wid: number): Workspace {
	const ws = c.store.workspaces.get(wid);
	if (!ws) throw new ApiError(404, 'workspace not found');
	if (!atLeast(c.store.wsRole(c.user.id, ws), 'editors')) throw new ApiError(403, 'access denied');
	if (ws.removedAt) throw new ApiError(400, 'Cannot add document to a deleted workspace');
	return ws;
}

function newDoc(c: Ctx, ws: Workspace, name: string): Doc {
	const doc = c.store.createDoc(ws.id, { name });
	if (!c.isAnon) doc.acl.set(c.user.id, 'owners');
	return doc;
}

export function copyTables(src: Doc, dst: Doc, withData: boolean): void {
	dst.tables = src.tables.map(
		(t): Table => ({
			...t,
			columns: t.columns.map((col) => ({ ...col })),
			rows: withData
				? new Map([...t.rows].map(([id, row]) => [id, structuredClone(row)]))
				: new Map(),
			ordered: withData ? t.ordered : true,
			maxId: withData ? t.maxId : 0,
			version: 0,
		}),
	);
	if (withData) {
		for (const a of src.attachments.values())
			dst.attachments.set(a.id, { ...a, data: Buffer.from(a.data) });
		dst.maxAttId = src.maxAttId;
	}
}

async function importInto(c: Ctx, doc: Doc, fileName: string, data: Buffer): Promise<void> {
	const read = await readImport(fileName, data);
	if (read.kind === 'grist') {
		for (const rt of read.tables) {
			const t = c.store.addTable(doc, c.store.newTableId(doc, rt.tableId));
			for (const col of rt.columns)
				c.store.addColumn(doc, t, {
					id: col.id,
					type: col.type,
					label: col.label,
					formula: col.formula,
					isFormula: col.isFormula,
					widgetOptions: col.widgetOptions,
				});
			c.store.insertRows(
				t,
				rt.rows.map((r) => r.values),
				rt.rows.map((r) => r.id),
			);
		}
		for (const a of await readGristAttachments(data)) {
			doc.attachments.set(a.id, a);
			doc.maxAttId = Math.max(doc.maxAttId, a.id);
		}
		return;
	}
	for (const it of read.tables) {
		const t = c.store.addTable(doc, c.store.newTableId(doc, it.name));
		const ids: string[] = [];
		it.columns.forEach((col) => {
			const created = c.store.addColumn(doc, t, {
				id: newColId(t, col.label), // identifiers.py: from the label, else A, B, C…
				type: col.type,
				label: col.label || undefined,
				isFormula: col.isFormula,
				formula: '',
			});
			ids.push(created.id);
		});
		const count = Math.max(0, ...it.columns.map((col) => col.values.length));
		const rows: Array<Record<string, unknown>> = [];
		for (let r = 0; r < count; r++) {
			const row: Record<string, unknown> = {};
			it.columns.forEach((col, i) => {
				if (col.isFormula) return;
				const v = col.values[r];
				row[ids[i]] = v === null || v === undefined ? (col.type === 'Text' ? '' : null) : v;
			});
			rows.push(row);
		}
		c.store.insertRows(t, rows);
	}
}

function removeRoutes(): Route[] {
	return [
		{
			method: 'POST',
			re: /^\/api\/docs\/([^/]+)\/remove$/,
			handler: (c, m) => {
				const doc = docWorkerAccess(c, m[1], 'editors', true);
				ownerOrDeny(c.store.docRole(c.user.id, doc));
				// DocApi._removeDoc flushes the document's doc-auth cache entries (doc-auth.ts)
				if (isAffirmative(c.query.permanent)) {
					c.store.docs.delete(doc.id);
					flushDocAuth(c, doc);
					return doc.id;
				}
				doc.removedAt = c.store.now();
				flushDocAuth(c, doc);
				return null;
			},
		},
		{
			method: 'POST',
			re: /^\/api\/docs\/([^/]+)\/unremove$/,
			handler: (c, m) => {
				const doc = resolveDoc(c, m[1]);
				const role = c.store.docRole(c.user.id, doc);
				if (!role) throw new ApiError(403, 'access denied');
				ownerOrDeny(role);
				doc.removedAt = null;
				return null;
			},
		},
		{
			method: 'POST',
			re: /^\/api\/workspaces\/([^/]+)\/remove$/,
			handler: (c, m) => {
				const ws = wsOrDeny(c, m[1]);
				ownerOrDeny(c.store.wsRole(c.user.id, ws));
				if (isAffirmative(c.query.permanent)) {
					c.store.deleteWorkspace(ws);
					return ws.id;
				}
				ws.removedAt = c.store.now();
				return null;
			},
		},
		{
			method: 'POST',
			re: /^\/api\/workspaces\/([^/]+)\/unremove$/,
			handler: (c, m) => {
				const ws = wsOrDeny(c, m[1]);
				ownerOrDeny(c.store.wsRole(c.user.id, ws));
				ws.removedAt = null;
				return null;
			},
		},
	];
}

export const lifecycleRoutes: Route[] = [
	...removeRoutes(),
	{
		method: 'POST',
		re: /^\/api\/docs\/([^/]+)\/copy$/,
		handler: (c, m) => {
			const src = docWorkerAccess(c, m[1], 'viewers');
			const body = (json(c) ?? {}) as Record<string, unknown>;
			if (body.workspaceId === undefined)
				// grist-core makes an unsaved copy (a fork-like doc): not emulated
				throw new ApiError(400, 'workspaceId parameter is required');
			const wid = integerParam(String(body.workspaceId), 'workspaceId');
			if (body.documentName !== undefined && typeof body.documentName !== 'string')
				throw new ApiError(
					400,
					`documentName parameter should be a string: ${String(body.documentName)}`,
				);
			let asTemplate = false;
			if (body.asTemplate !== undefined) {
				if (typeof body.asTemplate === 'boolean') asTemplate = body.asTemplate;
				else if (isAffirmative(body.asTemplate)) asTemplate = true;
				else if (String(body.asTemplate) !== 'false')
					throw new ApiError(
						400,
						`asTemplate parameter should be a boolean: ${String(body.asTemplate)}`,
					);
			}
			const ws = askForHelp(() => targetWorkspace(c, wid));
			const doc = newDoc(c, ws, (body.documentName as string | undefined) ?? src.id);
			copyTables(src, doc, !asTemplate);
			return doc.id;
		},
	},
	{
		method: 'GET',
		re: /^\/api\/docs\/([^/]+)\/download$/,
		handler: async (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'viewers');
			const file = await buildGristFile(c.store, doc, {
				template: isAffirmative(c.query.template),
			});
			sendRaw(
				c.res,
				200,
				{
					'Content-Type': 'application/x-sqlite3',
					'Content-Disposition': contentDisposition(
						'attachment',
						`${c.query.title || doc.name}.grist`,
					),
				},
				file,
			);
			return RAW;
		},
	},
	{
		method: 'POST',
		re: /^\/api\/workspaces\/([^/]+)\/import$/,
		handler: async (c, m) => {
			const wid = integerParam(m[1], 'wid');
			const fields = c.body.fields ?? {};
			const files = (c.body.files ?? []).filter((f) => f.field === 'upload');
			if (c.body.kind !== 'multipart' || files.length === 0)
				throw new ApiError(400, 'uploadId parameter cannot be understood as an integer: undefined');
			const file = files[0];
			const ws = askForHelp(() => targetWorkspace(c, wid));
			const { base, ext } = splitName(file.fileName);
			// DocManager.importDocToWorkspace registers the document in the workspace before it
			// reads the file, and nothing removes it when reading fails: it stays, without tables.
			// A CSV or Excel file is read into a new empty document; for a `.grist` file Grist first
			// creates an empty file for the document and copies the upload over it only once the
			// upload passed its check (DocManager.importGristDoc), so a bad one leaves an empty file
			// that cannot be opened (`noMetadata`).
			const doc = newDoc(c, ws, fields.documentName || base);
			try {
				await importInto(c, doc, file.fileName, file.data);
			} catch (e) {
				doc.tables = [];
				doc.colSlots = undefined;
				doc.tableSlots = undefined;
				if (ext === '.grist') doc.noMetadata = true;
				if (e instanceof ImportError) throw new ApiError(400, e.message, { tips: ASK_FOR_HELP });
				throw e;
			}
			return { id: doc.id, title: base };
		},
	},
];
