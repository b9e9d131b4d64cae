/**
 * §10 SQL: GET /api/docs/{docId}/sql?q=… and POST /api/docs/{docId}/sql with
 * `{"sql", "args"?, "timeout"?}` (grist-core DocApi._runSql and app/server/lib/runSQLQuery.ts).
 *
 * A real SQLite (sql.js, WebAssembly) runs the statement, wrapped as grist-core does in
 * `select * from (<statement>)`, with `?` arguments, on a copy of the document's user tables in
 * Grist's storage encoding: `id INTEGER PRIMARY KEY`, every column (formula columns with their
 * values), Bool as 0/1, lists (`["L", …]`) as JSON text of their items, other non-scalars as
 * JSON text. The copy is rebuilt when a table changed (rows added or updated, removed, columns
 * changed), like Grist's own .grist file. Answer: `{statement, records: [{fields}]}` with the raw
 * SQLite values.
 *
 * Errors: 400 `only select statements are supported` (no `select` in the text, a loose test as in
 * grist-core); an SQLite error: 400 `{"error": "SQLITE_ERROR: <message>"}` (node-sqlite3's form);
 * the timeout (POST `timeout`, capped at 1000 ms, GRIST_SQL_TIMEOUT_MSEC's default): 400 `a slow
 * statement resulted in a database interrupt` — checked between result rows (sql.js cannot be
 * interrupted inside one step). Access: viewers and up (there are no access rules inside
 * documents here, so every viewer may read everything; Grist's 403 `insufficient document access`
 * comes with access rules). Grist's metadata tables (`_grist_*`) are not in the copy.
 *
 * Cost model (`rowsScanned` in the log): SQLite's `EXPLAIN QUERY PLAN`: a `SCAN` of a table
 * counts its rows, a `SEARCH` (a lookup by id, or `max(id)` / `min(id)` read from the end of the
 * rowid b-tree) counts 1. Grist answers /sql from the document's SQLite file without loading the
 * document into its data engine, which a records read needs (there every read counts the whole
 * table, see docworker.ts), so `SELECT max(id) FROM T` costs O(1) and `ORDER BY ts DESC LIMIT 2`
 * (no index on `ts`) O(table) in SQLite but no document load.
 */
import type { Ctx, Route } from './context';
import { json, scanned } from './context';
import { docRoute, invalidPayload } from './docworker';
import { RowEvaluator } from './formula';
import { ApiError } from './http';
import type { Doc, Table } from './model';

/* eslint-disable @typescript-eslint/no-require-imports -- sql.js ships no types; CommonJS */
interface SqlStatement {
	bind(values: unknown[]): boolean;
	step(): boolean;
	getAsObject(): Record<string, unknown>;
	run(values: unknown[]): void;
	free(): void;
}
interface SqlDatabase {
	run(sql: string): void;
	prepare(sql: string): SqlStatement;
	exec(sql: string, params?: unknown[]): Array<{ columns: string[]; values: unknown[][] }>;
	close(): void;
}
interface SqlJs {
	Database: new () => SqlDatabase;
}

const MAX_SQL_MSEC = 1000;

let engine: Promise<SqlJs> | undefined;
function sqlJs(): Promise<SqlJs> {
	engine ??= (require('sql.js') as () => Promise<SqlJs>)();
	return engine;
}

interface Cached {
	key: string;
	db: SqlDatabase;
}
const copies = new WeakMap<Doc, Cached>();

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

function affinity(type: string): string {
	if (/^(Int|Bool|Ref:|Attachments|ManualSortPos|Id)/.test(type)) return 'INTEGER';
	if (/^(Numeric|Date|DateTime|PositionNumber)/.test(type)) return 'NUMERIC';
	return 'TEXT';
}

function stored(v: unknown): unknown {
	if (v === undefined || v === null) return null;
	if (typeof v === 'boolean') return v ? 1 : 0;
	if (typeof v === 'number' || typeof v === 'string') return v;
	if (Array.isArray(v) && v[0] === 'L') return JSON.stringify(v.slice(1));
	return JSON.stringify(v);
}

function tableKey(t: Table): string {
	return JSON.stringify([
		t.id,
		t.columns.map((c) => [c.id, c.type, c.isFormula, c.formula]),
		t.rows.size,
		t.maxId,
		t.version ?? 0,
	]);
}

/** The document's tables in SQLite, rebuilt when one of them changed. */
async function copyOf(c: Ctx, doc: Doc): Promise<SqlDatabase> {
	const key = JSON.stringify(doc.tables.map(tableKey));
	const cached = copies.get(doc);
	if (cached?.key === key) return cached.db;
	cached?.db.close();
	const SQL = await sqlJs();
	const db = new SQL.Database();
	for (const t of doc.tables) {
		const cols = t.columns.filter((x) => x.id !== 'id');
		db.run(
			`CREATE TABLE ${quote(t.id)} (id INTEGER PRIMARY KEY${cols
				.map((x) => `, ${quote(x.id)} ${affinity(x.type)}`)
				.join('')})`,
		);
		const insert = db.prepare(
			`INSERT INTO ${quote(t.id)} VALUES (?${cols.map(() => ', ?').join('')})`,
		);
		const ev = new RowEvaluator(t, c.store.clock());
		db.run('BEGIN');
		for (const id of c.store.rowIds(t)) {
			const row = ev.full(t.rows.get(id)!, id);
			insert.run([id, ...cols.map((x) => stored(row[x.id]))]);
		}
		db.run('COMMIT');
		insert.free();
	}
	copies.set(doc, { key, db });
	return db;
}

/** Rows the statement reads, per SQLite's query plan (see the header). */
function planCost(db: SqlDatabase, sql: string, args: unknown[], doc: Doc): number {
	const sizes = new Map(doc.tables.map((t) => [t.id.toLowerCase(), t.rows.size]));
	let cost = 0;
	const plan = db.exec(`EXPLAIN QUERY PLAN ${sql}`, args.length ? args : undefined);
	for (const row of plan[0]?.values ?? []) {
		const m = /^(SCAN|SEARCH) (?:TABLE )?("?)([^"\s]+)\2/.exec(String(row[3]));
		const size = m ? sizes.get(m[3].toLowerCase()) : undefined;
		if (size === undefined) continue;
		cost += m![1] === 'SCAN' ? size : 1;
	}
	return cost;
}

async function runSql(c: Ctx, doc: Doc, sql: string, args: unknown[], timeout: number) {
	// grist-core strips one `;` at the very end, then wraps the text
	const statement = sql.replace(/;$/, '');
	if (!statement.toLowerCase().includes('select'))
		throw new ApiError(400, 'only select statements are supported');
	const wrapped = `select * from (${statement})`;
	const db = await copyOf(c, doc);
	const started = Date.now();
	const records: Array<{ fields: Record<string, unknown> }> = [];
	let stmt: SqlStatement | undefined;
	let failure: ApiError | undefined;
	try {
		scanned(c, planCost(db, wrapped, args, doc));
		stmt = db.prepare(wrapped);
		if (args.length) stmt.bind(args);
		while (!failure && stmt.step()) {
			if (Date.now() - started > timeout)
				failure = new ApiError(400, 'a slow statement resulted in a database interrupt');
			else records.push({ fields: stmt.getAsObject() });
		}
	} catch (e) {
		failure = new ApiError(400, `SQLITE_ERROR: ${(e as Error).message}`);
	} finally {
		stmt?.free();
	}
	if (failure) throw failure;
	return { statement, records };
}

function timeoutOf(raw: unknown): number {
	if (raw === undefined || raw === null) return MAX_SQL_MSEC;
	const n = typeof raw === 'number' ? raw : parseInt(String(raw), 10);
	if (Number.isNaN(n)) throw new ApiError(400, `timeout parameter should be an integer: ${raw}`);
	return Math.max(0, Math.min(MAX_SQL_MSEC, n || MAX_SQL_MSEC));
}

export const sqlRoutes: Route[] = [
	docRoute('GET', 'sql', 'viewers', async (c, doc) => {
		const q = c.query.q;
		// grist-core's stringParam: a missing parameter is 'required', another type 'should be a string'
		if (q === undefined) throw new ApiError(400, 'q parameter is required');
		if (typeof q !== 'string') throw new ApiError(400, `q parameter should be a string: ${q}`);
		return await runSql(c, doc, q, [], MAX_SQL_MSEC);
	}),
	docRoute('POST', 'sql', 'viewers', async (c, doc) => {
		const body = json(c) as Record<string, unknown>;
		if (!body || typeof body !== 'object' || Array.isArray(body))
			throw invalidPayload('body is not an object');
		if (body.sql === undefined) throw invalidPayload('body.sql is missing');
		if (typeof body.sql !== 'string') throw invalidPayload('body.sql is not a string');
		if (body.args !== undefined && !Array.isArray(body.args))
			throw invalidPayload('body.args is not an array');
		if (body.timeout !== undefined && typeof body.timeout !== 'number')
			throw invalidPayload('body.timeout is not a number');
		const args = ((body.args as unknown[] | undefined) ?? []).map((a) =>
			typeof a === 'boolean' ? (a ? 1 : 0) : a,
		);
		return await runSql(c, doc, body.sql, args, timeoutOf(body.timeout));
	}),
];
