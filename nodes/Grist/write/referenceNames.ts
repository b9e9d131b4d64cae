/**
 * The names typed for references in a record write (Create, Update, Upsert: `fields` and an
 * upsert's `require`), turned into row IDs once every item is read: per Reference (List) column
 * the column it shows is found, then per referenced table and shown column all the names of the
 * execution are looked up in one read (api/referenceLookup.ts); each name is replaced by the one
 * row that has it (cells/referenceInput.ts). An item with a name that no row or several rows
 * have is refused, naming item, column and name; the items held back (collect.ts `pending`) are
 * then put in their batches in item order, and the reference check (referenceCheck.ts) sees row
 * IDs only.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	NamedReference,
	referenceNameText,
	resolveNamedReference,
	type NameFinding,
	type NameProblem,
	type ShownColumn,
} from '../cells/referenceInput';
import type { GristColumn } from '../cells/tableColumns';
import { ReferenceLookup } from '../api/referenceLookup';
import { placeItem, type PendingItem, type RecordWrite } from './collect';
import { refColumns, type ReferencingRecord } from './referenceCheck';
import { refuseChecked, refuseItem } from './report';

/** The names of one Reference (List) column of one table, and what their lookup gave. */
interface ColumnNames {
	docId: string;
	tableId: string;
	column: string;
	/** The column as the table's columns describe it (its type and `visibleCol`). */
	described: GristColumn;
	names: Set<string>;
	/** The first item naming a row through this column (for the reads' errors). */
	itemIndex: number;
	table?: string;
	shown?: ShownColumn;
	findings?: Map<string, NameFinding>;
	error?: Error;
}

const columnKey = (docId: string, tableId: string, column: string) =>
	`${docId}\u0000${tableId}\u0000${column}`;

/** Calls `visit(column, ref, holder)` for each NamedReference among the records' cells. */
function forEachNamed(
	item: PendingItem<unknown>,
	visit: (column: string, ref: NamedReference, holder: IDataObject) => void,
): void {
	const refs = refColumns(item.table.types);
	if (refs.length === 0) return;
	for (const record of item.records) {
		const { fields, require } = record as ReferencingRecord;
		for (const holder of [require, fields]) {
			if (!holder) continue;
			for (const ref of refs) {
				const value = holder[ref.column];
				if (value instanceof NamedReference) visit(ref.column, value, holder);
			}
		}
	}
}

/**
 * Looks up the names of the pending items, replaces them by row IDs, refuses the items whose
 * names do not give one row each, and puts the others in their batches, in item order.
 */
export async function placePending<R>(write: RecordWrite<R>): Promise<void> {
	const pending = write.pending;
	write.pending = [];
	const wanted = new Map<string, ColumnNames>();
	for (const item of pending) {
		forEachNamed(item, (column, ref) => {
			const key = columnKey(item.target.docId, item.target.tableId, column);
			let w = wanted.get(key);
			if (!w) {
				const { docId, tableId } = item.target;
				const described = item.table.byId.get(column)!;
				w = { docId, tableId, column, described, names: new Set(), itemIndex: item.itemIndex };
				wanted.set(key, w);
			}
			for (const name of ref.names()) w.names.add(name);
		});
	}
	await lookUp(write, wanted);

	const refused = new Map<number, Error>();
	const ready: Array<PendingItem<R>> = [];
	for (const item of pending) {
		const error = resolveItem(write, item, wanted);
		if (error) refused.set(item.itemIndex, error);
		else ready.push(item);
	}
	if (refused.size > 0) refuseChecked(write.report, refused);
	for (const item of ready) {
		try {
			const { itemIndex, target, table, records, grouping, options } = item;
			placeItem(write, itemIndex, target, table, records, grouping, options);
		} catch (error) {
			refuseItem(write.report, item.itemIndex, error);
		}
	}
}

/**
 * The lookups: first the column each Reference column shows, then per referenced table and
 * shown column the names of all its Reference columns together (one read).
 */
async function lookUp(
	write: RecordWrite<unknown>,
	wanted: Map<string, ColumnNames>,
): Promise<void> {
	const lookup = new ReferenceLookup(write.client, write.columns);
	const byShown = new Map<string, ColumnNames[]>();
	for (const w of wanted.values()) {
		try {
			const { table, shown } = await lookup.shown(w.docId, w.described, w.itemIndex);
			w.table = table;
			w.shown = shown;
			const key = `${w.docId}\u0000${table}\u0000${shown?.id ?? ''}`;
			const list = byShown.get(key);
			if (list) list.push(w);
			else byShown.set(key, [w]);
		} catch (error) {
			w.error = error as Error;
		}
	}
	for (const group of byShown.values()) {
		const { docId, table, shown, itemIndex } = group[0];
		const names = new Set<string>();
		for (const w of group) for (const name of w.names) names.add(name);
		try {
			const findings = await lookup.find(docId, table!, shown, names, itemIndex);
			for (const w of group) w.findings = findings;
			rememberFound(write, docId, table!, findings);
		} catch (error) {
			for (const w of group) w.error = error as Error;
		}
	}
}

/** Keeps the rows a lookup found in `write.foundRows`, for the reference check to skip. */
function rememberFound(
	write: RecordWrite<unknown>,
	docId: string,
	table: string,
	findings: Map<string, NameFinding>,
): void {
	const key = `${docId}\u0000${table}`;
	let found = write.foundRows.get(key);
	if (!found) write.foundRows.set(key, (found = new Set()));
	for (const finding of findings.values())
		if ('ids' in finding) for (const id of finding.ids) found.add(id);
}

/** Replaces the item's names by row IDs; answers why it is refused, if it is. */
function resolveItem(
	write: RecordWrite<unknown>,
	item: PendingItem<unknown>,
	wanted: Map<string, ColumnNames>,
): Error | undefined {
	const { docId, tableId } = item.target;
	const problems = new Map<string, { w: ColumnNames; list: NameProblem[] }>();
	let failed: ColumnNames | undefined;
	forEachNamed(item, (column, ref, holder) => {
		const w = wanted.get(columnKey(docId, tableId, column))!;
		if (w.error) {
			failed ??= w;
			return;
		}
		const resolved = resolveNamedReference(ref, (name) => w.findings!.get(name)!);
		if ('value' in resolved) {
			holder[column] = resolved.value as IDataObject[string];
			return;
		}
		let entry = problems.get(column);
		if (!entry) problems.set(column, (entry = { w, list: [] }));
		for (const p of resolved.problems)
			if (!entry.list.some((q) => q.name === p.name)) entry.list.push(p);
	});
	if (failed) return readError(failed);
	if (problems.size === 0) return undefined;
	const texts = [...problems.entries()].map(([column, { w, list }]) =>
		referenceNameText(item.itemIndex, column, w.table ?? '', w.shown?.label, list),
	);
	return new NodeOperationError(write.ctx.getNode(), texts.map((t) => t.message).join('. '), {
		itemIndex: item.itemIndex,
		description: [...new Set(texts.map((t) => t.description))].join(' '),
	});
}

/** The error of a failed lookup, saying that no item with a name for this column was written. */
function readError(w: ColumnNames): Error {
	const error = w.error!;
	if (error instanceof NodeApiError && !error.description?.includes('Looking up the names')) {
		const note = `Looking up the names given for the references of column "${w.column}" failed, so no item naming a row there was written.`;
		error.description = error.description ? `${note} ${error.description}` : note;
	}
	return error;
}
