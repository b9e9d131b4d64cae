/**
 * Formula timing (grist-core DocApi.ts `/timing`, ActiveDoc start/stop/getTimings, the data
 * engine's timing.py; answers measured on 1.7.17), owners only:
 * - `POST /timing/start`: 200 `OK` (text/plain); already on: 400 `Timing already started for <docId>`.
 * - `GET /timing`: `{"status":"disabled"}`, or `{"status":"active","timing":[…]}`.
 * - `POST /timing/stop`: the list; not on: 400 `Timing not started for <docId>`.
 * Entries are `{tableId, colId, sum, count, average, max}` (seconds), sorted by table and column.
 *
 * Guesses (the emulator has no data engine to time): while timing is on, each write request to a
 * document counts one evaluation, of a fixed 0.00001 s, for every non-empty formula column of the
 * table it names (every table for /apply). Real Grist times each formula per row calculated and
 * adds `#lookup#` helper entries and `marks`; `pending` (engine busy) is not emulated.
 */
import type { Ctx, Route } from './context';
import { RAW } from './context';
import { docRoute } from './docworker';
import { ApiError } from './http';
import type { Doc, Store } from './model';

interface Stat {
	tableId: string;
	colId: string;
	count: number;
	sum: number;
	max: number;
}

const EVALUATION_SECONDS = 0.00001;

/** By document: its stats while timing is on (absent: off). */
const timings = new WeakMap<Store, Map<string, Map<string, Stat>>>();

function docTimings(store: Store): Map<string, Map<string, Stat>> {
	let m = timings.get(store);
	if (!m) {
		m = new Map();
		timings.set(store, m);
	}
	return m;
}

/** Called by the emulator after a write request to `doc` (`apiPath` names the table, if one). */
export function noteTimedWrite(store: Store, doc: Doc, apiPath: string): void {
	const stats = timings.get(store)?.get(doc.id);
	if (!stats) return;
	const tableId = apiPath.match(/^\/api\/docs\/[^/]+\/tables\/([^/]+)\//)?.[1];
	const tables = tableId
		? doc.tables.filter((t) => t.id === decodeURIComponent(tableId))
		: doc.tables;
	for (const t of tables)
		for (const col of t.columns) {
			if (!col.isFormula || !col.formula) continue;
			const key = `${t.id}\u0000${col.id}`;
			const s = stats.get(key) ?? { tableId: t.id, colId: col.id, count: 0, sum: 0, max: 0 };
			s.count++;
			s.sum += EVALUATION_SECONDS;
			s.max = Math.max(s.max, EVALUATION_SECONDS);
			stats.set(key, s);
		}
}

function list(stats: Map<string, Stat>) {
	return [...stats.values()]
		.sort((a, b) =>
			a.tableId !== b.tableId ? (a.tableId < b.tableId ? -1 : 1) : a.colId < b.colId ? -1 : 1,
		)
		.map((s) => ({
			tableId: s.tableId,
			colId: s.colId,
			sum: s.sum,
			count: s.count,
			average: s.sum / s.count,
			max: s.max,
		}));
}

function sendOk(c: Ctx): typeof RAW {
	c.res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
	c.res.end('OK');
	return RAW;
}

export const timingRoutes: Route[] = [
	docRoute('GET', 'timing', 'owners', (c, doc) => {
		const stats = docTimings(c.store).get(doc.id);
		return stats ? { status: 'active', timing: list(stats) } : { status: 'disabled' };
	}),
	docRoute('POST', 'timing/start', 'owners', (c, doc) => {
		const all = docTimings(c.store);
		if (all.has(doc.id)) throw new ApiError(400, `Timing already started for ${doc.id}`);
		all.set(doc.id, new Map());
		return sendOk(c);
	}),
	docRoute('POST', 'timing/stop', 'owners', (c, doc) => {
		const all = docTimings(c.store);
		const stats = all.get(doc.id);
		if (!stats) throw new ApiError(400, `Timing not started for ${doc.id}`);
		all.delete(doc.id);
		return list(stats);
	}),
];
