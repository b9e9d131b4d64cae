/**
 * The pure planner of record writes: items of one table with equal options and field set share a
 * group (`assignBatch`; items repeating an upsert's match values go into later rounds), each
 * item's records are sized (JSON bytes, exact or a cheap upper bound) and a batch's items are cut
 * into request-sized chunks (`planChunks`: ≤ Options → Batch Size records, default 500, and
 * < 1 MB of JSON, by chunking.ts's `chunkRecords`). Sending the chunks is send.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { chunkRecords, jsonBytes, jsonUpperBound, recordsBytes } from './chunking';

// ---------------------------------------------------------------------------------------------
// Groups: which items share requests.

/**
 * An operation's flags and query values of one item, e.g. `{ noparse: true, onmany: 'all' }`:
 * items of one table with equal values share requests, and they are the request's query string
 * (`true` → `1`; `false`, `undefined` and `''` left out). Key order is the query string's order.
 */
export type WriteOptions = Record<string, string | number | boolean | undefined>;

/** The table a write goes to. */
export interface WriteTarget {
	docId: string;
	tableId: string;
}

/** What every request of a batched write to one table needs: target, options, column types. */
export interface WriteGroup<O extends WriteOptions = WriteOptions> {
	target: WriteTarget;
	/** The options of the group's items (equal for all of them). */
	options: O;
	/** The options as query string (`true` → 1, `false`, `undefined` and `''` left out). */
	qs: IDataObject;
	/** Column types of the table (empty for a write that does not read the columns). */
	types: Record<string, string>;
	/** Records per request (Options → Batch Size), where the write has that option. */
	batchSize?: number;
	/** Options → Allow Dangling References: referenced row IDs are not checked (referenceCheck.ts). */
	allowDangling?: boolean;
}

/** How an item's records are grouped, besides its table and options. */
export interface ItemGrouping {
	/**
	 * The field names of the records, where Grist needs one field set per request (PATCH
	 * …/records, …/data; POST …/records, else a field another record names is null): items with
	 * other names (in any order) go into other requests.
	 */
	fieldSet?: string[];
	/**
	 * Items of one group with an equal round key (SameValueZero: a text, a number… or a JSON
	 * text) go into successive requests: the first into round 0, the next into round 1… (upsert:
	 * Grist refuses a repeated `require` in one request). Items with one record only.
	 */
	roundKey?: unknown;
}

interface GroupEntry {
	base: string;
	key0: string;
	group: WriteGroup;
	/** Items so far per round key. */
	rounds: Map<unknown, number>;
}

/** The groups of one execution, by their key, and what the previous item's group was found from. */
export interface Grouping {
	entries: Map<string, GroupEntry>;
	last?: {
		entry: GroupEntry;
		target: WriteTarget;
		types: Record<string, string>;
		options: WriteOptions;
		defined: number;
		batchSize: number | undefined;
		allowDangling: boolean | undefined;
		fieldSet: string[] | undefined;
	};
}

export function newGrouping(): Grouping {
	return { entries: new Map() };
}

/**
 * The batch of an item: its group (items of one target by value, equal options, Batch Size,
 * Allow Dangling References and field set as a set) and, with a round key, the round (`key`).
 * The group's key text is built only when an item differs from the one before (options compared
 * by identity first, then value by value; target and types by identity), not per item (its cost:
 * docs/PERFORMANCE.md). The result does not depend on identities, only the speed.
 */
export function assignBatch(
	grouping: Grouping,
	target: WriteTarget,
	types: Record<string, string>,
	item: ItemGrouping,
	options: WriteOptions,
	batchSize?: number,
	allowDangling?: boolean,
): { key: string; group: WriteGroup } {
	const last = grouping.last;
	let entry: GroupEntry;
	if (
		last !== undefined &&
		last.target === target &&
		last.types === types &&
		last.batchSize === batchSize &&
		last.allowDangling === allowDangling &&
		(options === last.options || sameOptions(last.options, last.defined, options)) &&
		sameList(last.fieldSet, item.fieldSet)
	) {
		entry = last.entry;
	} else {
		entry = groupEntry(grouping, target, types, item.fieldSet, options, batchSize, allowDangling);
		const defined = definedCount(options);
		const fieldSet = item.fieldSet;
		grouping.last = { entry, target, types, options, defined, batchSize, allowDangling, fieldSet };
	}
	if (item.roundKey === undefined) return { key: entry.key0, group: entry.group };
	const round = entry.rounds.get(item.roundKey) ?? 0;
	entry.rounds.set(item.roundKey, round + 1);
	return { key: round > 0 ? `${entry.base}|${round}` : entry.key0, group: entry.group };
}

/** The group of these values, found by its key text or made. */
function groupEntry(
	grouping: Grouping,
	target: WriteTarget,
	types: Record<string, string>,
	fieldSet: string[] | undefined,
	options: WriteOptions,
	batchSize: number | undefined,
	allowDangling: boolean | undefined,
): GroupEntry {
	const fields = fieldSet ? [...fieldSet].sort().join('\u0000') : '';
	const table = JSON.stringify([target.docId, target.tableId]);
	const base = `${table}|${batchSize ?? ''}|${allowDangling ? 1 : 0}|${JSON.stringify(options)}|${fields}`;
	let entry = grouping.entries.get(base);
	if (!entry) {
		const qs = queryOf(options);
		const group = { target, options, qs, types, batchSize, allowDangling };
		entry = { base, key0: `${base}|0`, group, rounds: new Map() };
		grouping.entries.set(base, entry);
	}
	return entry;
}

/**
 * Equal defined values under the same keys (a key missing on one side counts as `undefined`):
 * every defined value of `b` equals `a`'s, and both have as many defined values (`aDefined`).
 */
function sameOptions(a: WriteOptions, aDefined: number, b: WriteOptions): boolean {
	let defined = 0;
	for (const key in b) {
		const value = b[key];
		if (value === undefined) continue;
		if (value !== a[key]) return false;
		defined++;
	}
	return defined === aDefined;
}

function definedCount(options: WriteOptions): number {
	let n = 0;
	for (const key in options) if (options[key] !== undefined) n++;
	return n;
}

function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
	if (a === b) return true;
	if (!a || !b || a.length !== b.length) return false;
	for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
	return true;
}

function queryOf(options: WriteOptions): IDataObject {
	const qs: IDataObject = {};
	for (const key in options) {
		const value = options[key];
		if (value === undefined || value === false || value === '') continue;
		qs[key] = value === true ? 1 : value;
	}
	return qs;
}

// ---------------------------------------------------------------------------------------------
// Units and chunks: what each item adds to a request, and the requests.

/** One input item's records in a batch, with their JSON size. */
export interface WriteUnit<R, G = WriteGroup> {
	itemIndex: number;
	group: G;
	records: R[];
	/** JSON bytes of the records (with commas), or an upper bound while `exact` is false. */
	bytes: number;
	exact: boolean;
}

/** The units of one batch key (a group's round), in input order. */
export interface Batch<R, G = WriteGroup> {
	group: G;
	units: Array<WriteUnit<R, G>>;
}

/** The batches of one execution by key, in first-seen order. */
export type Batches<R, G = WriteGroup> = Map<string, Batch<R, G>>;

/**
 * The JSON size of an item's records against the `budget` of one request body: a cheap upper
 * bound (`jsonUpperBound`) unless that is over the budget, then measured. `bytes` over `budget`:
 * the item alone is too large for a request.
 */
export function sizeRecords(records: unknown[], budget: number): { bytes: number; exact: boolean } {
	const bound = recordsBytes(records, jsonUpperBound);
	if (bound <= budget) return { bytes: bound, exact: false };
	return { bytes: recordsBytes(records, jsonBytes), exact: true };
}

/** Adds a unit to the batch of `key` (made with `group` when it is the key's first unit). */
export function placeUnit<R, G>(
	batches: Batches<R, G>,
	key: string,
	group: G,
	unit: WriteUnit<R, G>,
): void {
	const batch = batches.get(key);
	if (batch) batch.units.push(unit);
	else batches.set(key, { group, units: [unit] });
}

/** The limits of a write's requests. */
export interface RequestLimits<G> {
	maxItems: number;
	maxBytes: number;
	/** Bytes of the JSON envelope around the records, e.g. `{"records":[` + `]}`. */
	envelopeBytes: number;
	/** Records per request of a group, when it has its own (Options → Batch Size). */
	maxItemsOf?: (group: G) => number | undefined;
}

/** One request of a write: a group and the units whose records it carries. */
export interface PlannedRequest<R, G = WriteGroup> {
	group: G;
	units: Array<WriteUnit<R, G>>;
}

/** The requests of a write: each batch cut into chunks, batches in first-seen order. */
export function planChunks<R, G>(
	batches: Batches<R, G>,
	limits: RequestLimits<G>,
): Array<PlannedRequest<R, G>> {
	const requests: Array<PlannedRequest<R, G>> = [];
	for (const { group, units } of batches.values()) {
		const chunks = chunkRecords(units, {
			maxItems: limits.maxItemsOf?.(group) ?? limits.maxItems,
			maxBytes: limits.maxBytes,
			envelopeBytes: limits.envelopeBytes,
			sizeOf: exactBytes,
			boundOf: (u) => u.bytes,
			countOf: (u) => u.records.length,
		});
		for (const chunk of chunks) requests.push({ group, units: chunk.items });
	}
	return requests;
}

/** A unit's exact JSON bytes (measured once). */
function exactBytes(unit: WriteUnit<unknown, unknown>): number {
	if (!unit.exact) {
		unit.bytes = recordsBytes(unit.records, jsonBytes);
		unit.exact = true;
	}
	return unit.bytes;
}

/** The records of a request's units, in order: its body. */
export function requestRecords<R>(units: Array<{ records: R[] }>): R[] {
	const records: R[] = [];
	for (const u of units) for (const r of u.records) records.push(r);
	return records;
}
