/**
 * Pure helpers of a document's versions: forks (`{trunkId}~{forkId}~{userId}`), the comparison of
 * two documents or two states of one (`/compare`) shaped for a workflow, snapshot ID lists and
 * change proposals.
 */
import type { IDataObject } from 'n8n-workflow';

import { InputError } from '../errors/gristAnswers';
import {
	classifyChanges,
	type ActionSummary,
	type HistoryState,
	type RowChange,
} from '../history/rowChangeDecoding';

/** The parts of a document ID: a fork's ID is `{trunkId}~{forkId}~{userId}` (the user part may be absent). */
export interface DocIdParts {
	trunkId: string;
	forkId?: string;
	forkUserId?: number;
}

/** Splits a document ID (or URL ID) into trunk, fork and user; a snapshot part (`~v=`) is ignored. */
export function parseDocId(docId: string): DocIdParts {
	const [trunkId, ...rest] = docId.split('~').filter((p) => !p.startsWith('v='));
	const parts: DocIdParts = { trunkId };
	if (rest[0]) parts.forkId = rest[0];
	if (rest[1] && /^\d+$/.test(rest[1])) parts.forkUserId = Number(rest[1]);
	return parts;
}

/** A fork's document ID from its trunk, fork ID and creator (as Grist builds it). */
export function forkDocId(trunkId: string, forkId: string, userId?: number | null): string {
	return [trunkId, forkId, ...(userId === undefined || userId === null ? [] : [userId])].join('~');
}

/** What `POST /api/docs/{doc}/fork` answers. */
export interface ForkResult {
	forkId: string;
	docId: string;
	urlId: string;
}

/** Document → Fork's output: the fork's IDs, its trunk and its address in Grist. */
export function forkOutput(result: ForkResult, trunkId: string, url: string): IDataObject {
	return { docId: result.docId, urlId: result.urlId, forkId: result.forkId, trunkId, url };
}

/** Grist's comparison of two documents (or two states of one). */
export interface Comparison {
	left?: HistoryState;
	right?: HistoryState;
	parent?: HistoryState | null;
	summary?: string;
	details?: { leftChanges?: ActionSummary; rightChanges?: ActionSummary };
}

/** The changes of one table on one side of a comparison. */
export interface TableChanges extends IDataObject {
	side: 'left' | 'right';
	tableId: string;
	/** The table was added on that side (its rows are all added). */
	tableAdded?: boolean;
	/** The table was removed on that side (`tableId` is its old ID). */
	tableRemoved?: boolean;
	/** The table's ID before a rename on that side. */
	renamedFrom?: string;
	columnsAdded: string[];
	columnsRemoved: string[];
	/** `[before, after]` pairs of renamed columns. */
	columnsRenamed: Array<[string, string]>;
	addedRows: number;
	updatedRows: number;
	deletedRows: number;
	/** Grist left out the values of some rows of a large bulk change (raise Max Rows With Values). */
	mayBeIncomplete?: boolean;
	rows: RowChange[];
}

/** A table's entry before its changes are counted. */
function noChanges(): Pick<
	TableChanges,
	| 'columnsAdded'
	| 'columnsRemoved'
	| 'columnsRenamed'
	| 'addedRows'
	| 'updatedRows'
	| 'deletedRows'
	| 'rows'
> {
	return {
		columnsAdded: [],
		columnsRemoved: [],
		columnsRenamed: [],
		addedRows: 0,
		updatedRows: 0,
		deletedRows: 0,
		rows: [],
	};
}

/** One side's ActionSummary as one entry per changed user table (Grist's `_grist_*` tables left out). */
export function tableChanges(side: 'left' | 'right', summary?: ActionSummary): TableChanges[] {
	const out: TableChanges[] = [];
	const renames = summary?.tableRenames ?? [];
	for (const [key, delta] of Object.entries(summary?.tableDeltas ?? {})) {
		const removed = key.startsWith('-');
		const tableId = removed ? key.slice(1) : key;
		if (tableId.startsWith('_grist_')) continue;
		const entry: TableChanges = { side, tableId, ...noChanges() };
		if (renames.some(([b, a]) => b === null && a === tableId)) entry.tableAdded = true;
		if (removed || renames.some(([b, a]) => b === tableId && a === null)) entry.tableRemoved = true;
		const from = renames.find(([b, a]) => a === tableId && b !== null)?.[0];
		if (from) entry.renamedFrom = from;
		for (const [b, a] of delta.columnRenames ?? []) {
			if (b === null && a !== null) entry.columnsAdded.push(a);
			else if (a === null && b !== null) entry.columnsRemoved.push(b);
			else if (a !== null && b !== null) entry.columnsRenamed.push([b, a]);
		}
		entry.rows = classifyChanges(delta).map(withUnknownAfter);
		for (const row of entry.rows) {
			if (row.change === 'added') entry.addedRows++;
			else if (row.change === 'updated') entry.updatedRows++;
			else entry.deletedRows++;
		}
		if (delta.mayBeIncomplete) entry.mayBeIncomplete = true;
		out.push(entry);
	}
	// Tables removed without any row change are only in the renames.
	for (const [b, a] of renames) {
		if (a !== null || b === null || b.startsWith('_grist_')) continue;
		if (out.some((t) => t.tableId === b)) continue;
		out.push({ side, tableId: b, tableRemoved: true, ...noChanges() });
	}
	return out;
}

/** An updated row whose new value Grist did not record for a changed column: that column is unknown too. */
function withUnknownAfter(row: RowChange): RowChange {
	if (row.change !== 'updated' || !row.changedColumns) return row;
	const missing = row.changedColumns.filter(
		(c) => !(c in row.values) && !(row.unknownColumns ?? []).includes(c),
	);
	return missing.length === 0
		? row
		: { ...row, unknownColumns: [...(row.unknownColumns ?? []), ...missing] };
}

/**
 * Document → Compare's output: the summary (`same`, `left`, `right`, `both`, `unrelated`), the
 * states compared and, when `withChanges`, `tables`: one entry per changed table and side.
 */
export function comparisonOutput(
	comparison: Comparison,
	about: IDataObject,
	withChanges: boolean,
): IDataObject {
	const out: IDataObject = {
		...about,
		summary: comparison.summary ?? null,
		left: (comparison.left as unknown as IDataObject) ?? null,
		right: (comparison.right as unknown as IDataObject) ?? null,
		parent: (comparison.parent as unknown as IDataObject) ?? null,
	};
	if (withChanges) {
		out.tables = [
			...tableChanges('left', comparison.details?.leftChanges),
			...tableChanges('right', comparison.details?.rightChanges),
		];
	}
	return out;
}

/**
 * A list of snapshot IDs from the field's text (comma- or newline-separated) or a list; empty
 * entries are dropped, and an empty list is an input error.
 */
export function parseSnapshotIds(raw: unknown, field: string): string[] {
	const list = Array.isArray(raw) ? raw : String(raw ?? '').split(/[\n,]/);
	const ids = list.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
	if (ids.length === 0)
		throw new InputError(
			'it is empty. Enter one or more snapshot IDs (Get Snapshots lists them), separated by commas',
			field,
		);
	return [...new Set(ids)];
}

/** A proposal as Grist lists it (`GET /api/docs/{doc}/proposals`). */
export interface GristProposal {
	shortId: number;
	status?: { status?: string } | null;
	srcDocId: string;
	destDocId: string;
	createdAt?: string;
	updatedAt?: string;
	appliedAt?: string | null;
	comparison?: { comparison?: Comparison };
	srcDoc?: {
		id?: string;
		name?: string;
		createdBy?: number | null;
		creator?: { id?: number; name?: string; email?: string } | null;
	} | null;
	destDoc?: { id?: string; name?: string } | null;
}

/** A proposal's status: `open` until it is applied, dismissed or retracted. */
export function proposalStatus(p: GristProposal): string {
	return p.status?.status ?? 'open';
}

/**
 * One proposal as an output item: its number, status, the fork it comes from (its full document
 * ID when Grist shows it; Grist hides it as `hidden` from non-owners when an anonymous user made
 * the fork), the document it is for, who made it and when; `tables` when `withChanges`.
 */
export function proposalOutput(p: GristProposal, withChanges: boolean): IDataObject {
	const creator = p.srcDoc?.creator;
	const hidden = p.srcDocId === 'hidden';
	const out: IDataObject = {
		proposalId: p.shortId,
		status: proposalStatus(p),
		forkDocId: hidden
			? null
			: forkDocId(p.destDocId, p.srcDocId, p.srcDoc?.createdBy ?? creator?.id),
		documentId: p.destDocId,
		documentName: p.destDoc?.name ?? p.srcDoc?.name ?? null,
		proposedBy: creator ? { name: creator.name ?? '', email: creator.email ?? '' } : null,
		createdAt: p.createdAt ?? null,
		updatedAt: p.updatedAt ?? null,
		appliedAt: p.appliedAt ?? null,
	};
	const comparison = p.comparison?.comparison;
	// The proposal's changes are its fork's: the left side of the fork-to-trunk comparison.
	if (withChanges) out.tables = tableChanges('left', comparison?.details?.leftChanges);
	return out;
}

/** What `POST …/proposals/{id}/apply` answers in `changes.log`. */
export interface PatchLog {
	changes?: Array<{ msg?: string; fail?: boolean }>;
	applied?: boolean;
}

/** Grist's reason when a proposal could not be applied (a change that failed), if any. */
export function patchFailure(log: PatchLog | undefined): string | undefined {
	return log?.changes?.find((c) => c.fail)?.msg;
}
