/**
 * §12.1–12.4 of grist-api-changes.md: a document's action history, `GET /states`,
 * `GET /compare?left&right&maxRows` and `POST /states/remove {keep}`.
 *
 * Model: a document gets a history the first time /states or /compare asks for it (state n=1,
 * holding a copy of its user tables). After that every write request to the document (records,
 * /data, /apply, tables, columns; also one that changes nothing, like Grist's no-op PATCH) adds a
 * state whose delta is the difference between the copy and the tables now; seeding helpers'
 * changes go into the next state. A delta per table per state stands for one bulk action:
 * `addRows`, `removeRows`, `updateRows` (added rows whose formula cells hold a value are in both,
 * as Grist records the formula calculation as an update), and cells `[before, after]` with `null`
 * for the side where the row did not exist. A removal leaves out each column in which every row it
 * removed held the column type's default ('' for Text and Choice, 0 for numbers and Ref, false
 * for Bool, null otherwise; a null in a Text cell is not the default), as the data engine's undo
 * of BulkRemoveRecord does; every added or removed row has a `manualSort` cell. Renamed tables
 * are matched by tableRef (`tableRenames`), added columns are `[null, colId]` in `columnRenames`.
 *
 * /compare sums the states after `left` up to `right`: net changes (a row added and removed
 * disappears; an id removed and added again is in both lists, with the old row's `before`), the
 * first `before` and the last `after` of each cell — so a removed row's cells are its values at
 * `left`, also when it was edited before its removal in the range. `maxRows` (default 10, `null` unlimited) keeps,
 * in each state's delta of a table over more rows, the cells of its first N−1 rows and its last
 * one and sets `mayBeIncomplete`; a cell of a later state that was not recorded makes the summed
 * `after` `"?"`. Errors as measured: unknown or pruned hash 500 `Cannot read hash`, bad suffix
 * 500 `cannot parse hash`, left after right 500 `Comparisons currently require left to be an
 * ancestor of right`, maxRows 0 or text 400. `restrict(doc)` stands for an access rule that hides
 * something from non-owners: their /compare is 403 `insufficient access` (/states stays 200).
 * Pruning follows ActionHistoryImpl: on every 10th action, more than 1.25 × `maxRows` states
 * (GRIST_ACTION_HISTORY_MAX_ROWS, default 1000) are cut to `maxRows`.
 *
 * Not modelled: `_grist_*` metadata tables in deltas, column renames of existing columns, removed
 * columns (their cells are dropped), the byte limit of the history, and
 * `HEAD~N` older than the oldest state (answered `Cannot read hash`, Grist answers 200).
 */
import { createHash, randomBytes } from 'node:crypto';

import type { Ctx, Route } from './context';
import { json } from './context';
import { docRoute } from './docworker';
import { RowEvaluator } from './formula';
import { ApiError } from './http';
import type { Doc, Row, Store, Table } from './model';
import { atLeast, defaultFor } from './model';

type Side = [unknown] | null | '?';
type Cell = [Side, Side];

interface TableCopy {
	tableRef: number;
	id: string;
	columns: string[];
	/** Each column's type default (what a new row holds). */
	defaults: Record<string, unknown>;
	formulaColumns: string[];
	rows: Map<number, Row>;
}

interface StateDelta {
	tableId: string;
	tableRef: number;
	addRows: number[];
	removeRows: number[];
	updateRows: number[];
	/** Row id → column → cell. */
	cells: Map<number, Record<string, Cell>>;
	columnsAdded: string[];
}

interface State {
	n: number;
	h: string;
	deltas: StateDelta[];
	renames: Array<[string | null, string | null]>;
}

interface DocHistory {
	states: State[];
	copy: Map<number, TableCopy>;
}

export class HistoryService {
	private docs = new WeakMap<Doc, DocHistory>();
	private restricted = new WeakSet<Doc>();
	/** The `updatedAt` each document's last write left. */
	private stamps = new WeakMap<Doc, string>();
	/** GRIST_ACTION_HISTORY_MAX_ROWS. */
	maxRows = 1000;

	constructor(private now: () => number) {}

	/** An access rule hides something from non-owners: their /compare is 403. */
	restrict(doc: Doc): void {
		this.restricted.add(doc);
	}

	/** Whether `restrict` was called for the document. */
	isRestricted(doc: Doc): boolean {
		return this.restricted.has(doc);
	}

	/**
	 * `to` takes `from`'s history (a fork made of `from`, or `to`'s content replaced by `from`'s):
	 * the same states and hashes, its own copy of its tables from now on.
	 */
	share(from: Doc, to: Doc): void {
		this.note(from, false);
		const h = this.of(from);
		this.docs.set(to, { states: [...h.states], copy: copyTables(to, this.now()) });
	}

	/**
	 * GET /compare/{doc2} (DocApi._compareDoc): `parent` is the newest state of `left` that
	 * `right` has; `details` (with `showDetails` and a parent) the changes of each since then.
	 */
	compareDocs(c: Ctx, left: Doc, right: Doc, showDetails: boolean, owner: boolean) {
		if (this.restricted.has(left) && !owner) throw new ApiError(403, 'insufficient access');
		const maxRows = parseMaxRows(c.query.maxRows);
		const hl = this.of(left).states;
		const hr = this.of(right).states;
		const rightHashes = new Set(hr.map((s) => s.h));
		let i = hl.length - 1;
		while (i >= 0 && !rightHashes.has(hl[i].h)) i--;
		const j = i >= 0 ? hr.findIndex((s) => s.h === hl[i].h) : -1;
		const l = hl[hl.length - 1];
		const r = hr[hr.length - 1];
		const parent = i >= 0 ? { n: hl[i].n, h: hl[i].h } : null;
		const leftChanged = parent !== null && parent.h !== l.h;
		const rightChanged = parent !== null && parent.h !== r.h;
		const summary = leftChanged
			? rightChanged
				? 'both'
				: 'left'
			: rightChanged
				? 'right'
				: parent
					? 'same'
					: 'unrelated';
		const out: Record<string, unknown> = {
			left: { n: l.n, h: l.h },
			right: { n: r.n, h: r.h },
			parent,
			summary,
		};
		if (showDetails && parent) {
			out.details = {
				leftChanges: summarize(hl.slice(i + 1), maxRows),
				rightChanges: summarize(hr.slice(j + 1), maxRows),
			};
		}
		return out;
	}

	/** The document's history, started now if it has none. */
	of(doc: Doc): DocHistory {
		let h = this.docs.get(doc);
		if (!h) {
			h = { states: [], copy: copyTables(doc, this.now()) };
			this.docs.set(doc, h);
			this.push(h, [], []);
		}
		return h;
	}

	/**
	 * After a request to the document: a write moves its `updatedAt` (always later than before,
	 * also under a frozen clock); a new state when it was a write or changed something.
	 */
	note(doc: Doc, write: boolean): void {
		if (write) {
			const last = this.stamps.get(doc);
			if (last !== undefined && doc.updatedAt <= last)
				doc.updatedAt = new Date(Date.parse(last) + 1).toISOString();
			this.stamps.set(doc, doc.updatedAt);
		}
		const h = this.docs.get(doc);
		if (!h) return;
		const now = copyTables(doc, this.now());
		const { deltas, renames } = diff(h.copy, now);
		h.copy = now;
		if (write || deltas.length > 0 || renames.length > 0) this.push(h, deltas, renames);
	}

	/** POST /states/remove {keep}: keeps the `keep` newest states. */
	keep(doc: Doc, keep: number): void {
		const h = this.of(doc);
		if (keep > 0 && h.states.length > keep) h.states.splice(0, h.states.length - keep);
	}

	private push(h: DocHistory, deltas: StateDelta[], renames: State['renames']): void {
		const n = (h.states[h.states.length - 1]?.n ?? 0) + 1;
		const hash = createHash('sha256')
			.update(`${n}:${randomBytes(8).toString('hex')}`)
			.digest('hex');
		h.states.push({ n, h: hash, deltas, renames });
		if (n % 10 === 0 && h.states.length > 1.25 * this.maxRows)
			h.states.splice(0, h.states.length - this.maxRows);
	}

	states(doc: Doc): Array<{ n: number; h: string }> {
		return this.of(doc)
			.states.map((s) => ({ n: s.n, h: s.h }))
			.reverse();
	}

	compare(c: Ctx, doc: Doc, owner: boolean) {
		if (this.restricted.has(doc) && !owner) throw new ApiError(403, 'insufficient access');
		const maxRows = parseMaxRows(c.query.maxRows);
		const h = this.of(doc);
		const left = resolveRef(h, c.query.left ?? 'HEAD');
		const right = resolveRef(h, c.query.right ?? 'HEAD');
		if (left > right)
			throw new ApiError(500, 'Comparisons currently require left to be an ancestor of right');
		const range = h.states.slice(left + 1, right + 1);
		const l = h.states[left];
		const r = h.states[right];
		return {
			left: { n: l.n, h: l.h },
			right: { n: r.n, h: r.h },
			parent: { n: l.n, h: l.h },
			summary: left === right ? 'same' : 'right',
			details: {
				leftChanges: { tableRenames: [], tableDeltas: {} },
				rightChanges: summarize(range, maxRows),
			},
		};
	}
}

const services = new WeakMap<Store, HistoryService>();

export function historyOf(store: Store): HistoryService {
	let s = services.get(store);
	if (!s) services.set(store, (s = new HistoryService(() => store.clock())));
	return s;
}

/** Whether a request is a write that adds a state even when it changes nothing. */
export function isWriteRequest(method: string, apiPath: string): boolean {
	if (method === 'GET' || !/^\/api\/docs\/[^/]+\/(apply|tables)(\/|$)/.test(apiPath)) return false;
	return !apiPath.endsWith('/records/list');
}

function parseMaxRows(raw: string | undefined): number | null {
	if (raw === undefined || raw === '') return 10;
	if (raw === 'null') return null;
	const n = Number(raw);
	if (!Number.isInteger(n))
		throw new ApiError(400, `maxRows parameter cannot be understood as an integer: ${raw}`);
	if (n <= 0) throw new ApiError(400, `maxRows parameter is invalid: ${raw}`);
	return n;
}

/** A reference (`HEAD`, a full hash, with `~N` / `^` suffixes) as an index in `states`. */
function resolveRef(h: DocHistory, ref: string): number {
	const m = ref.match(/^([^~^]+)((?:[~^]\d*)*)$/);
	if (!m) throw new ApiError(500, 'cannot parse hash');
	let index = m[1] === 'HEAD' ? h.states.length - 1 : h.states.findIndex((s) => s.h === m[1]);
	if (index < 0) throw new ApiError(500, 'Cannot read hash');
	for (const part of m[2].match(/[~^]\d*/g) ?? []) {
		const count = part.length > 1 ? Number(part.slice(1)) : 1;
		if (part[0] === '^' && count > 1) throw new ApiError(500, 'cannot parse hash');
		index -= count;
	}
	if (index < 0) throw new ApiError(500, 'Cannot read hash');
	return index;
}

function copyTables(doc: Doc, now: number): Map<number, TableCopy> {
	const out = new Map<number, TableCopy>();
	for (const t of doc.tables) out.set(t.tableRef, copyTable(t, now));
	return out;
}

/** A table's rows with their formula values (the emulator computes formulas when read). */
function copyTable(t: Table, now: number): TableCopy {
	const ev = new RowEvaluator(t, now);
	const rows = new Map<number, Row>();
	for (const [id, row] of t.rows) {
		const full = ev.full(row, id);
		delete full.id;
		rows.set(id, full);
	}
	return {
		tableRef: t.tableRef,
		id: t.id,
		columns: t.columns.map((c) => c.id),
		defaults: Object.fromEntries(t.columns.map((c) => [c.id, defaultFor(c.type)])),
		formulaColumns: t.columns
			.filter((c) => c.isFormula && c.formula.trim() !== '')
			.map((c) => c.id),
		rows,
	};
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function diff(
	before: Map<number, TableCopy>,
	after: Map<number, TableCopy>,
): { deltas: StateDelta[]; renames: State['renames'] } {
	const deltas: StateDelta[] = [];
	const renames: State['renames'] = [];
	for (const [ref, b] of before) {
		const a = after.get(ref);
		if (!a) renames.push([b.id, null]);
		else if (a.id !== b.id) renames.push([b.id, a.id]);
	}
	for (const [ref, a] of after) {
		const b = before.get(ref);
		if (!b) renames.push([null, a.id]);
		const old = b?.rows ?? new Map<number, Row>();
		const oldColumns = new Set(b?.columns ?? []);
		const d: StateDelta = {
			tableId: a.id,
			tableRef: ref,
			addRows: [],
			removeRows: [],
			updateRows: [],
			cells: new Map(),
			columnsAdded: b ? a.columns.filter((c) => !oldColumns.has(c)) : [],
		};
		for (const [id, row] of a.rows) {
			const prev = old.get(id);
			const cells: Record<string, Cell> = {};
			if (!prev) {
				d.addRows.push(id);
				cells.manualSort = [null, [id]];
				for (const col of a.columns) cells[col] = [null, [row[col] ?? null]];
				// the data engine adds the row with defaults, then records the formulas' values as an update
				if (a.formulaColumns.some((col) => !same(row[col], a.defaults[col]))) d.updateRows.push(id);
			} else {
				for (const col of a.columns) {
					if (!oldColumns.has(col)) cells[col] = [null, [row[col] ?? null]];
					else if (!same(prev[col], row[col]))
						cells[col] = [[prev[col] ?? null], [row[col] ?? null]];
				}
				if (Object.keys(cells).length === 0) continue;
				d.updateRows.push(id);
			}
			d.cells.set(id, cells);
		}
		const removed = [...old].filter(([id]) => !a.rows.has(id));
		// The undo of a removal leaves out each column that held its default in every removed row.
		const kept = b
			? b.columns.filter((col) => removed.some(([, prev]) => !same(prev[col], b.defaults[col])))
			: [];
		for (const [id, prev] of removed) {
			d.removeRows.push(id);
			const cells: Record<string, Cell> = { manualSort: [[id], null] };
			for (const col of kept) cells[col] = [[prev[col] ?? null], null];
			d.cells.set(id, cells);
		}
		if (d.addRows.length + d.removeRows.length + d.updateRows.length > 0) deltas.push(d);
	}
	return { deltas, renames };
}

interface NetRow {
	/** An original row (there before the range) was removed. */
	removed: boolean;
	/** A new row holds the id at the end of the range. */
	added: boolean;
	updated: boolean;
	cells: Record<string, Cell>;
}

interface NetTable {
	tableId: string;
	rows: Map<number, NetRow>;
	incomplete: boolean;
	columnsAdded: Set<string>;
}

/** The ActionSummary of the states in `range` (in order). */
function summarize(range: State[], maxRows: number | null) {
	const tables = new Map<number, NetTable>();
	const tableRenames: Array<[string | null, string | null]> = [];
	for (const state of range) {
		tableRenames.push(...state.renames);
		for (const d of state.deltas) {
			let t = tables.get(d.tableRef);
			if (!t) {
				t = { tableId: d.tableId, rows: new Map(), incomplete: false, columnsAdded: new Set() };
				tables.set(d.tableRef, t);
			}
			t.tableId = d.tableId;
			for (const c of d.columnsAdded) t.columnsAdded.add(c);
			const ids = [...new Set([...d.removeRows, ...d.addRows, ...d.updateRows])];
			const recorded =
				maxRows === null || ids.length <= maxRows
					? undefined
					: new Set([...ids.slice(0, maxRows - 1), ids[ids.length - 1]]);
			if (recorded) t.incomplete = true;
			for (const id of ids) {
				const cells = !recorded || recorded.has(id) ? (d.cells.get(id) ?? {}) : undefined;
				apply(t, id, d, cells);
			}
		}
	}
	const tableDeltas: Record<string, unknown> = {};
	for (const t of tables.values()) {
		const addRows: number[] = [];
		const removeRows: number[] = [];
		const updateRows: number[] = [];
		const columnDeltas: Record<string, Record<string, Cell>> = {};
		for (const [id, r] of [...t.rows].sort((a, b) => a[0] - b[0])) {
			if (r.added) addRows.push(id);
			if (r.removed) removeRows.push(id);
			if (r.updated) updateRows.push(id);
			for (const [col, cell] of Object.entries(r.cells)) (columnDeltas[col] ??= {})[id] = cell;
		}
		if (addRows.length + removeRows.length + updateRows.length === 0) continue;
		const out: Record<string, unknown> = {
			updateRows,
			removeRows,
			addRows,
			columnDeltas,
			columnRenames: [...t.columnsAdded].map((c) => [null, c]),
		};
		if (t.incomplete) out.mayBeIncomplete = true;
		tableDeltas[t.tableId] = out;
	}
	return { tableRenames, tableDeltas };
}

/** Adds one state's change of row `id` to the net change (`cells` undefined: not recorded). */
function apply(t: NetTable, id: number, d: StateDelta, cells: Record<string, Cell> | undefined) {
	let r = t.rows.get(id);
	const removing = d.removeRows.includes(id);
	const adding = d.addRows.includes(id);
	if (removing) {
		if (r?.added && !r.removed) {
			t.rows.delete(id); // added in the range, removed again: gone
			r = undefined;
		} else {
			if (!r) {
				r = { removed: true, added: false, updated: false, cells: {} };
				t.rows.set(id, r);
				for (const [col, cell] of Object.entries(cells ?? {})) r.cells[col] = [cell[0], null];
			} else {
				// an original row (maybe updated, or removed and re-added) is removed
				for (const col of Object.keys(r.cells)) r.cells[col] = [r.cells[col][0], null];
				if (r.added) {
					// the re-added row goes again: only the original row's removal stays
					for (const col of Object.keys(r.cells)) if (r.cells[col][0] === null) delete r.cells[col];
				} else if (cells) {
					for (const [col, cell] of Object.entries(cells))
						if (!(col in r.cells)) r.cells[col] = [cell[0], null];
				}
				r.removed = true;
				r.added = false;
				r.updated = false;
			}
		}
	}
	if (adding) {
		if (!r) {
			r = { removed: false, added: true, updated: false, cells: {} };
			t.rows.set(id, r);
		} else {
			r.added = true; // a reused id: the old row's `before`, the new row's `after`
		}
		for (const [col, cell] of Object.entries(cells ?? {}))
			r.cells[col] = [r.cells[col]?.[0] ?? null, cell[1]];
		if (!cells) for (const col of Object.keys(r.cells)) r.cells[col] = [r.cells[col][0], '?'];
		if (d.updateRows.includes(id)) r.updated = true;
		return;
	}
	if (removing || !d.updateRows.includes(id)) return;
	if (!r) {
		r = { removed: false, added: false, updated: true, cells: {} };
		t.rows.set(id, r);
	}
	// a row added in the range stays only in addRows, with its last values
	if (!r.added) r.updated = true;
	if (!cells) {
		for (const col of Object.keys(r.cells)) r.cells[col] = [r.cells[col][0], '?'];
		return;
	}
	for (const [col, cell] of Object.entries(cells)) {
		r.cells[col] = col in r.cells ? [r.cells[col][0], cell[1]] : r.added ? [null, cell[1]] : cell;
	}
}

export const historyRoutes: Route[] = [
	docRoute('GET', 'states', 'viewers', (c, doc) => ({ states: historyOf(c.store).states(doc) })),
	docRoute('GET', 'compare', 'viewers', (c, doc) =>
		historyOf(c.store).compare(c, doc, atLeast(c.store.docRole(c.user.id, doc), 'owners')),
	),
	docRoute('POST', 'states/remove', 'owners', (c, doc) => {
		const body = json(c) as { keep?: unknown } | undefined;
		const keep = Number(body?.keep);
		if (!Number.isInteger(keep))
			throw new ApiError(400, `keep parameter cannot be understood as an integer: ${body?.keep}`);
		historyOf(c.store).keep(doc, keep);
		return null;
	}),
];
