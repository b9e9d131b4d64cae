/**
 * Batch executor for write operations. An operation declares only what is its own
 * (`WriteDeclaration`: how to read one item into options and records, the request, the output)
 * and `executeWrite` does the rest: target and table lookup, grouping (`writeGrouper`: items of
 * one table with equal options share requests; rounds for repeated keys), the reference check,
 * then `executeBatched`: every input item is prepared (bad input rejected before any request),
 * sized, chunked with `chunkRecords` of helpers/batch.ts (≤ Options → Batch Size records,
 * default 500, and <1 MB of JSON), and sent with one request per chunk. Results are mapped back
 * to input items in input order, paired.
 *
 * Bad input: without Continue On Fail every item is still prepared, so that the
 * one error names every refused item ("items 600–610") and says that no item was written; with
 * it, the refused items get error items and the others are sent. `verify` checks the prepared
 * items together (e.g. that referenced rows exist: one read per table, not per item) and
 * refuses items the same way.
 *
 * On a failing chunk: with Continue On Fail its items get error items and the other chunks go
 * on (each says what happened to it: the item Grist's message names was refused, the others
 * were not written because of it, or Grist did not say which item caused it); without it, the
 * error says how many items had been written before it, which failed and which were not sent.
 * When the failed request's answer was lost (connection broken after it was sent, see
 * transport), its items are reported as uncertain, never as not written.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_ITEMS,
	batchFailureNote,
	blamedItems,
	chunkRecords,
	itemsWithColumn,
	jsonBytes,
	jsonUpperBound,
	oversizedItemText,
	recordsBytes,
	refusalSummary,
	refusedRequestNote,
	uncertainItemNote,
	type BatchFailure,
} from '../helpers/batch';
import { isUncertainWrite } from '../helpers/retry';
import { readTarget } from '../parameters/locators';
import { SameForAllItems } from '../parameters/read';
import { readAllowDangling, readBatchSize } from '../parameters/writeOptions';
import type { GristClient } from '../transport';
import { ColumnCache, targetKey, type TableInfo, type Target } from '../transport/api';
import { errorItem, withItemIndex } from './items';
import { referenceCheck } from './references';

/** One input item's contribution to a batched request. */
export interface BatchUnit<R, G> {
	/** Items with the same key go into the same requests. */
	key: string;
	/** What the requests of this key need (document, table, query string…); taken from the first unit. */
	group: G;
	/** The records this item adds to the request body (usually one). */
	records: R[];
}

export interface ChunkResult {
	/**
	 * Output JSON per unit of the chunk, in the order of `units`: a list, or the one object of a
	 * unit with one output.
	 */
	outputs: Array<IDataObject[] | IDataObject>;
}

export interface BatchOptions<R, G> {
	/**
	 * Reads one item's parameters; throw for bad input (NodeOperationError naming the field). May
	 * answer synchronously (no promise per item when nothing needs to be fetched).
	 */
	prepare: (
		itemIndex: number,
	) => BatchUnit<R, G> | Array<BatchUnit<R, G>> | Promise<BatchUnit<R, G> | Array<BatchUnit<R, G>>>;
	/** Sends one chunk; returns outputs for every unit of the chunk. */
	send: (
		group: G,
		units: Array<BatchUnit<R, G> & { itemIndex: number }>,
		records: R[],
	) => Promise<ChunkResult>;
	/** Bytes of the JSON envelope around the records, e.g. `{"records":[` + `]}`. */
	envelopeBytes?: number;
	maxItems?: number;
	/** Records per request of one group's requests (Options → Batch Size), else `maxItems`. */
	maxItemsOf?: (group: G) => number | undefined;
	maxBytes?: number;
	/** "written", "deleted"… for the message of a failed batch. */
	verb?: string;
	/**
	 * Checks the prepared items together, after every item is prepared and before any write
	 * request (e.g. that referenced rows exist, one read per table). Answers the items to refuse
	 * with their error (NodeOperationError naming item, field and fix); a failed read may be
	 * thrown, or answered as a NodeApiError for the items that depended on it.
	 */
	verify?: (units: Array<BatchUnit<R, G> & { itemIndex: number }>) => Promise<Map<number, Error>>;
	/**
	 * Whether `prepare` answers a new object per unit that already has the fields of a prepared
	 * unit (`itemIndex`, `bytes`, `exact`): it is then completed in place instead of copied (one
	 * object per item fewer).
	 */
	freshUnits?: boolean;
}

export interface PreparedUnit<R, G> extends BatchUnit<R, G> {
	itemIndex: number;
	/** JSON bytes of the unit's records (with commas), or an upper bound while `exact` is false. */
	bytes: number;
	exact: boolean;
}

/** A unit's exact JSON bytes (measured once). */
function exactBytes(unit: PreparedUnit<unknown, unknown>): number {
	if (!unit.exact) {
		unit.bytes = recordsBytes(unit.records, jsonBytes);
		unit.exact = true;
	}
	return unit.bytes;
}

/** Records of a unit, for chunking by record count. */
const recordCount = (unit: { records: unknown[] }): number => unit.records.length;

/** Output items per input item: one item, a list, or none yet (fewer arrays for 10,000 items). */
type OutputSlot = INodeExecutionData | INodeExecutionData[] | undefined;

function addOutput(outputs: OutputSlot[], itemIndex: number, item: INodeExecutionData): void {
	const slot = outputs[itemIndex];
	if (slot === undefined) outputs[itemIndex] = item;
	else if (Array.isArray(slot)) slot.push(item);
	else outputs[itemIndex] = [slot, item];
}

function slotItems(slot: OutputSlot): INodeExecutionData[] {
	return slot === undefined ? [] : Array.isArray(slot) ? slot : [slot];
}

type UnitGroup<R, G> = { group: G; units: Array<PreparedUnit<R, G>> };

/**
 * Step 1 of executeBatched: the prepared units by key. Its methods (not closures made per
 * execution) keep their optimised code from one execution to the next: a profile of 10,000-item
 * writes showed the per-execution closures compiled again in every execution.
 */
class Preparation<R, G> {
	readonly groups = new Map<string, UnitGroup<R, G>>();
	private lastKey: string | undefined;
	private lastGroup: UnitGroup<R, G> | undefined;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly budget: number,
		private readonly fresh: boolean,
	) {}

	/**
	 * The unit with its item and size; an item too large for one request is refused. A unit's
	 * size is a cheap upper bound (jsonUpperBound) until a chunk comes near the byte limit; then
	 * it is measured.
	 */
	sized(unit: BatchUnit<R, G>, itemIndex: number): PreparedUnit<R, G> {
		const budget = this.budget;
		let bytes = recordsBytes(unit.records, jsonUpperBound);
		let exact = false;
		if (bytes > budget) {
			bytes = recordsBytes(unit.records, jsonBytes);
			exact = true;
		}
		if (bytes > budget) {
			const text = oversizedItemText(itemIndex, bytes, budget, unit.records);
			throw new NodeOperationError(this.ctx.getNode(), text.message, {
				itemIndex,
				description: text.description,
			});
		}
		if (this.fresh) {
			const prepared = unit as PreparedUnit<R, G>;
			prepared.itemIndex = itemIndex;
			prepared.bytes = bytes;
			prepared.exact = exact;
			return prepared;
		}
		return { key: unit.key, group: unit.group, records: unit.records, itemIndex, bytes, exact };
	}

	/** Adds a unit to its group (consecutive items of one group usually bring the same key string). */
	place(unit: PreparedUnit<R, G>): void {
		let g = unit.key === this.lastKey ? this.lastGroup : this.groups.get(unit.key);
		if (!g) {
			g = { group: unit.group, units: [] };
			this.groups.set(unit.key, g);
		}
		this.lastKey = unit.key;
		this.lastGroup = g;
		g.units.push(unit);
	}
}

/** Prepares, sizes and places every item; bad input goes to `refuse`. */
async function prepareAll<R, G>(
	ctx: IExecuteFunctions,
	count: number,
	options: BatchOptions<R, G>,
	prep: Preparation<R, G>,
	continueOnFail: boolean,
	refuse: (itemIndex: number, error: Error) => void,
): Promise<void> {
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		// One object of one shape per unit; no list for the usual single unit.
		let single: PreparedUnit<R, G> | undefined;
		let several: Array<PreparedUnit<R, G>> | undefined;
		try {
			let result = options.prepare(itemIndex);
			if (result instanceof Promise) result = await result;
			if (Array.isArray(result)) several = result.map((unit) => prep.sized(unit, itemIndex));
			else single = prep.sized(result, itemIndex);
		} catch (error) {
			// A request that failed while preparing (reading the table's columns…) stops the run:
			// it would fail again for every item.
			if (!continueOnFail && error instanceof NodeApiError)
				throw withItemIndex.call(ctx, error, itemIndex);
			refuse(itemIndex, error as Error);
			continue;
		}
		if (single) prep.place(single);
		else for (const unit of several ?? []) prep.place(unit);
	}
}

/** Runs a batched write over all input items. */
export async function executeBatched<R, G>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	options: BatchOptions<R, G>,
): Promise<INodeExecutionData[]> {
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
	const envelope = options.envelopeBytes ?? 0;
	const budget = maxBytes - envelope;
	const verb = options.verb ?? 'written';
	const outputs: OutputSlot[] = new Array<OutputSlot>(items.length);
	const continueOnFail = ctx.continueOnFail();

	// 1. Prepare every item; bad input fails before any request.
	const prep = new Preparation<R, G>(ctx, budget, options.freshUnits === true);
	const groups = prep.groups;
	// Without Continue On Fail: the items refused so far (bad input), in input order, to be named
	// together once every item is prepared.
	const refused: Array<{ itemIndex: number; error: Error }> = [];
	const refuse = (itemIndex: number, error: Error): void => {
		if (continueOnFail) outputs[itemIndex] = errorItem(error, itemIndex);
		else refused.push({ itemIndex, error });
	};
	await prepareAll(ctx, items.length, options, prep, continueOnFail, refuse);

	// 1b. Checks over all prepared items (one read per referenced table…), then the refusals.
	if (options.verify && groups.size > 0) {
		const verdict = await options.verify(allUnits(groups));
		if (verdict.size > 0) {
			for (const [itemIndex, error] of verdict) {
				if (!continueOnFail && error instanceof NodeApiError)
					throw withItemIndex.call(ctx, error, itemIndex);
			}
			for (const [key, g] of groups) {
				g.units = g.units.filter((u) => !verdict.has(u.itemIndex));
				if (g.units.length === 0) groups.delete(key);
			}
			const sorted = [...verdict.keys()].sort((a, b) => a - b);
			for (const itemIndex of sorted) refuse(itemIndex, verdict.get(itemIndex)!);
		}
	}
	if (refused.length > 0) {
		refused.sort((a, b) => a.itemIndex - b.itemIndex);
		const first = refused[0];
		// One input item: its own error, as it is.
		if (items.length === 1) throw withItemIndex.call(ctx, first.error, first.itemIndex);
		const summary = refusalSummary(
			refused.map(({ itemIndex, error }) => ({
				itemIndex,
				message: error.message,
				description: (error as { description?: string }).description ?? undefined,
			})),
			items.length,
			verb,
		);
		const error = withItemIndex.call(ctx, first.error, summary.itemIndex);
		error.message = summary.message;
		(error as { description?: string }).description = summary.description;
		throw error;
	}

	// 2. One request per chunk, in first-seen order of groups.
	const plan: Array<{ group: G; chunk: Array<PreparedUnit<R, G>> }> = [];
	for (const { group, units } of groups.values()) {
		const groupMax = options.maxItemsOf?.(group) ?? maxItems;
		const chunks = chunkRecords(units, {
			maxItems: groupMax,
			maxBytes,
			envelopeBytes: envelope,
			sizeOf: exactBytes,
			boundOf: (u) => u.bytes,
			countOf: recordCount,
		});
		for (const chunk of chunks) plan.push({ group, chunk: chunk.items });
	}
	let writtenItems = 0;
	const failedItems = new Set<number>();
	for (let c = 0; c < plan.length; c++) {
		const { group, chunk } = plan[c];
		const records = chunkBody(chunk);
		try {
			const result = await options.send(group, chunk, records);
			addOutputs(outputs, chunk, result.outputs);
			writtenItems += new Set(chunk.map((u) => u.itemIndex)).size;
		} catch (error) {
			const indices = [...new Set(chunk.map((u) => u.itemIndex))];
			if (continueOnFail) {
				const uncertain = isUncertainWrite(error);
				const blame = uncertain
					? undefined
					: blamedItems(error instanceof Error ? error.message : '', chunk);
				for (const itemIndex of indices) {
					failedItems.add(itemIndex);
					outputs[itemIndex] = uncertain
						? uncertainItem(error as Error, itemIndex, indices, verb)
						: refusedItem(error as Error, itemIndex, indices, blame!, verb, {
								c,
								of: plan.length,
							});
				}
				continue;
			}
			const later = new Set<number>();
			for (const rest of plan.slice(c + 1))
				for (const u of rest.chunk) if (!indices.includes(u.itemIndex)) later.add(u.itemIndex);
			throw batchError.call(ctx, error, {
				failed: indices,
				written: writtenItems,
				later: [...later],
				verb,
				units: chunk,
			});
		}
	}
	// An item split over several units (e.g. several upsert rounds) keeps only its error if any failed.
	for (const itemIndex of failedItems)
		outputs[itemIndex] = slotItems(outputs[itemIndex])
			.filter((o) => o.json.error !== undefined)
			.slice(0, 1);
	return flatOutputs(outputs);
}

// The loops over every unit or item live in small functions of their own: a loop of 10,000
// iterations gets the function that holds it compiled (on-stack replacement), and compiling the
// whole of executeBatched took a TurboFan thread about 80 ms per execution (--trace-opt).

/** Every prepared unit, group by group. */
function allUnits<R, G>(groups: Map<string, UnitGroup<R, G>>): Array<PreparedUnit<R, G>> {
	const all: Array<PreparedUnit<R, G>> = [];
	for (const g of groups.values()) for (const u of g.units) all.push(u);
	return all;
}

/** The records of a chunk's units, in order: the body of its request. */
function chunkBody<R>(chunk: Array<{ records: R[] }>): R[] {
	const records: R[] = [];
	for (const u of chunk) for (const r of u.records) records.push(r);
	return records;
}

/** The output items of a sent chunk, paired with their input items. */
function addOutputs(
	outputs: OutputSlot[],
	chunk: Array<{ itemIndex: number }>,
	results: Array<IDataObject[] | IDataObject>,
): void {
	for (let k = 0; k < chunk.length; k++) {
		const itemIndex = chunk[k].itemIndex;
		const out = results[k];
		if (out === undefined) continue;
		if (!Array.isArray(out)) {
			addOutput(outputs, itemIndex, { json: out, pairedItem: { item: itemIndex } });
			continue;
		}
		for (const json of out)
			addOutput(outputs, itemIndex, { json, pairedItem: { item: itemIndex } });
	}
}

/** The output items in input order. */
function flatOutputs(outputs: OutputSlot[]): INodeExecutionData[] {
	const all: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < outputs.length; itemIndex++) {
		const slot = outputs[itemIndex];
		if (slot === undefined) continue;
		if (Array.isArray(slot)) for (const item of slot) all.push(item);
		else all.push(slot);
	}
	return all;
}

/**
 * The error item (Continue On Fail) of an item whose request may or may not have been applied:
 * says so, with the items sent with it (`errorItem` adds `writeUncertain: true`).
 */
function uncertainItem(
	error: Error,
	itemIndex: number,
	indices: number[],
	verb: string,
): INodeExecutionData {
	const item = errorItem(error, itemIndex);
	item.json.description = uncertainItemNote(itemIndex, indices, verb);
	return item;
}

/**
 * The error item (Continue On Fail) of an item whose request Grist refused as a whole (it
 * applies a request entirely or not at all): the item Grist's message names keeps Grist's
 * error; the others say they were not written because of it; when Grist's message names no
 * item, each says that the request as a whole was refused.
 */
function refusedItem(
	error: Error,
	itemIndex: number,
	indices: number[],
	blame: { items: number[]; what: string },
	verb: string,
	request: { c: number; of: number },
): INodeExecutionData {
	const item = errorItem(error, itemIndex);
	if (indices.length === 1) return item;
	const { message, note } = refusedRequestNote({
		itemIndex,
		indices,
		blamed: blame.items,
		what: blame.what,
		gristMessage: error.message,
		verb,
		request: `request ${request.c + 1} of ${request.of}`,
	});
	const hint = typeof item.json.description === 'string' ? item.json.description : '';
	if (message !== undefined) {
		item.json.error = message;
		item.json.description = note;
		item.json.refusedBecauseOf = blame.items;
	} else {
		item.json.description = hint ? `${note} ${hint}` : note;
	}
	return item;
}

function batchError(this: IExecuteFunctions, error: unknown, f: BatchFailure): Error {
	const message = error instanceof Error ? error.message : '';
	const column = /Invalid column "([^"]+)"/.exec(message)?.[1];
	const withColumn = column === undefined ? [] : itemsWithColumn(f.units, column);
	const blame = column === undefined ? blamedItems(message, f.units) : undefined;
	const note = batchFailureNote({
		...f,
		uncertain: isUncertainWrite(error),
		column,
		withColumn,
		blame,
	});
	const itemIndex = withColumn[0] ?? blame?.items[0] ?? f.failed[0];
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = error.description ? `${error.description} ${note}` : note;
		if (error.context) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex, description: note });
}

// ---------------------------------------------------------------------------------------------
// Declared writes: an operation says how to read one item, the request, and the output; the
// executor below does the rest (table lookup, grouping, rounds, sizing, chunking, failures).

/**
 * An operation's flags and query values of one item, e.g. `{ noparse: true, onmany: 'all' }`:
 * items of one table with equal values share requests, and they are the request's query string
 * (`true` → `1`; `false`, `undefined` and `''` left out). Key order is the query string's order.
 */
export type WriteOptions = Record<string, string | number | boolean | undefined>;

/** What every request of a batched write to one table needs: target, options, column types. */
export interface WriteGroup<O extends WriteOptions = WriteOptions> {
	target: Target;
	/** The options of the group's items (equal for all of them). */
	options: O;
	/** The options as query string (`true` → 1, `false`, `undefined` and `''` left out). */
	qs: IDataObject;
	/** Column types of the table (empty for a declaration without `columns`). */
	types: Record<string, string>;
	/** Records per request (Options → Batch Size), for a declaration with `batchSize`. */
	batchSize?: number;
	/** Options → Allow Dangling References: referenced row IDs are not checked (actions/references.ts). */
	allowDangling?: boolean;
}

/** One item of a declared write, as the operation reads it. */
export interface ItemWrite<R> {
	/** The records the item adds to the request body (usually one). */
	records: R[];
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

/** A batched write operation: everything of it that is its own. */
export interface WriteDeclaration<R, O extends WriteOptions, F = undefined> {
	/** Bytes of the JSON envelope around the records, e.g. `{"records":[` + `]}`. */
	envelopeBytes: number;
	/** "written" (default), "deleted"… for the messages of refused and failed items. */
	verb?: string;
	/** Whether `read` needs the table's columns (read once per table and execution). */
	columns: boolean;
	/** Whether Options → Batch Size applies (else 500 records per request). */
	batchSize?: boolean;
	/** Whether referenced row IDs are checked before any write, unless Options → Allow Dangling References. */
	references?: boolean;
	/** Reads what does not need the columns, before they are fetched (bad input first). */
	readFirst?: (itemIndex: number, target: Target) => F;
	/** Reads one item: throws for bad input (NodeOperationError naming item and field). */
	read: (itemIndex: number, target: Target, table: TableInfo, first: F) => ItemWrite<R>;
	/**
	 * The item's options (flags and query values), read after `read` (none: `{}`). Read only
	 * parameters here (`itemParameter`, `readNoparse`…): when none of them holds an expression
	 * the executor reads them once per execution and shares the object between items.
	 */
	options?: (itemIndex: number) => O;
	/** Sends one request; answers the output of each unit, in order (a list or one object). */
	send: (
		group: WriteGroup<O>,
		records: R[],
		units: Array<BatchUnit<R, WriteGroup<O>> & { itemIndex: number }>,
	) => Promise<Array<IDataObject[] | IDataObject>>;
}

/** The options of a declaration without `options`. */
const NO_OPTIONS: WriteOptions = {};

/** The table of a declaration without `columns`. */
const NO_TABLE: TableInfo = { columns: [], byId: new Map(), types: {} };

/**
 * `cache.info(target)` without a promise per item: the last table's info is answered directly
 * (a value) while items bring the same target object (`readTarget` gives one object per table),
 * otherwise the cache's promise. A new object for the same table only costs a promise.
 */
class TableInfos {
	private lastTarget: Target | undefined;
	private lastInfo: TableInfo | undefined;

	constructor(private readonly cache: ColumnCache) {}

	info(target: Target, itemIndex: number): TableInfo | Promise<TableInfo> {
		if (target === this.lastTarget && this.lastInfo) return this.lastInfo;
		return this.cache.info(target, itemIndex).then((info) => {
			this.lastTarget = target;
			this.lastInfo = info;
			return info;
		});
	}
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

interface GroupEntry<O extends WriteOptions> {
	base: string;
	key0: string;
	group: WriteGroup<O>;
	/** Items so far per round key. */
	rounds: Map<unknown, number>;
}

/**
 * Gives each item its batch unit (key, group, records): items of one target (by value: document
 * and table) with equal options, Batch Size, Allow Dangling References and field set (as a set)
 * share a group; with a round key, an item repeating one of the group's keys gets the group's
 * next round (a later request). The key is built when an item differs from the one before
 * (the options compared by identity first, then field by field; the target and table by
 * identity first): a 10,000-item run of one table builds it once. The result does not depend on
 * identities, only the speed does.
 */
export class WriteGrouper<R, O extends WriteOptions> {
	private readonly entries = new Map<string, GroupEntry<O>>();
	// The last item's group and what it was found from.
	private entry: GroupEntry<O> | undefined;
	private lastTarget: Target | undefined;
	private lastTable: TableInfo | undefined;
	private lastOptions: WriteOptions = {};
	private lastDefined = 0;
	private lastBatchSize: number | undefined;
	private lastDangling: boolean | undefined;
	private lastFieldSet: string[] | undefined;

	unit(
		target: Target,
		table: TableInfo,
		item: ItemWrite<R>,
		options: O,
		batchSize?: number,
		allowDangling?: boolean,
	): PreparedUnit<R, WriteGroup<O>> {
		const fieldSet = item.fieldSet;
		let entry = this.entry;
		if (
			entry === undefined ||
			this.lastTarget !== target ||
			this.lastTable !== table ||
			this.lastBatchSize !== batchSize ||
			this.lastDangling !== allowDangling ||
			(options !== this.lastOptions && !sameOptions(this.lastOptions, this.lastDefined, options)) ||
			!sameList(this.lastFieldSet, fieldSet)
		) {
			const fields = fieldSet ? [...fieldSet].sort().join('\u0000') : '';
			const base = `${targetKey(target)}|${batchSize ?? ''}|${allowDangling ? 1 : 0}|${JSON.stringify(options)}|${fields}`;
			entry = this.entries.get(base);
			if (!entry) {
				entry = {
					base,
					key0: `${base}|0`,
					group: {
						target,
						options,
						qs: queryOf(options),
						types: table.types,
						batchSize,
						allowDangling,
					},
					rounds: new Map(),
				};
				this.entries.set(base, entry);
			}
			this.entry = entry;
			this.lastTarget = target;
			this.lastTable = table;
			this.lastOptions = options;
			this.lastDefined = definedCount(options);
			this.lastBatchSize = batchSize;
			this.lastDangling = allowDangling;
			this.lastFieldSet = fieldSet;
		}
		let key = entry.key0;
		if (item.roundKey !== undefined) {
			const round = entry.rounds.get(item.roundKey) ?? 0;
			entry.rounds.set(item.roundKey, round + 1);
			if (round > 0) key = `${entry.base}|${round}`;
		}
		// Of the shape of a prepared unit, completed in place by executeBatched (`freshUnits`).
		return { key, group: entry.group, records: item.records, itemIndex: 0, bytes: 0, exact: false };
	}
}

/**
 * Runs a declared write over all input items: reads each item's target, the table's columns
 * (once per table and execution; a value, or a promise the first time), the item (`readFirst`,
 * `read`), Batch Size and Allow Dangling References where declared; groups and sends the items
 * with `executeBatched` (reference check, sizing, chunking, rounds, failure reporting).
 */
export async function executeWrite<R, O extends WriteOptions, F = undefined>(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	declaration: WriteDeclaration<R, O, F>,
): Promise<INodeExecutionData[]> {
	return await executeBatched(ctx, items, new DeclaredWrite(ctx, client, declaration));
}

/**
 * The `BatchOptions` of a declared write. Parameters without an expression (target, options,
 * Batch Size, Allow Dangling References) are read for the first item only: the same for all.
 * A class, so that `prepare` keeps its optimised code from one execution to the next.
 */
class DeclaredWrite<R, O extends WriteOptions, F> implements BatchOptions<R, WriteGroup<O>> {
	readonly envelopeBytes: number;
	readonly verb: string | undefined;
	readonly freshUnits = true;
	readonly verify: BatchOptions<R, WriteGroup<O>>['verify'];
	private readonly infos: TableInfos | undefined;
	private readonly grouper = new WriteGrouper<R, O>();
	private readonly target: SameForAllItems<Target>;
	private readonly options: SameForAllItems<O> | undefined;
	private readonly batchSize: SameForAllItems<number> | undefined;
	private readonly dangling: SameForAllItems<boolean> | undefined;

	constructor(
		ctx: IExecuteFunctions,
		client: GristClient,
		private readonly d: WriteDeclaration<R, O, F>,
	) {
		this.envelopeBytes = d.envelopeBytes;
		this.verb = d.verb;
		this.verify = d.references
			? (referenceCheck(ctx, client) as BatchOptions<R, WriteGroup<O>>['verify'])
			: undefined;
		this.infos = d.columns ? new TableInfos(new ColumnCache(client)) : undefined;
		this.target = new SameForAllItems(ctx, (itemIndex) => readTarget.call(ctx, itemIndex));
		this.options = d.options ? new SameForAllItems(ctx, d.options) : undefined;
		this.batchSize = d.batchSize
			? new SameForAllItems(ctx, (itemIndex) => readBatchSize.call(ctx, itemIndex))
			: undefined;
		this.dangling = d.references
			? new SameForAllItems(ctx, (itemIndex) => readAllowDangling.call(ctx, itemIndex))
			: undefined;
	}

	maxItemsOf(group: WriteGroup<O>): number | undefined {
		return group.batchSize;
	}

	prepare(
		itemIndex: number,
	): PreparedUnit<R, WriteGroup<O>> | Promise<PreparedUnit<R, WriteGroup<O>>> {
		const target = this.target.of(itemIndex);
		const first = this.d.readFirst ? this.d.readFirst(itemIndex, target) : (undefined as F);
		const table = this.infos ? this.infos.info(target, itemIndex) : NO_TABLE;
		return table instanceof Promise
			? table.then((t) => this.unit(itemIndex, target, t, first))
			: this.unit(itemIndex, target, table, first);
	}

	private unit(
		itemIndex: number,
		target: Target,
		table: TableInfo,
		first: F,
	): PreparedUnit<R, WriteGroup<O>> {
		const item = this.d.read(itemIndex, target, table, first);
		return this.grouper.unit(
			target,
			table,
			item,
			this.options ? this.options.of(itemIndex) : (NO_OPTIONS as O),
			this.batchSize?.of(itemIndex),
			this.dangling?.of(itemIndex),
		);
	}

	async send(
		group: WriteGroup<O>,
		units: Array<BatchUnit<R, WriteGroup<O>> & { itemIndex: number }>,
		records: R[],
	): Promise<ChunkResult> {
		return { outputs: await this.d.send(group, records, units) };
	}
}
