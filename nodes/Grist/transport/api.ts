/**
 * The Grist API, by section: one named call per endpoint the package uses. Every path is built
 * here, from encoded segments (a bad id fails as an input error naming the field), and every call
 * goes through the transport (GristClient: auth, retries, error mapping). Operations, pickers and
 * the trigger call these functions; none of them builds a path.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AccessListing } from '../documents/roles';
import type { GristRecord } from '../cells/cellValues';
import type { CompareResponse, HistoryState } from '../helpers/changes';
import { columnMap, columnTypes, toColumn, type GristColumn } from '../cells/tableColumns';
import { toNodeError } from '../errors/nodeErrors';
import { withHint } from '../errors/hints';
import { sqlRecord } from '../query/recordConditions';
import { sqlIdList } from '../helpers/references';
import { sqlIdentifier } from '../query/sqlQuery';
import { apiPath, siteOrgKey } from '../helpers/url';
import type { TriggerRecord } from '../webhooks/webhookConditions';
import type { WebhookFields, WebhookSummary } from '../webhooks/webhookFields';
import type { BinaryResponse, GristClient, StreamResponse } from './index';

type Segment = string | number | { value: string | number; label: string };

/** Builds an API path; bad ids give a NodeOperationError naming the field. */
export function buildPath(client: GristClient, ...parts: Segment[]): string {
	try {
		return apiPath(...parts);
	} catch (error) {
		throw toNodeError(client.getNode(), error);
	}
}

const orgSegment = (key: string | number) => ({ value: key, label: 'organization' });
const workspaceSegment = (wid: string | number) => ({ value: wid, label: 'workspace ID' });
const docSegment = (docId: string) => ({ value: docId, label: 'document ID' });

/** A table of a document: what record, column and /data calls address. */
export interface Target {
	docId: string;
	tableId: string;
}

const targetKeys = new WeakMap<Target, string>();

export function targetKey(t: Target): string {
	let key = targetKeys.get(t);
	if (key === undefined) {
		key = JSON.stringify([t.docId, t.tableId]);
		targetKeys.set(t, key);
	}
	return key;
}

function tablePath(client: GristClient, t: Target, ...rest: string[]): string {
	return buildPath(
		client,
		'docs',
		docSegment(t.docId),
		'tables',
		{ value: t.tableId, label: 'table ID' },
		...rest,
	);
}

// ---------------------------------------------------------------------------------------------
// Organizations

/** GET /api/orgs: the organizations (sites) the API key can see. */
export async function listOrgs<T = IDataObject>(
	client: GristClient,
	itemIndex?: number,
): Promise<T[]> {
	return await client.request<T[]>({
		method: 'GET',
		path: buildPath(client, 'orgs'),
		what: 'the list of organizations',
		itemIndex,
	});
}

/**
 * The org key for "this site": `picked` when given; else `/o/<team>` or `current` where the
 * server can resolve it; else the only org the key can see; else an error asking the user to
 * pick one.
 */
export async function siteOrg(
	client: GristClient,
	picked?: string | number,
): Promise<string | number> {
	if (picked !== undefined && picked !== '') return picked;
	const key = siteOrgKey(client.server);
	if (key) return key;
	const orgs = await listOrgs<{ id: number; domain: string | null }>(client);
	if (orgs.length === 1) return orgs[0].id;
	throw new NodeOperationError(
		client.getNode(),
		orgs.length === 0
			? 'The API key cannot see any organization on this Grist server'
			: `This Grist server has ${orgs.length} organizations and the Server URL does not say which one to use`,
		{
			description:
				'Pick an organization in the Organization field, or add /o/TEAM to the Server URL of the credential (e.g. https://grist.example.com/o/myteam).',
		},
	);
}

/** GET /api/orgs/{org}. */
export async function getOrg(
	client: GristClient,
	key: string | number,
	itemIndex: number,
): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: buildPath(client, 'orgs', orgSegment(key)),
		what: `organization "${key}"`,
		itemIndex,
	});
}

/** PATCH /api/orgs/{org}. */
export async function updateOrg(
	client: GristClient,
	key: string | number,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: buildPath(client, 'orgs', orgSegment(key)),
		body,
		what: `organization "${key}"`,
		itemIndex,
	});
}

/**
 * GET /api/orgs/{org}/workspaces: the workspaces the key can see, with their documents
 * (`qs.showRemoved`: those in the trash instead).
 */
export async function listOrgWorkspaces<T = IDataObject>(
	client: GristClient,
	key: string | number,
	itemIndex?: number,
	qs?: IDataObject,
): Promise<T[]> {
	return await client.request<T[]>({
		method: 'GET',
		path: buildPath(client, 'orgs', orgSegment(key), 'workspaces'),
		qs,
		what: `organization "${key}"`,
		itemIndex,
	});
}

/** Turns the answer of GET /api/orgs/{org}/workspaces into one item per document. */
export function documentsOfWorkspaces(workspaces: IDataObject[]): IDataObject[] {
	const docs: IDataObject[] = [];
	for (const ws of workspaces) {
		for (const doc of (ws.docs as IDataObject[] | undefined) ?? []) {
			docs.push({
				...doc,
				workspace: {
					id: ws.id,
					name: ws.name,
					...(ws.orgDomain !== undefined ? { orgDomain: ws.orgDomain } : {}),
				},
			});
		}
	}
	return docs;
}

// ---------------------------------------------------------------------------------------------
// Workspaces

/** POST /api/orgs/{org}/workspaces; returns the new workspace's id. */
export async function createWorkspace(
	client: GristClient,
	key: string | number,
	body: IDataObject,
	itemIndex: number,
): Promise<number> {
	const wid = await client.request<number>({
		method: 'POST',
		path: buildPath(client, 'orgs', orgSegment(key), 'workspaces'),
		body,
		what: `organization "${key}"`,
		itemIndex,
	});
	return Number(wid);
}

/** GET /api/workspaces/{wid}: the workspace with its documents and org (`qs.showRemoved`: the trashed ones). */
export async function getWorkspace<T = IDataObject>(
	client: GristClient,
	wid: string | number,
	itemIndex?: number,
	qs?: IDataObject,
): Promise<T> {
	return await client.request<T>({
		method: 'GET',
		path: buildPath(client, 'workspaces', workspaceSegment(wid)),
		qs,
		what: `workspace ${wid}`,
		itemIndex,
	});
}

/** PATCH /api/workspaces/{wid}. */
export async function updateWorkspace(
	client: GristClient,
	wid: number,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: buildPath(client, 'workspaces', workspaceSegment(wid)),
		body,
		what: `workspace ${wid}`,
		itemIndex,
	});
}

/** DELETE /api/workspaces/{wid}: permanent, with all its documents. */
export async function deleteWorkspace(
	client: GristClient,
	wid: number,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'DELETE',
		path: buildPath(client, 'workspaces', workspaceSegment(wid)),
		what: `workspace ${wid}`,
		itemIndex,
	});
}

// ---------------------------------------------------------------------------------------------
// Documents

/** POST /api/workspaces/{wid}/docs; returns the new document's id. */
export async function createDocument(
	client: GristClient,
	wid: number,
	body: IDataObject,
	itemIndex: number,
): Promise<string> {
	const docId = await client.request<string>({
		method: 'POST',
		path: buildPath(client, 'workspaces', workspaceSegment(wid), 'docs'),
		body,
		what: `workspace ${wid}`,
		itemIndex,
	});
	return String(docId);
}

/** GET /api/docs/{docId}: the document with its workspace and org. */
export async function getDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId)),
		what: `document "${docId}"`,
		itemIndex,
	});
}

/** PATCH /api/docs/{docId} (name, isPinned). */
export async function updateDocument(
	client: GristClient,
	docId: string,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: buildPath(client, 'docs', docSegment(docId)),
		body,
		what: `document "${docId}"`,
		itemIndex,
	});
}

/** DELETE /api/docs/{docId}. */
export async function deleteDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'DELETE',
		path: buildPath(client, 'docs', docSegment(docId)),
		what: `document "${docId}"`,
		itemIndex,
	});
}

/** PATCH /api/docs/{docId}/move `{ workspace }`. */
export async function moveDocument(
	client: GristClient,
	docId: string,
	wid: number,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: buildPath(client, 'docs', docSegment(docId), 'move'),
		body: { workspace: wid },
		what: `document "${docId}"`,
		itemIndex,
	});
}

export interface ExportRequest {
	docId: string;
	format: 'xlsx' | 'csv';
	tableId?: string;
}

/** GET /api/docs/{docId}/download/{xlsx|csv}: the file, byte for byte. */
export async function exportDocument(
	client: GristClient,
	req: ExportRequest,
	qs: IDataObject,
	itemIndex: number,
): Promise<BinaryResponse> {
	return await client.binary({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(req.docId), 'download', req.format),
		qs,
		what:
			req.tableId !== undefined
				? `table "${req.tableId}" of document "${req.docId}"`
				: `document "${req.docId}"`,
		itemIndex,
	});
}

// ---------------------------------------------------------------------------------------------
// Document and workspace lifecycle: trash and restore, copy, .grist backup, import

export type TrashTarget = { kind: 'document'; docId: string } | { kind: 'workspace'; wid: number };

function trashPath(
	client: GristClient,
	t: TrashTarget,
	action: 'remove' | 'unremove',
): { path: string; what: string } {
	return t.kind === 'document'
		? {
				path: buildPath(client, 'docs', docSegment(t.docId), action),
				what: `document "${t.docId}"`,
			}
		: {
				path: buildPath(client, 'workspaces', workspaceSegment(t.wid), action),
				what: `workspace ${t.wid}`,
			};
}

/** POST /api/docs/{docId}/remove or /api/workspaces/{wid}/remove: Grist's soft delete (the trash). */
export async function moveToTrash(
	client: GristClient,
	target: TrashTarget,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'POST', ...trashPath(client, target, 'remove'), itemIndex });
}

/** POST …/unremove: takes a document or workspace out of the trash. */
export async function restoreFromTrash(
	client: GristClient,
	target: TrashTarget,
	itemIndex: number,
): Promise<void> {
	await client.request({ method: 'POST', ...trashPath(client, target, 'unremove'), itemIndex });
	// Grist may go on answering that the documents are deleted for a few seconds: the transport
	// waits that out for the requests that follow, in this node or the next ones
	client.restored();
}

/** GET /api/workspaces/{wid}?showRemoved=1: the workspace as the trash shows it (its trashed documents). */
export async function getWorkspaceTrash(
	client: GristClient,
	wid: number,
	itemIndex: number,
): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: buildPath(client, 'workspaces', workspaceSegment(wid)),
		qs: { showRemoved: 1 },
		what: `workspace ${wid}`,
		itemIndex,
	});
}

/** GET /api/docs/{docId}?showRemoved=1: a document in the trash (404 when it is not in it). */
export async function getTrashedDocument(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId)),
		qs: { showRemoved: 1 },
		what: `document "${docId}" in the trash`,
		itemIndex,
	});
}

/** POST /api/docs/{docId}/copy `{workspaceId, documentName, asTemplate}`; returns the new id. */
export async function copyDocument(
	client: GristClient,
	docId: string,
	body: { workspaceId: number; documentName: string; asTemplate: boolean },
	itemIndex: number,
): Promise<string> {
	const id = await client.request<string>({
		method: 'POST',
		path: buildPath(client, 'docs', docSegment(docId), 'copy'),
		body,
		what: `document "${docId}"`,
		itemIndex,
	});
	return String(id);
}

/** GET /api/docs/{docId}/download (`nohistory`, `template`): the whole document as a .grist file, streamed. */
export async function downloadDocumentFile(
	client: GristClient,
	docId: string,
	qs: IDataObject,
	itemIndex: number,
): Promise<StreamResponse> {
	return await client.binaryStream({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'download'),
		qs,
		what: `document "${docId}"`,
		itemIndex,
	});
}

/** POST /api/workspaces/{wid}/import (multipart `upload` + `documentName`): `{id, title}` of the new document. */
export async function importDocument(
	client: GristClient,
	wid: number,
	form: FormData,
	itemIndex: number,
): Promise<{ id: string; title?: string }> {
	return await client.request<{ id: string; title?: string }>({
		method: 'POST',
		path: buildPath(client, 'workspaces', workspaceSegment(wid), 'import'),
		body: form,
		what: `workspace ${wid}`,
		itemIndex,
	});
}

// ---------------------------------------------------------------------------------------------
// Access (orgs, workspaces, documents)

export type AccessScope =
	| { kind: 'org'; key: string | number }
	| { kind: 'workspace'; wid: number }
	| { kind: 'document'; docId: string };

function accessPath(client: GristClient, scope: AccessScope): { path: string; what: string } {
	if (scope.kind === 'org') {
		return {
			path: buildPath(client, 'orgs', orgSegment(scope.key), 'access'),
			what: `organization "${scope.key}"`,
		};
	}
	if (scope.kind === 'workspace') {
		return {
			path: buildPath(client, 'workspaces', workspaceSegment(scope.wid), 'access'),
			what: `workspace ${scope.wid}`,
		};
	}
	return {
		path: buildPath(client, 'docs', docSegment(scope.docId), 'access'),
		what: `document "${scope.docId}"`,
	};
}

/** GET …/access: the users with access (and, below orgs, maxInheritedRole). */
export async function getAccess(
	client: GristClient,
	scope: AccessScope,
	itemIndex: number,
): Promise<AccessListing> {
	return await client.request<AccessListing>({
		method: 'GET',
		...accessPath(client, scope),
		itemIndex,
	});
}

/**
 * PATCH …/access with a delta. Grist's own message is kept; known cases get a hint that says
 * what to do.
 */
export async function updateAccess(
	client: GristClient,
	scope: AccessScope,
	body: { delta: IDataObject | object },
	itemIndex: number,
): Promise<void> {
	try {
		await client.request({ method: 'PATCH', ...accessPath(client, scope), body, itemIndex });
	} catch (error) {
		throw withHint(error, 'access.update');
	}
}

// ---------------------------------------------------------------------------------------------
// Tables and columns

/** GET /api/docs/{docId}/tables. */
export async function listTables(
	client: GristClient,
	docId: string,
): Promise<Array<{ id: string; fields: IDataObject }>> {
	const res = await client.request<{ tables: Array<{ id: string; fields: IDataObject }> }>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'tables'),
		what: `document "${docId}"`,
	});
	return res.tables;
}

export interface FetchColumnsOptions {
	/** Also return `manualSort` and `gristHelper_*` columns. */
	hidden?: boolean;
	itemIndex?: number;
}

/** `GET /api/docs/{docId}/tables/{tableId}/columns` → flattened columns, in Grist's order. */
export async function fetchColumns(
	client: GristClient,
	t: Target,
	opts: FetchColumnsOptions = {},
): Promise<GristColumn[]> {
	const res = await client.request<{ columns?: Array<{ id: string; fields?: IDataObject }> }>({
		method: 'GET',
		path: tablePath(client, t, 'columns'),
		qs: opts.hidden ? { hidden: 1 } : undefined,
		what: `table "${t.tableId}"`,
		itemIndex: opts.itemIndex,
	});
	return (res?.columns ?? []).map(toColumn);
}

/** `GET /api/docs/{docId}/tables` (with `expand=column`: each table's columns too). */
export async function fetchTables(
	client: GristClient,
	docId: string,
	opts: { columns?: boolean; itemIndex?: number } = {},
): Promise<Array<{ id: string; fields: IDataObject; columns?: GristColumn[] }>> {
	const res = await client.request<{
		tables?: Array<{
			id: string;
			fields: IDataObject;
			columns?: Array<{ id: string; fields?: IDataObject }>;
		}>;
	}>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'tables'),
		qs: opts.columns ? { expand: 'column' } : undefined,
		what: `document "${docId}"`,
		itemIndex: opts.itemIndex,
	});
	return (res?.tables ?? []).map((t) =>
		t.columns ? { ...t, columns: t.columns.map(toColumn) } : { id: t.id, fields: t.fields },
	);
}

/** `POST /api/docs/{docId}/tables`; returns the new tables' ids (Grist may adjust them). */
export async function createTables(
	client: GristClient,
	docId: string,
	tables: IDataObject[],
	itemIndex: number,
): Promise<string[]> {
	const res = await client.request<{ tables?: Array<{ id: string }> }>({
		method: 'POST',
		path: buildPath(client, 'docs', docSegment(docId), 'tables'),
		body: { tables },
		what: `document "${docId}"`,
		itemIndex,
	});
	return (res?.tables ?? []).map((t) => t.id);
}

/** `PATCH /api/docs/{docId}/tables` (`{ id, fields }` each; `fields.tableId` renames). */
export async function updateTables(
	client: GristClient,
	docId: string,
	tables: IDataObject[],
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: buildPath(client, 'docs', docSegment(docId), 'tables'),
		body: { tables },
		what: `document "${docId}"`,
		itemIndex,
	});
}

/** `POST /api/docs/{docId}/apply`: user actions, all applied or none (e.g. `["RemoveTable", id]`). */
export async function applyUserActions(
	client: GristClient,
	docId: string,
	actions: unknown[][],
	itemIndex: number,
	qs?: IDataObject,
): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'POST',
		path: buildPath(client, 'docs', docSegment(docId), 'apply'),
		qs,
		body: actions,
		what: `document "${docId}"`,
		itemIndex,
	});
}

/** `POST …/columns`; returns the new columns' ids (Grist may adjust them). */
export async function addColumnsToTable(
	client: GristClient,
	t: Target,
	columns: IDataObject[],
	itemIndex: number,
): Promise<string[]> {
	const res = await client.request<{ columns?: Array<{ id: string }> }>({
		method: 'POST',
		path: tablePath(client, t, 'columns'),
		body: { columns },
		what: `table "${t.tableId}"`,
		itemIndex,
	});
	return (res?.columns ?? []).map((c) => c.id);
}

/**
 * `PATCH …/columns` (all with the same field set) or `PUT …/columns` (create or update, with
 * `noadd`, `noupdate`, `replaceall`: the last removes every column not listed).
 */
export async function writeColumns(
	client: GristClient,
	t: Target,
	method: 'PATCH' | 'PUT',
	columns: IDataObject[],
	itemIndex: number,
	flags: { noadd?: boolean; noupdate?: boolean; replaceall?: boolean } = {},
): Promise<void> {
	const qs: IDataObject = {};
	for (const [k, v] of Object.entries(flags)) if (v) qs[k] = 1;
	await client.request({
		method,
		path: tablePath(client, t, 'columns'),
		qs: Object.keys(qs).length > 0 ? qs : undefined,
		body: { columns },
		what: `table "${t.tableId}"`,
		itemIndex,
	});
}

/** `DELETE …/columns/{colId}`: the column and its data. */
export async function deleteColumn(
	client: GristClient,
	t: Target,
	colId: string,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'DELETE',
		path: buildPath(
			client,
			'docs',
			docSegment(t.docId),
			'tables',
			{ value: t.tableId, label: 'table ID' },
			'columns',
			{ value: colId, label: 'column ID' },
		),
		what: `column "${colId}" of table "${t.tableId}"`,
		itemIndex,
	});
}

export interface TableInfo {
	columns: GristColumn[];
	byId: Map<string, GristColumn>;
	types: Record<string, string>;
}

/**
 * Columns of each table, fetched once per execution (one GET per table; a failed GET is not
 * kept). With `hidden` (the default) Grist's helper columns are listed too.
 */
export class ColumnCache {
	private readonly cache = new Map<string, Promise<GristColumn[]>>();
	private readonly infos = new Map<string, TableInfo>();

	constructor(
		private readonly client: GristClient,
		private readonly opts: { hidden: boolean } = { hidden: true },
	) {}

	/** Columns plus lookups built once per table (not per item). */
	async info(t: Target, itemIndex?: number): Promise<TableInfo> {
		const key = targetKey(t);
		const known = this.infos.get(key);
		if (known) return known;
		const columns = await this.get(t, itemIndex);
		const info = { columns, byId: columnMap(columns), types: columnTypes(columns) };
		this.infos.set(key, info);
		return info;
	}

	async get(t: Target, itemIndex?: number): Promise<GristColumn[]> {
		const key = targetKey(t);
		let p = this.cache.get(key);
		if (!p) {
			p = fetchColumns(this.client, t, { hidden: this.opts.hidden, itemIndex });
			this.cache.set(key, p);
			p.catch(() => this.cache.delete(key));
		}
		return await p;
	}
}

/**
 * The table IDs of each document, read once per execution (one GET /tables per document, only
 * when asked; a failed GET is not kept). `add` notes a table created since.
 */
export class TableCache {
	private readonly cache = new Map<string, Promise<Set<string>>>();

	constructor(private readonly client: GristClient) {}

	async ids(docId: string, itemIndex?: number): Promise<Set<string>> {
		let p = this.cache.get(docId);
		if (!p) {
			p = fetchTables(this.client, docId, { itemIndex }).then((ts) => new Set(ts.map((t) => t.id)));
			this.cache.set(docId, p);
			p.catch(() => this.cache.delete(docId));
		}
		return await p;
	}

	async add(docId: string, tableId: string): Promise<void> {
		const p = this.cache.get(docId);
		if (p) (await p.catch(() => undefined))?.add(tableId);
	}
}

// ---------------------------------------------------------------------------------------------
// Records

/** GET …/records with `filter`, `sort`, `limit`, `hidden` as given. */
export async function fetchRecords(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	itemIndex?: number,
): Promise<GristRecord[]> {
	const res = await client.request<{ records?: GristRecord[] }>({
		method: 'GET',
		path: tablePath(client, t, 'records'),
		qs,
		what: `table "${t.tableId}"`,
		itemIndex,
	});
	return res?.records ?? [];
}

/** POST …/records; returns the new rows' ids in the order of `records`. */
export async function addRecords(
	client: GristClient,
	t: Target,
	records: IDataObject[],
	qs: IDataObject,
	itemIndex: number,
): Promise<Array<{ id: number }>> {
	const res = await client.request<{ records?: Array<{ id: number }> }>({
		method: 'POST',
		path: tablePath(client, t, 'records'),
		qs,
		body: { records },
		what: `table "${t.tableId}"`,
		itemIndex,
	});
	return res?.records ?? [];
}

/** PATCH …/records (`{ id, fields }` each, one field set per request). */
export async function updateRecords(
	client: GristClient,
	t: Target,
	records: Array<{ id: number; fields: IDataObject }>,
	qs: IDataObject | undefined,
	itemIndex: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: tablePath(client, t, 'records'),
		qs,
		body: { records },
		what: `table "${t.tableId}"`,
		itemIndex,
	});
}

export interface UpsertResponse {
	recordIds?: Array<number[] | number | null>;
}

/** PUT …/records (`{ require, fields }` each). */
export async function upsertRecords(
	client: GristClient,
	t: Target,
	records: Array<{ require: IDataObject; fields: IDataObject }>,
	qs: IDataObject,
	itemIndex: number,
): Promise<UpsertResponse | null> {
	return await client.request<UpsertResponse | null>({
		method: 'PUT',
		path: tablePath(client, t, 'records'),
		qs,
		body: { records },
		what: `table "${t.tableId}"`,
		itemIndex,
	});
}

/** Row IDs per `/sql` query (a JSON argument: ~7 bytes an ID, far below Grist's 1 MB body limit). */
const SQL_ID_CHUNK = 50000;
/** Characters of IDs per GET of the fallback (its filter goes in the URL: `%2C` between IDs). */
const FILTER_URL_CHARS = 8000;

/** `ids` in runs of about FILTER_URL_CHARS characters, one GET …/records?filter= each. */
function* filterIdChunks(ids: number[]): Generator<number[]> {
	let k = 0;
	while (k < ids.length) {
		let chars = 0;
		let end = k;
		while (end < ids.length && (end === k || chars < FILTER_URL_CHARS))
			chars += String(ids[end++]).length + 3;
		yield ids.slice(k, end);
		k = end;
	}
}

/**
 * GET …/records?filter={"id":[…]}: the rows `ids` of the table that exist (one record each, in
 * Grist's order), about 1,000 IDs a request so that the URL stays short; `qs` adds the other
 * parameters of every request (e.g. `hidden`).
 */
export async function fetchRecordsById(
	client: GristClient,
	t: Target,
	ids: number[],
	qs: IDataObject,
	itemIndex?: number,
): Promise<GristRecord[]> {
	const records: GristRecord[] = [];
	for (const chunk of filterIdChunks(ids)) {
		const rows = await fetchRecords(
			client,
			t,
			{ ...qs, filter: JSON.stringify({ id: chunk }) },
			itemIndex,
		);
		for (const row of rows) records.push(row);
	}
	return records;
}

/**
 * Which of `ids` are not rows of table `tableId` (the reference check before a write);
 * `undefined` when the table itself does not exist. Asks `POST /sql`
 * `SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM "T" WHERE id = value)`:
 * answered from the document's SQLite file, one primary-key search per ID, and the answer lists
 * only the missing IDs (usually none), one request per 50,000 IDs. Measured against grist-core
 * 1.7.17 for 6,320 IDs of a 10,000-row table: 11–13 ms and 173 bytes, against 27 ms and 175 KB
 * for `SELECT id … WHERE id IN (…)` and 28–44 ms for `POST …/records/list` with an id filter.
 * Where `/sql` is refused (OAuth tokens, which Grist does not allow it; 403 for a user who may not
 * read the whole document; remembered in `sqlRefused` by document for the rest of the
 * execution) it reads `GET …/records?filter={"id":[…]}` (about 1,000 IDs a request, the URL
 * stays short; every Grist version has it).
 */
export async function missingRowIds(
	client: GristClient,
	docId: string,
	tableId: string,
	ids: number[],
	itemIndex: number,
	sqlRefused: Set<string>,
): Promise<Set<number> | undefined> {
	const missing = new Set<number>();
	if (ids.length === 0) return missing;
	if (!client.isOAuth && !sqlRefused.has(docId)) {
		const sql = `SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM ${sqlIdentifier(tableId)} WHERE id = value)`;
		const bySql = async () => {
			for (let k = 0; k < ids.length; k += SQL_ID_CHUNK) {
				const chunk = ids.slice(k, k + SQL_ID_CHUNK);
				const rows = await runSql(client, docId, sql, [sqlIdList(chunk)], undefined, itemIndex);
				for (const row of rows) missing.add(Number(row.id));
			}
		};
		const failure = await bySql().then(
			() => undefined,
			(error: unknown) => error,
		);
		if (failure === undefined) return missing;
		const api = failure instanceof NodeApiError;
		if (api && /no such table/i.test(failure.message)) return undefined;
		if (!api || failure.httpCode !== '403') return await Promise.reject(failure as Error);
		sqlRefused.add(docId);
		missing.clear();
	}
	const byRecords = async () => {
		const rows = await fetchRecordsById(client, { docId, tableId }, ids, {}, itemIndex);
		const found = new Set<number>();
		for (const row of rows) found.add(row.id);
		for (const id of ids) if (!found.has(id)) missing.add(id);
	};
	const failure = await byRecords().then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure === undefined) return missing;
	if (
		failure instanceof NodeApiError &&
		failure.httpCode === '404' &&
		/table/i.test(failure.message)
	)
		return undefined;
	return await Promise.reject(failure as Error);
}

/**
 * Cells of the rows `ids` of table `tableId`, only of the columns `colIds`, in /records' encoding
 * (`types`: the table's column types); rows that do not exist are absent from the map. Asks
 * `POST /sql` `SELECT id, "A" FROM "T" WHERE id IN (SELECT value FROM json_each(?))`, one
 * request per 50,000 IDs: measured against grist-core 1.7.17 for 1,000 IDs of a 3,000-row table,
 * 12 ms and 43 KB for one column, against 15 ms and 62 KB (every column; the URL 6 KB) for
 * `GET …/records?filter={"id":[…]}`. Where `/sql` is refused (OAuth tokens; 403, remembered in
 * `sqlRefused` by document) it reads the records filtered by id, about 1,000 IDs a request.
 */
export async function readRowsById(
	client: GristClient,
	target: Target,
	colIds: string[],
	types: Record<string, string>,
	ids: number[],
	sqlRefused: Set<string>,
	itemIndex?: number,
): Promise<Map<number, Record<string, unknown>>> {
	const found = new Map<number, Record<string, unknown>>();
	if (ids.length === 0) return found;
	const { docId, tableId } = target;
	if (!client.isOAuth && !sqlRefused.has(docId)) {
		const columns = ['id', ...colIds.filter((c) => c !== 'id')].map(sqlIdentifier).join(', ');
		const sql = `SELECT ${columns} FROM ${sqlIdentifier(tableId)} WHERE id IN (SELECT value FROM json_each(?))`;
		const bySql = async () => {
			for (let k = 0; k < ids.length; k += SQL_ID_CHUNK) {
				const chunk = ids.slice(k, k + SQL_ID_CHUNK);
				const rows = await runSql(client, docId, sql, [sqlIdList(chunk)], undefined, itemIndex);
				for (const row of rows) {
					const record = sqlRecord(row, types);
					found.set(record.id, record.fields);
				}
			}
		};
		const failure = await bySql().then(
			() => undefined,
			(error: unknown) => error,
		);
		if (failure === undefined) return found;
		if (!(failure instanceof NodeApiError) || failure.httpCode !== '403')
			return await Promise.reject(failure as Error);
		sqlRefused.add(docId);
		found.clear();
	}
	for (const row of await fetchRecordsById(client, target, ids, {}, itemIndex)) {
		const fields: Record<string, unknown> = {};
		for (const c of colIds) if (c !== 'id') fields[c] = row.fields?.[c] ?? null;
		found.set(row.id, fields);
	}
	return found;
}

/** Whether a 404 says the route is missing (an older server), not that the table or doc is. */
function isMissingRoute(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return false;
	return (
		!/table|document|column|workspace|organization|attachment/i.test(error.message) ||
		/^not found: \//i.test(error.message)
	);
}

/**
 * Deletes rows with `POST …/records/delete` (Grist 1.7.5+), falling back to `POST …/data/delete`
 * where the server does not have that route (remembered in `legacy`, by table, for the rest of
 * the execution). `route: 'data'` goes to `/data/delete` directly.
 */
export async function deleteRows(
	client: GristClient,
	t: Target,
	rowIds: number[],
	itemIndex: number,
	route: 'records' | 'data',
	legacy: Set<string>,
): Promise<void> {
	const key = targetKey(t);
	const send = async (p: string) =>
		await client.request({
			method: 'POST',
			path: p,
			body: rowIds,
			what: `table "${t.tableId}"`,
			itemIndex,
		});
	if (route === 'data' || legacy.has(key)) {
		await send(tablePath(client, t, 'data', 'delete'));
		return;
	}
	const failure = await send(tablePath(client, t, 'records', 'delete')).then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure === undefined) return;
	if (!isMissingRoute(failure)) return await Promise.reject(failure as Error);
	legacy.add(key);
	await send(tablePath(client, t, 'data', 'delete'));
}

// ---------------------------------------------------------------------------------------------
// Columnar records (/data, deprecated)

/** GET …/data: `{ id: [...], A: [...] }`. */
export async function fetchColumnar(
	client: GristClient,
	t: Target,
	qs: IDataObject,
	itemIndex: number,
): Promise<Record<string, unknown[]>> {
	return await client.request<Record<string, unknown[]>>({
		method: 'GET',
		path: tablePath(client, t, 'data'),
		qs,
		what: `table "${t.tableId}"`,
		itemIndex,
	});
}

/** POST …/data (create; returns the new ids) or PATCH …/data (update, with an `id` column). */
export async function writeColumnarData(
	client: GristClient,
	t: Target,
	mode: 'create' | 'update',
	data: Record<string, unknown[]>,
	qs: IDataObject,
	itemIndex: number,
): Promise<number[] | null> {
	return await client.request<number[] | null>({
		method: mode === 'create' ? 'POST' : 'PATCH',
		path: tablePath(client, t, 'data'),
		qs,
		body: data,
		what: `table "${t.tableId}"`,
		itemIndex,
	});
}

// ---------------------------------------------------------------------------------------------
// Attachments

/** GET /api/docs/{doc}/attachments (with `limit` when given). */
export async function listAttachments(
	client: GristClient,
	docId: string,
	qs: IDataObject,
	itemIndex: number,
): Promise<Array<{ id: number; fields?: IDataObject }>> {
	const res = await client.request<{ records: Array<{ id: number; fields?: IDataObject }> }>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'attachments'),
		qs,
		what: `document "${docId}"`,
		itemIndex,
	});
	return Array.isArray(res?.records) ? res.records : [];
}

/** GET /api/docs/{doc}/attachments/{id}: file name, size and upload time. */
export async function getAttachment(
	client: GristClient,
	docId: string,
	id: number,
	itemIndex: number,
): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'attachments', id),
		what: `attachment ${id} of document "${docId}"`,
		itemIndex,
	});
}

/** GET /api/docs/{doc}/attachments/{id}/download: the bytes as a stream. */
export async function downloadAttachment(
	client: GristClient,
	docId: string,
	id: number,
	itemIndex: number,
): Promise<StreamResponse> {
	return await client.binaryStream({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'attachments', id, 'download'),
		what: `attachment ${id} of document "${docId}"`,
		itemIndex,
	});
}

/** POST /api/docs/{doc}/attachments (multipart, one `upload` part per file); Grist answers the ids. */
export async function uploadAttachments(
	client: GristClient,
	docId: string,
	form: FormData,
	itemIndex: number,
): Promise<unknown> {
	return await client.request<unknown>({
		method: 'POST',
		path: buildPath(client, 'docs', docSegment(docId), 'attachments'),
		body: form,
		what: `document "${docId}"`,
		itemIndex,
	});
}

// ---------------------------------------------------------------------------------------------
// SQL

/**
 * POST /api/docs/{doc}/sql: a read-only SELECT with `?` arguments; the rows come back with raw
 * SQLite values (Bool 0/1, dates as numbers, lists as JSON text). Needs an API key whose user may
 * read the whole document: OAuth tokens and access rules get 403.
 */
export async function runSql(
	client: GristClient,
	docId: string,
	sql: string,
	args: Array<string | number | null> = [],
	timeoutMs?: number,
	itemIndex?: number,
): Promise<Array<Record<string, unknown>>> {
	const body: IDataObject = { sql, args };
	if (timeoutMs !== undefined) body.timeout = timeoutMs;
	const res = await client.request<{ records?: Array<{ fields?: Record<string, unknown> }> }>({
		method: 'POST',
		path: buildPath(client, 'docs', docSegment(docId), 'sql'),
		body,
		what: `document "${docId}"`,
		itemIndex,
	});
	return (res?.records ?? []).map((r) => r.fields ?? {});
}

// ---------------------------------------------------------------------------------------------
// Webhooks (owners only; OAuth tokens need the doc:webhooks scope)

const webhooksPath = (client: GristClient, docId: string, ...rest: Segment[]) =>
	buildPath(client, 'docs', docSegment(docId), 'webhooks', ...rest);
const webhookSegment = (id: string) => ({ value: id, label: 'webhook ID' });

/** GET /api/docs/{docId}/webhooks: every webhook of the document with its delivery `usage`. */
export async function listWebhooks(
	client: GristClient,
	docId: string,
	itemIndex?: number,
): Promise<WebhookSummary[]> {
	const res = await client.request<{ webhooks?: WebhookSummary[] }>({
		method: 'GET',
		path: webhooksPath(client, docId),
		what: `document "${docId}"`,
		itemIndex,
	});
	return res?.webhooks ?? [];
}

/** POST /api/docs/{docId}/webhooks: registers webhooks; returns their ids in order. */
export async function createWebhooks(
	client: GristClient,
	docId: string,
	webhooks: WebhookFields[],
	itemIndex?: number,
): Promise<string[]> {
	const res = await client.request<{ webhooks?: Array<{ id: string }> }>({
		method: 'POST',
		path: webhooksPath(client, docId),
		body: { webhooks: webhooks.map((fields) => ({ fields })) },
		what: `document "${docId}"`,
		itemIndex,
	});
	return (res?.webhooks ?? []).map((w) => w.id);
}

/** PATCH /api/docs/{docId}/webhooks/{id}. */
export async function updateWebhook(
	client: GristClient,
	docId: string,
	webhookId: string,
	fields: WebhookFields,
	itemIndex?: number,
): Promise<void> {
	await client.request({
		method: 'PATCH',
		path: webhooksPath(client, docId, webhookSegment(webhookId)),
		body: fields,
		what: `webhook "${webhookId}"`,
		itemIndex,
	});
}

/** DELETE /api/docs/{docId}/webhooks/{id} (404 `Webhook not found "id"` when it is gone). */
export async function deleteWebhook(
	client: GristClient,
	docId: string,
	webhookId: string,
	itemIndex?: number,
): Promise<void> {
	await client.request({
		method: 'DELETE',
		path: webhooksPath(client, docId, webhookSegment(webhookId)),
		what: `webhook "${webhookId}"`,
		itemIndex,
	});
}

/** DELETE /api/docs/{docId}/webhooks/queue: drops every delivery waiting in the document's queue. */
export async function clearWebhookQueue(
	client: GristClient,
	docId: string,
	itemIndex?: number,
): Promise<void> {
	await client.request({
		method: 'DELETE',
		path: webhooksPath(client, docId, 'queue'),
		what: `document "${docId}"`,
		itemIndex,
	});
}

// ---------------------------------------------------------------------------------------------
// Document history (the polling trigger's change events)

/** GET /api/docs/{doc}/states: the document's kept action states, newest first. */
export async function fetchStates(client: GristClient, docId: string): Promise<HistoryState[]> {
	const res = await client.request<{ states?: HistoryState[] }>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'states'),
		what: `document "${docId}"`,
	});
	return res?.states ?? [];
}

/**
 * GET /api/docs/{doc}/compare?left=L&right=R&maxRows=M: the net changes from state `left`
 * (exclusive) to `right` (inclusive) in `details.rightChanges`. `maxRows` is the most rows of one
 * bulk action whose cell values Grist keeps (Grist's default is 10).
 */
export async function compareStates(
	client: GristClient,
	docId: string,
	left: string,
	right: string,
	maxRows: number,
): Promise<CompareResponse> {
	return await client.request<CompareResponse>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'compare'),
		qs: { left, right, maxRows },
		what: `document "${docId}"`,
	});
}

/**
 * GET /api/docs/{docId}/triggers (Grist 1.7.12+, owners only): the document's automations, the
 * only place that returns a webhook's `condition` (GET /webhooks leaves it out). An older Grist
 * answers 404.
 */
export async function listTriggers(client: GristClient, docId: string): Promise<TriggerRecord[]> {
	const res = await client.request<{ records?: TriggerRecord[] }>({
		method: 'GET',
		path: buildPath(client, 'docs', docSegment(docId), 'triggers'),
		what: `document "${docId}"`,
	});
	return res?.records ?? [];
}
