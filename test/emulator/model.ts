/**
 * In-memory data model of the Grist emulator: users, orgs, workspaces, docs (home DB) and the
 * document data (tables, columns, rows, attachments). No HTTP here.
 */
import { createHash, randomBytes } from 'node:crypto';

export type Role = 'owners' | 'editors' | 'viewers' | 'members' | 'guests';
export type Grant = Role | null;

export const EVERYONE_EMAIL = 'everyone@getgrist.com';
export const ANON_EMAIL = 'anon@getgrist.com';

const ROLE_ORDER: Role[] = ['owners', 'editors', 'viewers', 'members', 'guests'];

function rank(r: Grant | undefined): number {
	if (!r) return ROLE_ORDER.length;
	return ROLE_ORDER.indexOf(r);
}
export function strongest(a: Grant | undefined, b: Grant | undefined): Grant {
	return rank(a) <= rank(b) ? (a ?? null) : (b ?? null);
}
export function weakest(a: Grant | undefined, b: Grant | undefined): Grant {
	return rank(a) >= rank(b) ? (a ?? null) : (b ?? null);
}
/** Whether role `r` is at least `needed` (members/guests only count for listing). */
export function atLeast(r: Grant | undefined, needed: 'owners' | 'editors' | 'viewers'): boolean {
	return rank(r) <= rank(needed);
}

export interface User {
	id: number;
	email: string;
	name: string;
	apiKey: string | null;
	ref: string;
	createdAt: string;
}

export interface Org {
	id: number;
	name: string;
	domain: string;
	host: string | null;
	personalOwner: number | null;
	acl: Map<number, Role>;
	createdAt: string;
	updatedAt: string;
}

export interface Workspace {
	id: number;
	name: string;
	orgId: number;
	acl: Map<number, Role>;
	maxInherited: Grant;
	createdAt: string;
	updatedAt: string;
	/** Soft delete (POST /workspaces/{wid}/remove): in the trash since then (routes-lifecycle.ts). */
	removedAt?: string | null;
}

export interface Column {
	id: string;
	colRef: number;
	/**
	 * `_grist_Tables_column.parentPos`: one position column for every table's columns, a new
	 * column appended after all (max + 1: a new document's Table1 has 1–4, the next table's
	 * columns follow on; measured on grist-core 1.7.17).
	 */
	parentPos: number;
	type: string;
	label: string;
	formula: string;
	isFormula: boolean;
	widgetOptions: string;
	visibleCol: number;
	description: string;
	untieColIdFromLabel: boolean;
	recalcWhen: number;
	recalcDeps: unknown;
	displayCol: number;
}

export type Row = Record<string, unknown>;

export interface Table {
	id: string;
	tableRef: number;
	primaryViewId: number;
	/** The primary view's section (`_grist_Views_section`; not in the API, it only takes a row id). */
	viewSectionRef: number;
	rawViewSectionRef: number;
	recordCardViewSectionRef: number;
	summarySourceTable: number;
	columns: Column[];
	rows: Map<number, Row>;
	/** Whether the Map's iteration order is ascending by id. */
	ordered: boolean;
	maxId: number;
	/** Bumped by every add, update or removal of rows (routes-sql.ts caches its SQLite copy by it). */
	version?: number;
}

export interface Attachment {
	id: number;
	fileName: string;
	fileSize: number;
	timeUploaded: string;
	data: Buffer;
	/** `<sha1 of the bytes><extension>`, the name of its file (grist-core: `_grist_Attachments.fileIdent`). */
	fileIdent: string;
	/**
	 * The external store its file is in (`_gristsys_Files.storageId`); the emulator has none, so
	 * such a file is unavailable (as in a document brought from a server with S3) until an archive
	 * restores it.
	 */
	storeId?: string;
	/** When a cleanup first found no cell referring to it (epoch ms; `timeDeleted`). */
	timeDeleted?: number;
}

export interface Doc {
	id: string;
	name: string;
	urlId: string | null;
	isPinned: boolean;
	workspaceId: number;
	acl: Map<number, Role>;
	maxInherited: Grant;
	options: Record<string, unknown> | null;
	type: string | null;
	createdAt: string;
	updatedAt: string;
	tables: Table[];
	attachments: Map<number, Attachment>;
	maxAttId: number;
	/**
	 * The name the document had when a doc-worker request first opened it: grist-core's ActiveDoc
	 * keeps that Document row while it is open, and the attachment archive is named from it.
	 * Emulator documents stay open (they close only with `activeDocTimeoutMs`, for webhooks).
	 */
	openedName?: string;
	/** The external store new attachments go to (POST …/attachments/store); internal when absent. */
	attachmentStoreId?: string;
	/** The counts of the last Transfer All, as the open document keeps them. */
	attachmentTransfer?: { successes: number; failures: number };
	/** Soft delete (POST /docs/{docId}/remove): in the trash since then (routes-lifecycle.ts). */
	removedAt?: string | null;
	/**
	 * Its file holds no Grist document: what a failed `.grist` import leaves (routes-lifecycle.ts).
	 * Requests that open the document fail with 500 `NO_METADATA_ERROR: <docId> has no metadata`.
	 */
	noMetadata?: boolean;
	/**
	 * The colRefs in the order the open document's `_grist_Tables_column` TableData holds them
	 * (unset: colRef order, as when a document opens); see `columnSlots`.
	 */
	colSlots?: number[];
	/** The tableRefs in the order of the open document's `_grist_Tables` TableData (see `tableSlots`). */
	tableSlots?: number[];
	/** A fork (routes-forks.ts): its trunk, its own ID and its creator; `id` is `{trunkId}~{forkId}~{userId}`. */
	fork?: { trunkId: string; forkId: string; userId: number };
}

/**
 * GET /columns lists a table's columns in the order of ActiveDoc's metadata cache
 * (ActiveDoc.getTableCols → fetchMetaTables → TableData), not by colRef or parentPos: a new
 * column goes last, and TableData.onRemoveRecord moves the last row (of all tables' columns)
 * into a removed row's place. So after PUT /columns?replaceall a table can list `Name, New,
 * Memo` though Memo is older (measured on grist-core 1.7.17). Records keep the data engine's
 * column order (creation order), which the emulator's `Table.columns` is.
 */
export function columnSlots(doc: Doc): number[] {
	doc.colSlots ??= doc.tables.flatMap((t) => t.columns.map((c) => c.colRef)).sort((a, b) => a - b);
	return doc.colSlots;
}

/**
 * GET /tables follows the same metadata cache for `_grist_Tables`: after RemoveTable the last
 * table takes the removed one's place (measured on grist-core 1.7.17: removing the second of
 * eight tables lists the eighth second).
 */
export function tableSlots(doc: Doc): number[] {
	doc.tableSlots ??= doc.tables.map((t) => t.tableRef).sort((a, b) => a - b);
	return doc.tableSlots;
}

/** TableData.onRemoveRecord: the last row fills the removed one's place. */
function dropSlot(slots: number[], ref: number): void {
	const i = slots.indexOf(ref);
	if (i < 0) return;
	slots[i] = slots[slots.length - 1];
	slots.pop();
}

export function dropTableSlot(doc: Doc, tableRef: number): void {
	dropSlot(tableSlots(doc), tableRef);
}

/** TableData.onRemoveRecord for each removed column, in order: the last row fills its place. */
export function dropColumnSlots(doc: Doc, colRefs: number[]): void {
	const slots = columnSlots(doc);
	for (const ref of colRefs) dropSlot(slots, ref);
}

const ID_CHARS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function makeId(len = 22): string {
	const bytes = randomBytes(len);
	let s = '';
	for (let i = 0; i < len; i++) s += ID_CHARS[bytes[i] % ID_CHARS.length];
	return s;
}

export function baseType(type: string): string {
	const i = type.indexOf(':');
	return i < 0 ? type : type.slice(0, i);
}
export function typeArg(type: string): string {
	const i = type.indexOf(':');
	return i < 0 ? '' : type.slice(i + 1);
}

export function isHiddenCol(colId: string): boolean {
	return colId === 'manualSort' || colId.startsWith('gristHelper_');
}

/** Default cell value for a column type (what a new row holds). */
export function defaultFor(type: string): unknown {
	switch (baseType(type)) {
		case 'Text':
		case 'Choice':
			return '';
		case 'Numeric':
		case 'Int':
		case 'Ref':
		case 'ManualSortPos':
		case 'PositionNumber':
			return 0;
		case 'Bool':
			return false;
		default:
			return null;
	}
}

/** Python's keywords: identifiers.py prefixes an identifier that is one (`class` → `cclass`). */
const PY_KEYWORDS = new Set(
	'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
		' ',
	),
);

/**
 * identifiers.py `_sanitize_ident`: accents dropped (NFKD, combining marks removed), every run of
 * other characters → `_`, leading `_` stripped, `prefix` before a leading digit, the first letter
 * capitalised for tables, a Python keyword prefixed. Empty when nothing valid is left.
 */
export function sanitizeIdent(raw: unknown, prefix: 'c' | 'T', capitalize: boolean): string {
	let s = (raw === undefined || raw === null ? '' : String(raw))
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.replace(/[^A-Za-z0-9_]+/g, '_')
		.replace(/^_+/, '');
	if (/^[0-9]/.test(s)) s = prefix + s;
	if (!s) return s;
	if (capitalize) s = s[0].toUpperCase() + s.slice(1);
	while (PY_KEYWORDS.has(s)) s = prefix + s;
	return s;
}

/** identifiers.py `_add_suffix`: `base2`, `base3`… (`base_2` when base ends in a digit), compared ignoring case. */
function addSuffix(base: string, avoid: Set<string>, next: number): string {
	const stem = /\d$/.test(base) ? `${base}_` : base;
	for (let i = next; ; i++) if (!avoid.has(`${stem}${i}`.toUpperCase())) return `${stem}${i}`;
}

function upper(avoid: Iterable<string>): Set<string> {
	return new Set([...avoid].map((x) => x.toUpperCase()));
}

/** identifiers.py `pick_table_ident`: sanitized (capitalised) and unique, or Table1, Table2… */
export function pickTableIdent(raw: unknown, avoid: Iterable<string>): string {
	const taken = upper(avoid);
	const s = sanitizeIdent(raw, 'T', true);
	if (!s) return addSuffix('Table', taken, 1);
	return taken.has(s.toUpperCase()) ? addSuffix(s, taken, 2) : s;
}

/** identifiers.py `pick_col_ident`: sanitized and unique, or the first free letter A, B, … Z, AA… */
export function pickColIdent(raw: unknown, avoid: Iterable<string>): string {
	const taken = upper(avoid);
	const s = sanitizeIdent(raw, 'c', false);
	if (!s) {
		for (let i = 0; ; i++) if (!taken.has(letters(i))) return letters(i);
	}
	return taken.has(s.toUpperCase()) ? addSuffix(s, taken, 2) : s;
}

/** A sanitized table (`capitalize`) or column identifier, without making it unique. */
export function tableIdent(raw: string, capitalize: boolean): string {
	return sanitizeIdent(raw, capitalize ? 'T' : 'c', capitalize) || (capitalize ? 'Table1' : 'A');
}

/** `base`, else identifiers.py's suffixes (`base2`… or `base_2` after a digit) until `taken` says no. */
export function uniqueIdent(base: string, taken: (s: string) => boolean): string {
	if (!taken(base)) return base;
	const stem = /\d$/.test(base) ? `${base}_` : base;
	for (let i = 2; ; i++) if (!taken(`${stem}${i}`)) return `${stem}${i}`;
}

/** Grist's generated column ids: A, B, … Z, AA, AB, … (identifiers.py `_gen_ident`). */
function letters(i: number): string {
	let s = '';
	for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26))
		s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
	return s;
}

/** The column ids a new or renamed column of `t` must avoid (useractions.py `_pick_col_name`): the others and `id`. */
export function colIdsToAvoid(t: Table, except?: Column): string[] {
	return ['id', ...t.columns.filter((col) => col !== except).map((col) => col.id)];
}

/** A column id for a new column of `t` (identifiers.py `pick_col_ident`): sanitized and unique, or the next free letter. */
export function newColId(t: Table, raw: string): string {
	return pickColIdent(raw, colIdsToAvoid(t));
}

export class Store {
	users = new Map<number, User>();
	orgs = new Map<number, Org>();
	workspaces = new Map<number, Workspace>();
	docs = new Map<string, Doc>();
	/** Forks by their full ID: not in `docs`, so no listing shows them (routes-forks.ts). */
	forks = new Map<string, Doc>();
	private nextUserId = 1;
	private nextOrgId = 1;
	private nextWsId = 1;
	clock: () => number = () => Date.now();

	constructor() {
		this.ensureUser(EVERYONE_EMAIL, 'Everyone', false);
		this.ensureUser(ANON_EMAIL, 'Anonymous', false);
	}

	now(): string {
		return new Date(this.clock()).toISOString();
	}

	get anon(): User {
		return this.userByEmail(ANON_EMAIL)!;
	}
	get everyone(): User {
		return this.userByEmail(EVERYONE_EMAIL)!;
	}

	userByEmail(email: string): User | undefined {
		const e = email.trim().toLowerCase();
		for (const u of this.users.values()) if (u.email === e) return u;
		return undefined;
	}
	userByKey(key: string): User | undefined {
		if (!key) return undefined;
		for (const u of this.users.values()) if (u.apiKey === key) return u;
		return undefined;
	}

	/** Creates (or returns) a user; real users also get a personal org with a "Home" workspace. */
	ensureUser(email: string, name?: string, personal = true): User {
		const existing = this.userByEmail(email);
		if (existing) return existing;
		const id = this.nextUserId++;
		const e = email.trim().toLowerCase();
		const user: User = {
			id,
			email: e,
			name: name ?? '',
			apiKey: null,
			ref: makeId(22),
			createdAt: this.now(),
		};
		this.users.set(id, user);
		if (personal) {
			const org = this.createOrg({ name: 'Personal', domain: `docs-${id}`, personalOwner: id });
			org.acl.set(id, 'owners');
			const ws = this.createWorkspace(org.id, 'Home');
			ws.acl.set(id, 'owners');
		}
		return user;
	}

	personalOrg(userId: number): Org | undefined {
		for (const o of this.orgs.values()) if (o.personalOwner === userId) return o;
		return undefined;
	}

	createOrg(o: {
		name: string;
		domain: string;
		host?: string | null;
		personalOwner?: number | null;
	}): Org {
		const id = this.nextOrgId++;
		const t = this.now();
		const org: Org = {
			id,
			name: o.name,
			domain: o.domain,
			host: o.host ?? null,
			personalOwner: o.personalOwner ?? null,
			acl: new Map(),
			createdAt: t,
			updatedAt: t,
		};
		this.orgs.set(id, org);
		return org;
	}

	createWorkspace(orgId: number, name: string): Workspace {
		const id = this.nextWsId++;
		const t = this.now();
		const ws: Workspace = {
			id,
			name,
			orgId,
			acl: new Map(),
			maxInherited: 'owners',
			createdAt: t,
			updatedAt: t,
		};
		this.workspaces.set(id, ws);
		return ws;
	}

	createDoc(
		wsId: number,
		d: { name: string; id?: string; urlId?: string | null; isPinned?: boolean },
	): Doc {
		const t = this.now();
		const id = d.id ?? makeId(22);
		const doc: Doc = {
			id,
			name: d.name,
			urlId: d.urlId === undefined ? this.defaultUrlId(id) : d.urlId,
			isPinned: d.isPinned ?? false,
			workspaceId: wsId,
			acl: new Map(),
			maxInherited: 'owners',
			options: null,
			type: null,
			createdAt: t,
			updatedAt: t,
			tables: [],
			attachments: new Map(),
			maxAttId: 0,
		};
		this.docs.set(doc.id, doc);
		return doc;
	}

	/**
	 * HomeDBManager.addDocument: a new document's urlId is the shortest prefix of its id, at least
	 * 12 characters (MIN_URLID_PREFIX_LENGTH), that no other document uses.
	 */
	defaultUrlId(id: string): string {
		const used = new Set([...this.docs.values()].map((x) => x.urlId));
		for (let n = 12; n < id.length; n++) if (!used.has(id.slice(0, n))) return id.slice(0, n);
		return id;
	}

	orgByKey(key: number | string): Org | undefined {
		if (typeof key === 'number' || /^\d+$/.test(key)) return this.orgs.get(Number(key));
		for (const o of this.orgs.values()) if (o.domain === key) return o;
		return undefined;
	}
	orgByHost(host: string): Org | undefined {
		for (const o of this.orgs.values()) if (o.host && o.host.toLowerCase() === host) return o;
		return undefined;
	}
	docByKey(key: string): Doc | undefined {
		const d = this.docs.get(key);
		if (d) return d;
		for (const doc of this.docs.values()) if (doc.urlId === key) return doc;
		if (key.includes('~')) {
			// a fork, by its ID or URL ID; it goes with its trunk
			for (const f of this.forks.values())
				if ((f.id === key || f.urlId === key) && this.docs.has(f.fork!.trunkId)) return f;
		}
		return undefined;
	}
	/** Whether the doc is in the trash, itself or with its workspace (grist-core's `removed`). */
	isRemoved(doc: Doc): boolean {
		return Boolean(doc.removedAt || this.workspaces.get(doc.workspaceId)?.removedAt);
	}
	docOrg(doc: Doc): Org {
		return this.orgs.get(this.workspaces.get(doc.workspaceId)!.orgId)!;
	}

	// ---- access ----
	orgRole(userId: number, org: Org): Grant {
		return org.acl.get(userId) ?? null;
	}
	private direct(acl: Map<number, Role>, userId: number): Grant {
		return strongest(acl.get(userId), acl.get(this.everyone.id));
	}
	wsParentRole(userId: number, ws: Workspace): Grant {
		const o = this.orgRole(userId, this.orgs.get(ws.orgId)!);
		return o === 'members' || o === 'guests' ? null : o;
	}
	wsRole(userId: number, ws: Workspace): Grant {
		return strongest(
			this.direct(ws.acl, userId),
			weakest(this.wsParentRole(userId, ws), ws.maxInherited),
		);
	}
	docRole(userId: number, doc: Doc): Grant {
		if (doc.fork) {
			// its creator owns a fork; others with access to the trunk may view it
			const trunk = this.docs.get(doc.fork.trunkId);
			const trunkRole = trunk ? this.docRole(userId, trunk) : null;
			if (!trunkRole) return null;
			return userId === doc.fork.userId ? 'owners' : weakest(trunkRole, 'viewers');
		}
		const ws = this.workspaces.get(doc.workspaceId)!;
		return strongest(
			this.direct(doc.acl, userId),
			weakest(this.wsRole(userId, ws), doc.maxInherited),
		);
	}
	/** Org role for listings: the direct role, else `guests` when something inside is shared. */
	orgListRole(userId: number, org: Org): Grant {
		const r = this.orgRole(userId, org);
		if (r) return r;
		for (const ws of this.workspaces.values()) {
			if (ws.orgId !== org.id) continue;
			if (ws.acl.has(userId)) return 'guests';
			for (const d of this.docs.values())
				if (d.workspaceId === ws.id && d.acl.has(userId)) return 'guests';
		}
		return null;
	}

	deleteWorkspace(ws: Workspace): void {
		for (const d of [...this.docs.values()]) if (d.workspaceId === ws.id) this.docs.delete(d.id);
		this.workspaces.delete(ws.id);
	}

	// ---- document data ----
	table(doc: Doc, tableId: string): Table | undefined {
		if (/^\d+$/.test(tableId)) {
			const ref = Number(tableId);
			return doc.tables.find((t) => t.tableRef === ref);
		}
		return doc.tables.find((t) => t.id === tableId);
	}

	/** A table id for a new table (identifiers.py `pick_table_ident`): sanitized and unique, or Table1, Table2, … */
	newTableId(doc: Doc, raw: string): string {
		return pickTableIdent(
			raw,
			doc.tables.map((t) => t.id),
		);
	}

	/** Grist's AddEmptyTable (what a new document holds): `Table1` with empty columns A, B, C (type Any, isFormula true, formula ""). */
	addEmptyTable(doc: Doc): Table {
		const t = this.addTable(doc, this.newTableId(doc, ''));
		for (const id of ['A', 'B', 'C'])
			this.addColumn(doc, t, { id, type: 'Any', isFormula: true, formula: '' });
		return t;
	}

	/**
	 * Grist's AddTable (useractions.py `doAddTable`): a `_grist_Tables` row, its columns (manualSort
	 * first), a primary view with its section, then the raw and record-card sections. Each
	 * metadata table numbers its own rows, max + 1 (table.py `next_row_id`): a new document's
	 * Table1 is tableRef 1, view 1, sections 1–3, columns 1–4, and the next table follows on.
	 */
	addTable(doc: Doc, tableId: string): Table {
		const next = (refs: number[]) => Math.max(0, ...refs) + 1;
		const section = next(
			doc.tables.flatMap((x) => [
				x.viewSectionRef,
				x.rawViewSectionRef,
				x.recordCardViewSectionRef,
			]),
		);
		const t: Table = {
			id: tableId,
			tableRef: next(doc.tables.map((x) => x.tableRef)),
			primaryViewId: next(doc.tables.map((x) => x.primaryViewId)),
			viewSectionRef: section,
			rawViewSectionRef: section + 1,
			recordCardViewSectionRef: section + 2,
			summarySourceTable: 0,
			columns: [],
			rows: new Map(),
			ordered: true,
			maxId: 0,
		};
		tableSlots(doc).push(t.tableRef);
		doc.tables.push(t);
		this.addColumn(doc, t, { id: 'manualSort', type: 'ManualSortPos', isFormula: false });
		return t;
	}

	addColumn(
		doc: Doc,
		t: Table,
		c: Partial<Omit<Column, 'colRef' | 'parentPos' | 'widgetOptions'>> & {
			id: string;
			widgetOptions?: unknown;
		},
	): Column {
		const type = c.type ?? 'Any';
		const col: Column = {
			id: c.id,
			colRef: Math.max(0, ...doc.tables.flatMap((x) => x.columns.map((y) => y.colRef))) + 1,
			parentPos: Math.max(0, ...doc.tables.flatMap((x) => x.columns.map((y) => y.parentPos))) + 1,
			type,
			label: c.label ?? c.id,
			formula: c.formula ?? '',
			isFormula: c.isFormula ?? true,
			widgetOptions: widgetOptionsString(c.widgetOptions),
			visibleCol: c.visibleCol ?? 0,
			description: c.description ?? '',
			untieColIdFromLabel: c.untieColIdFromLabel ?? false,
			recalcWhen: c.recalcWhen ?? 0,
			recalcDeps: c.recalcDeps ?? null,
			displayCol: 0,
		};
		columnSlots(doc).push(col.colRef);
		t.columns.push(col);
		if (!col.isFormula) {
			const dflt = defaultFor(type);
			for (const row of t.rows.values()) row[col.id] = dflt;
		}
		return col;
	}

	colByRef(doc: Doc, ref: number): { table: Table; col: Column } | undefined {
		for (const table of doc.tables) {
			const col = table.columns.find((c) => c.colRef === ref);
			if (col) return { table, col };
		}
		return undefined;
	}

	/** Stores an attachment (`_grist_Attachments` row) and returns its id. */
	addAttachment(doc: Doc, fileName: string, data: Buffer, timeUploaded = this.now()): number {
		const id = ++doc.maxAttId;
		const fileIdent = attachmentFileIdent(fileName, data);
		doc.attachments.set(id, { id, fileName, fileSize: data.length, timeUploaded, data, fileIdent });
		return id;
	}

	/** Adds rows (already-validated values), returns ids. `ids[i]` may force an id. */
	insertRows(t: Table, rows: Row[], ids?: Array<number | undefined>): number[] {
		t.version = (t.version ?? 0) + 1;
		const out: number[] = [];
		const dataCols = t.columns.filter((c) => !c.isFormula);
		for (let i = 0; i < rows.length; i++) {
			const forced = ids?.[i];
			const id = forced ?? t.maxId + 1;
			if (id <= t.maxId) t.ordered = false;
			if (id > t.maxId) t.maxId = id;
			const row: Row = {};
			for (const c of dataCols) row[c.id] = defaultFor(c.type);
			row.manualSort = id;
			const src = rows[i];
			for (const k of Object.keys(src)) row[k] = src[k];
			t.rows.set(id, row);
			out.push(id);
		}
		return out;
	}

	removeRows(t: Table, ids: number[]): void {
		t.version = (t.version ?? 0) + 1;
		let hitMax = false;
		for (const id of ids) {
			if (t.rows.delete(id) && id === t.maxId) hitMax = true;
		}
		if (hitMax) {
			let m = 0;
			for (const id of t.rows.keys()) if (id > m) m = id;
			t.maxId = m;
		}
	}

	/** Row ids in ascending order. */
	rowIds(t: Table): number[] {
		const ids = [...t.rows.keys()];
		if (!t.ordered) {
			ids.sort((a, b) => a - b);
			const m = new Map<number, Row>();
			for (const id of ids) m.set(id, t.rows.get(id)!);
			t.rows = m;
			t.ordered = true;
		}
		return ids;
	}
}

export function widgetOptionsString(w: unknown): string {
	if (w === undefined || w === null || w === '') return '';
	return typeof w === 'string' ? w : JSON.stringify(w);
}

/**
 * grist-core's name for an attachment's file: the SHA-1 of its bytes and the extension of its
 * name, lower-cased (guessExt.ts when the extension and the MIME type agree, the plain case).
 */
export function attachmentFileIdent(fileName: string, data: Buffer): string {
	const ext = /\.[^./\\]+$/.exec(fileName)?.[0]?.toLowerCase() ?? '';
	return `${createHash('sha1').update(data).digest('hex')}${ext}`;
}
