/**
 * The data engine's actions behind the REST routes and /apply: writing values (ValueParser
 * unless `noparse`, then the data engine's conversion), adding and updating rows with trigger
 * formulas (BulkAddRecord, BulkUpdateRecord), removing rows, and adding, modifying and removing
 * columns (AddColumn, ModifyColumn, RemoveColumn). Records (§5), /data (§6), tables and columns
 * (§7) and /apply share them.
 */
import type { Ctx } from './context';
import { convertCell } from './cells-convert';
import { parseCell } from './cells-parse';
import { asObject, flag, invalidPayload, sandbox } from './docworker';
import { RowEvaluator, dependsOn, evalTrigger, isTriggerCol } from './formula';
import { ApiError } from './http';
import type { Column, Doc, Row, Table } from './model';
import {
	colIdsToAvoid,
	defaultFor,
	dropColumnSlots,
	newColId,
	pickColIdent,
	widgetOptionsString,
} from './model';
import { valueKey } from './query';
import { webhooksOf } from './webhooks';

// ------------------------------------------------------------------ rows
/** The value stored for `v` written to `col`: parsed unless `noparse`, then converted by the data engine. */
export function storeValue(c: Ctx, doc: Doc, col: Column, v: unknown, noparse: boolean): unknown {
	return convertCell(col, noparse ? v : parseCell(c.store, doc, col, v));
}

/**
 * A write of records (§5) or columns of values (§6) to one table, honouring `noparse`. Field
 * names are checked first (`check`) for the whole request; an empty formula column that is
 * written becomes a data column (`convertEmptyColumns`) only once every check passed.
 */
export class RowWriter {
	readonly cols: Map<string, Column>;
	readonly noparse: boolean;
	private toConvert = new Set<Column>();

	constructor(
		private c: Ctx,
		readonly doc: Doc,
		readonly t: Table,
	) {
		this.cols = new Map(t.columns.map((x) => [x.id, x]));
		this.noparse = flag(c, 'noparse');
	}

	/** 400 `Invalid column "X"`, or `[Sandbox]` for a formula column; notes the empty formula columns. */
	check(fields: Record<string, unknown>): void {
		for (const k of Object.keys(fields)) {
			const col = this.cols.get(k);
			if (!col) throw new ApiError(400, `Invalid column "${k}"`);
			if (col.isFormula) {
				if (col.formula.trim() === '') this.toConvert.add(col);
				else throw sandbox(`ValueError Can't save value to formula column ${k}`);
			}
		}
	}

	convertEmptyColumns(): void {
		for (const col of this.toConvert) {
			col.isFormula = false;
			const d = defaultFor(col.type);
			for (const row of this.t.rows.values()) if (!(col.id in row)) row[col.id] = d;
		}
	}

	encode(fields: Record<string, unknown>): Row {
		const out: Row = {};
		for (const [k, v] of Object.entries(fields))
			out[k] = storeValue(this.c, this.doc, this.cols.get(k)!, v, this.noparse);
		return out;
	}

	/** A `require` of PUT /records as stored values (always parsed: the caller skips this with `noparse`). */
	encodeRequire(req: Record<string, unknown>): Row {
		const out: Row = {};
		for (const [k, v] of Object.entries(req))
			out[k] = k === 'id' ? v : storeValue(this.c, this.doc, this.cols.get(k)!, v, false);
		return out;
	}

	/** Adds one row per `fields` (`ids[i]` may force an id); returns the new ids. */
	add(fieldsList: Array<Record<string, unknown>>, ids?: Array<number | undefined>): number[] {
		for (const f of fieldsList) this.check(f);
		this.convertEmptyColumns();
		const out = addRows(
			this.c,
			this.t,
			fieldsList.map((f) => this.encode(f)),
			ids,
		);
		this.doc.updatedAt = this.c.store.now();
		return out;
	}

	/** Updates rows; a row id that does not exist is 400 `Invalid row id N`. */
	update(items: Array<{ id: unknown; fields: Record<string, unknown> }>): void {
		for (const it of items) this.check(it.fields);
		for (const { id } of items)
			if (typeof id !== 'number' || !this.t.rows.has(id))
				throw new ApiError(400, `Invalid row id ${id}`);
		this.convertEmptyColumns();
		updateRows(
			this.c,
			this.t,
			items.map((it) => ({ id: it.id as number, values: this.encode(it.fields) })),
		);
		this.doc.updatedAt = this.c.store.now();
	}
}

/**
 * Adds rows like the data engine's BulkAddRecord: a trigger-formula column (recalcWhen 0 or 2)
 * that a row was not given a value for gets its formula's value.
 */
export function addRows(c: Ctx, t: Table, rows: Row[], ids?: Array<number | undefined>): number[] {
	const out = c.store.insertRows(t, rows, ids);
	const hooks = webhooksOf(c.store);
	for (const id of out) hooks.noteRow(t, id, null); // webhook events (webhooks.ts)
	fillNewRowTriggers(t, rows, out, c.store.clock());
	return out;
}

/**
 * Gives the new rows `ids` (added from `rows`, in that order) their trigger formulas' values
 * (recalcWhen 0 or 2), where a row was not given a value for that column.
 */
export function fillNewRowTriggers(t: Table, rows: Row[], ids: number[], now: number): void {
	const triggers = t.columns.filter((col) => isTriggerCol(col) && col.recalcWhen !== 1);
	if (!triggers.length) return;
	ids.forEach((id, i) => {
		const row = t.rows.get(id)!;
		for (const col of triggers)
			if (!(col.id in rows[i])) row[col.id] = evalTrigger(t, col, row, id, now);
	});
}

/**
 * Updates rows like the data engine's BulkUpdateRecord: only rows where a value really changes
 * count; then trigger formulas recalculate on those rows (recalcWhen 2: any change; 0: a change
 * to a column listed in recalcDeps), except a column the update itself set (unless it lists
 * itself in recalcDeps).
 */
export function updateRows(c: Ctx, t: Table, updates: Array<{ id: number; values: Row }>): void {
	t.version = (t.version ?? 0) + 1;
	const changedCols = new Set<string>();
	const changedRows: number[] = [];
	for (const u of updates) {
		const row = t.rows.get(u.id)!;
		let changed = false;
		for (const [k, v] of Object.entries(u.values)) {
			if (valueKey(row[k]) === valueKey(v)) continue;
			changedCols.add(k);
			changed = true;
		}
		if (changed) {
			changedRows.push(u.id);
			webhooksOf(c.store).noteRow(t, u.id, row); // webhook events (webhooks.ts)
		}
	}
	for (const u of updates) Object.assign(t.rows.get(u.id)!, u.values);
	const triggers = t.columns.filter(isTriggerCol);
	if (!triggers.length || !changedRows.length) return;
	const refs = t.columns.filter((col) => changedCols.has(col.id)).map((col) => col.colRef);
	const now = c.store.clock();
	for (const col of triggers) {
		const selfDep = col.recalcWhen === 0 && dependsOn(col, col.colRef);
		if (changedCols.has(col.id) && !selfDep) continue;
		const due =
			col.recalcWhen === 2 || (col.recalcWhen === 0 && refs.some((r) => dependsOn(col, r)));
		if (!due) continue;
		for (const id of changedRows) {
			const row = t.rows.get(id)!;
			row[col.id] = evalTrigger(t, col, row, id, now);
		}
	}
}

/** POST /records/delete and /data/delete (BulkRemoveRecord): ids that do not exist are ignored (the data engine skips them). */
export function deleteRows(c: Ctx, doc: Doc, t: Table, body: unknown): null {
	if (!Array.isArray(body)) throw invalidPayload('body is not an array');
	// measured: `["x"]` fails the data engine's row-id assertion (an empty message after the name)
	for (const id of body)
		if (typeof id !== 'number')
			throw new ApiError(400, 'Error manipulating data: [Sandbox] AssertionError ');
	c.store.removeRows(t, body as number[]);
	doc.updatedAt = c.store.now();
	return null;
}

// ------------------------------------------------------------------ columns
const COL_FIELDS = [
	'type',
	'label',
	'formula',
	'isFormula',
	'widgetOptions',
	'visibleCol',
	'recalcWhen',
	'recalcDeps',
	'untieColIdFromLabel',
	'description',
	'colId',
];

export function checkColFields(fields: Record<string, unknown>): void {
	for (const k of Object.keys(fields))
		if (!COL_FIELDS.includes(k)) throw invalidPayload(`fields.${k} is extraneous`);
}

/**
 * Adds columns (AddColumn / AddTable): the given ID sanitized and made unique (`Name2`), the label
 * kept as given (else the ID). `mode` gives grist-core's defaults for a column without `isFormula`: `column`
 * (AddColumn, POST/PUT /columns): an empty formula column; `table` (AddTable, POST /tables): a
 * data column unless it has a formula. `type` defaults to Any for formula columns, else Text.
 */
export function addColumns(
	c: Ctx,
	doc: Doc,
	t: Table,
	specs: Array<Record<string, unknown>>,
	mode: 'column' | 'table',
): string[] {
	return specs.map((s) => {
		const fields = asObject(s.fields, 'fields');
		checkColFields(fields);
		const id = newColId(t, String(s.id || fields.label || ''));
		const formula = typeof fields.formula === 'string' ? fields.formula : '';
		const isFormula =
			typeof fields.isFormula === 'boolean'
				? fields.isFormula
				: mode === 'column' || Boolean(formula);
		const col = c.store.addColumn(doc, t, {
			id,
			type: typeof fields.type === 'string' ? fields.type : isFormula ? 'Any' : 'Text',
			label: typeof fields.label === 'string' ? fields.label : id,
			formula,
			isFormula,
			widgetOptions: fields.widgetOptions,
			// AddTable (POST /tables) keeps only colId, type, isFormula, formula, label and
			// widgetOptions (useractions.py doAddTable; measured on grist-core 1.7.17: visibleCol
			// and recalcWhen given to POST /tables read 0); AddColumn (POST /columns) keeps them
			visibleCol:
				mode === 'column' && typeof fields.visibleCol === 'number' ? fields.visibleCol : 0,
			recalcWhen:
				mode === 'column' && typeof fields.recalcWhen === 'number' ? fields.recalcWhen : 0,
			recalcDeps: mode === 'column' ? (fields.recalcDeps ?? null) : null,
			// useractions.py doAddColumn / doAddTable store neither: a new column is tied to its
			// label (untied only by a later update) and has no description
			untieColIdFromLabel: false,
			description: '',
		});
		return col.id;
	});
}

/**
 * ModifyColumn, UpdateRecord of `_grist_Tables_column` (PATCH/PUT /columns) and RenameColumn, as
 * useractions.py `_adjust_one_column_update` does: a column's ID is tied to its label, so a
 * `label` without `colId` renames the column (the ID derived from the label) unless
 * `untieColIdFromLabel` is set (in the request or on the column); setting it to false ties them
 * again (the ID follows the label). A new ID is sanitized and made unique like identifiers.py's
 * `pick_col_ident` (`Name2`, `A1_2`), avoiding the other columns, `id`, and `avoid` (the IDs
 * picked earlier in the same bulk update, which it extends); the column's own old ID is free.
 */
export function updateColumn(
	c: Ctx,
	t: Table,
	col: Column,
	fields: Record<string, unknown>,
	avoid: Set<string> = new Set(),
): void {
	checkColFields(fields);
	let colId = fields.colId;
	const untied =
		'untieColIdFromLabel' in fields ? Boolean(fields.untieColIdFromLabel) : col.untieColIdFromLabel;
	if ('label' in fields && !untied && colId === undefined) colId = fields.label;
	if (fields.untieColIdFromLabel === false && colId === undefined)
		colId = 'label' in fields ? fields.label : col.label;
	if (colId !== undefined && colId !== col.id) {
		const newId = pickColIdent(colId, [...colIdsToAvoid(t, col), ...avoid]);
		avoid.add(newId);
		if (newId !== col.id) {
			for (const row of t.rows.values()) {
				if (col.id in row) {
					row[newId] = row[col.id];
					delete row[col.id];
				}
			}
			col.id = newId;
		}
	}
	if (typeof fields.isFormula === 'boolean' && fields.isFormula !== col.isFormula) {
		// a formula column turned into data keeps the values its (old) formula had
		col.isFormula = fields.isFormula;
		if (!col.isFormula) {
			const ev = new RowEvaluator(
				{ ...t, columns: t.columns.map((x) => (x === col ? { ...x, isFormula: true } : x)) },
				c.store.clock(),
			);
			for (const [id, row] of t.rows) {
				const v = ev.full(row, id)[col.id];
				row[col.id] = v === undefined ? defaultFor(col.type) : v;
			}
		} else {
			for (const row of t.rows.values()) delete row[col.id];
		}
	}
	if (typeof fields.type === 'string') col.type = fields.type;
	if (typeof fields.label === 'string') col.label = fields.label;
	if (typeof fields.formula === 'string') col.formula = fields.formula;
	if ('widgetOptions' in fields) col.widgetOptions = widgetOptionsString(fields.widgetOptions);
	if (typeof fields.visibleCol === 'number') col.visibleCol = fields.visibleCol;
	if (typeof fields.description === 'string') col.description = fields.description;
	if (typeof fields.untieColIdFromLabel === 'boolean')
		col.untieColIdFromLabel = fields.untieColIdFromLabel;
	if (typeof fields.recalcWhen === 'number') col.recalcWhen = fields.recalcWhen;
	if ('recalcDeps' in fields) col.recalcDeps = fields.recalcDeps;
}

export function removeColumn(doc: Doc, t: Table, col: Column): void {
	t.columns = t.columns.filter((x) => x !== col);
	dropColumnSlots(doc, [col.colRef]);
	for (const row of t.rows.values()) delete row[col.id];
}
