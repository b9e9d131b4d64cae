/**
 * The `.grist` file of a document (GET /api/docs/{docId}/download) and reading one back (an
 * import of a `.grist` upload): a real SQLite database built with sql.js, in Grist's layout for
 * what the emulator keeps: `_grist_DocInfo`, `_grist_Tables`, `_grist_Tables_column`,
 * `_grist_Attachments`, `_gristsys_Files` (attachment bytes), `_gristsys_ActionHistory` (empty:
 * the emulator keeps no history) and one table per user table (`id INTEGER PRIMARY KEY`, every
 * column including `manualSort`, formula columns with their values; Bool as 0/1, lists as JSON
 * text of their items, other non-scalars as JSON text). `template`: no rows and no attachments.
 */
import { RowEvaluator } from './formula';
import type { Doc, Store, Table } from './model';
import { isHiddenCol } from './model';

/* eslint-disable @typescript-eslint/no-require-imports -- sql.js ships no types; CommonJS */
interface SqlDatabase {
	run(sql: string, params?: unknown[]): void;
	exec(sql: string, params?: unknown[]): Array<{ columns: string[]; values: unknown[][] }>;
	export(): Uint8Array;
	close(): void;
}
interface SqlJs {
	Database: new (data?: Uint8Array) => SqlDatabase;
}

let engine: Promise<SqlJs> | undefined;
function sqlJs(): Promise<SqlJs> {
	engine ??= (require('sql.js') as () => Promise<SqlJs>)();
	return engine;
}

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

function affinity(type: string): string {
	if (/^(Int|Bool|Ref:|Attachments|ManualSortPos|Id)/.test(type)) return 'INTEGER';
	if (/^(Numeric|Date|DateTime|PositionNumber)/.test(type)) return 'NUMERIC';
	if (type === 'Any') return 'BLOB';
	return 'TEXT';
}

function stored(v: unknown): unknown {
	if (v === undefined || v === null) return null;
	if (typeof v === 'boolean') return v ? 1 : 0;
	if (typeof v === 'number' || typeof v === 'string') return v;
	if (Array.isArray(v) && v[0] === 'L') return JSON.stringify(v.slice(1));
	return JSON.stringify(v);
}

const META: Array<[string, string]> = [
	[
		'_grist_DocInfo',
		'id INTEGER PRIMARY KEY, docId TEXT, peers TEXT, basketId TEXT, schemaVersion INTEGER, timezone TEXT, documentSettings TEXT',
	],
	[
		'_grist_Tables',
		'id INTEGER PRIMARY KEY, tableId TEXT, primaryViewId INTEGER, summarySourceTable INTEGER, onDemand BOOLEAN, rawViewSectionRef INTEGER, recordCardViewSectionRef INTEGER',
	],
	[
		'_grist_Tables_column',
		'id INTEGER PRIMARY KEY, parentId INTEGER, parentPos NUMERIC, colId TEXT, type TEXT, widgetOptions TEXT, isFormula BOOLEAN, formula TEXT, label TEXT, description TEXT, untieColIdFromLabel BOOLEAN, summarySourceCol INTEGER, displayCol INTEGER, visibleCol INTEGER, rules TEXT, reverseCol INTEGER, recalcWhen INTEGER, recalcDeps TEXT',
	],
	[
		'_grist_Attachments',
		'id INTEGER PRIMARY KEY, fileIdent TEXT, fileName TEXT, fileType TEXT, fileSize INTEGER, fileExt TEXT, imageHeight INTEGER, imageWidth INTEGER, timeDeleted NUMERIC, timeUploaded NUMERIC',
	],
	['_gristsys_Files', 'id INTEGER PRIMARY KEY, ident TEXT UNIQUE, data BLOB, storageId TEXT'],
	[
		'_gristsys_ActionHistory',
		'id INTEGER PRIMARY KEY, actionRef INTEGER, actionHash TEXT, parentRef INTEGER, body BLOB',
	],
];

/** The document as a `.grist` (SQLite) file. */
export async function buildGristFile(
	store: Store,
	doc: Doc,
	opts: { template: boolean },
): Promise<Buffer> {
	const SQL = await sqlJs();
	const db = new SQL.Database();
	try {
		for (const [name, cols] of META) db.run(`CREATE TABLE ${quote(name)} (${cols})`);
		db.run('INSERT INTO _grist_DocInfo VALUES (1, ?, ?, ?, ?, ?, ?)', [
			doc.id,
			'',
			'',
			44,
			'UTC',
			JSON.stringify({ locale: 'en-US' }),
		]);
		for (const t of doc.tables) {
			db.run('INSERT INTO _grist_Tables VALUES (?, ?, ?, ?, 0, ?, ?)', [
				t.tableRef,
				t.id,
				t.primaryViewId,
				t.summarySourceTable,
				t.rawViewSectionRef,
				t.recordCardViewSectionRef,
			]);
			t.columns.forEach((col, pos) => {
				db.run(
					'INSERT INTO _grist_Tables_column VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, 0, ?, ?)',
					[
						col.colRef,
						t.tableRef,
						pos + 1,
						col.id,
						col.type,
						col.widgetOptions,
						col.isFormula ? 1 : 0,
						col.formula,
						col.label,
						col.description,
						col.untieColIdFromLabel ? 1 : 0,
						col.displayCol,
						col.visibleCol,
						col.recalcWhen,
						col.recalcDeps === null ? null : JSON.stringify(col.recalcDeps),
					],
				);
			});
			writeUserTable(db, store, t, opts.template);
		}
		if (!opts.template) {
			for (const a of doc.attachments.values()) {
				const ident = a.fileIdent;
				const ext = /\.[^.]+$/.exec(a.fileName)?.[0] ?? '';
				db.run('INSERT INTO _grist_Attachments VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?)', [
					a.id,
					ident,
					a.fileName,
					'',
					a.fileSize,
					ext,
					a.timeDeleted === undefined ? null : a.timeDeleted / 1000,
					Date.parse(a.timeUploaded) / 1000,
				]);
				// one file per ident (several attachments may share the same bytes)
				db.run('INSERT OR IGNORE INTO _gristsys_Files VALUES (?, ?, ?, ?)', [
					a.id,
					ident,
					a.storeId ? null : a.data,
					a.storeId ?? null,
				]);
			}
		}
		return Buffer.from(db.export());
	} finally {
		db.close();
	}
}

function writeUserTable(db: SqlDatabase, store: Store, t: Table, template: boolean): void {
	const cols = t.columns.filter((x) => x.id !== 'id');
	db.run(
		`CREATE TABLE ${quote(t.id)} (id INTEGER PRIMARY KEY${cols
			.map((x) => `, ${quote(x.id)} ${affinity(x.type)}`)
			.join('')})`,
	);
	if (template) return;
	const ev = new RowEvaluator(t, store.clock());
	const sql = `INSERT INTO ${quote(t.id)} VALUES (?${cols.map(() => ', ?').join('')})`;
	for (const id of store.rowIds(t)) {
		const row = ev.full(t.rows.get(id)!, id);
		db.run(sql, [id, ...cols.map((x) => stored(row[x.id]))]);
	}
}

export interface ReadTable {
	tableId: string;
	columns: Array<{
		id: string;
		type: string;
		label: string;
		formula: string;
		isFormula: boolean;
		widgetOptions: string;
	}>;
	rows: Array<{ id: number; values: Record<string, unknown> }>;
}

function cellFromSqlite(type: string, v: unknown): unknown {
	if (v === null || v === undefined) return null;
	if (type === 'Bool') return v === 1 || v === true;
	if (/^(ChoiceList|RefList:|Attachments)/.test(type) && typeof v === 'string') {
		try {
			const items = JSON.parse(v) as unknown;
			if (Array.isArray(items)) return ['L', ...items];
		} catch {
			return v;
		}
	}
	return v;
}

/** Reads the user tables of a `.grist` file; throws when it is not one. */
export async function readGristFile(data: Buffer): Promise<ReadTable[]> {
	const SQL = await sqlJs();
	const db = new SQL.Database(new Uint8Array(data));
	try {
		const tables = db.exec('SELECT id, tableId FROM _grist_Tables ORDER BY id');
		const out: ReadTable[] = [];
		for (const [ref, tableId] of tables[0]?.values ?? []) {
			const colRows =
				db.exec(
					'SELECT colId, type, label, formula, isFormula, widgetOptions FROM _grist_Tables_column WHERE parentId = ? ORDER BY parentPos, id',
					[ref],
				)[0]?.values ?? [];
			const columns = colRows
				.map(([id, type, label, formula, isFormula, widgetOptions]) => ({
					id: String(id),
					type: String(type),
					label: String(label ?? id),
					formula: String(formula ?? ''),
					isFormula: Boolean(isFormula),
					widgetOptions: String(widgetOptions ?? ''),
				}))
				.filter((c) => !isHiddenCol(c.id));
			const data = db.exec(`SELECT * FROM ${quote(String(tableId))} ORDER BY id`)[0];
			const rows = (data?.values ?? []).map((vals) => {
				const values: Record<string, unknown> = {};
				data!.columns.forEach((name, i) => {
					const col = columns.find((c) => c.id === name);
					if (col && !col.isFormula) values[name] = cellFromSqlite(col.type, vals[i]);
				});
				return { id: Number(vals[data!.columns.indexOf('id')]), values };
			});
			out.push({ tableId: String(tableId), columns, rows });
		}
		return out;
	} finally {
		db.close();
	}
}

export interface ReadAttachment {
	id: number;
	fileIdent: string;
	fileName: string;
	fileSize: number;
	timeUploaded: string;
	/** The file's bytes; empty when it is in an external store (`storeId`). */
	data: Buffer;
	storeId?: string;
}

/** The attachments of a `.grist` file, with their files (`_gristsys_Files`, by ident). */
export async function readGristAttachments(data: Buffer): Promise<ReadAttachment[]> {
	const SQL = await sqlJs();
	const db = new SQL.Database(new Uint8Array(data));
	try {
		const res = db.exec(
			`SELECT a.id, a.fileIdent, a.fileName, a.fileSize, a.timeUploaded, f.data, f.storageId
			 FROM _grist_Attachments a LEFT JOIN _gristsys_Files f ON f.ident = a.fileIdent ORDER BY a.id`,
		)[0];
		return (res?.values ?? []).map(([id, fileIdent, fileName, fileSize, time, bytes, storeId]) => ({
			id: Number(id),
			fileIdent: String(fileIdent ?? ''),
			fileName: String(fileName ?? ''),
			fileSize: Number(fileSize ?? 0),
			timeUploaded: new Date(Number(time ?? 0) * 1000).toISOString(),
			data: bytes instanceof Uint8Array && !storeId ? Buffer.from(bytes) : Buffer.alloc(0),
			...(storeId ? { storeId: String(storeId) } : {}),
		}));
	} finally {
		db.close();
	}
}
