/**
 * Batch executor for write operations: every input item is prepared (parameters read, values
 * encoded, bad input rejected before any request), grouped by target (document, table, query
 * options, field set…), chunked with `chunkRecords` of helpers/batch.ts (≤ Options → Batch Size
 * records, default 500, and <1 MB of JSON), and sent with
 * one request per chunk. Results are mapped back to input items in input order, paired.
 *
 * Bad input (issue #22, 4): without Continue On Fail every item is still prepared, so that the
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
	describeIndices,
	itemsWithColumn,
	jsonBytes,
	jsonUpperBound,
	largestField,
	refusalSummary,
	refusedRequestNote,
	splitByRecordCount,
	type BatchFailure,
} from '../helpers/batch';
import { isUncertainWrite } from '../helpers/retry';
import { itemParameterValue } from '../parameters/read';
import { readTarget } from '../parameters/locators';
import { parseRowIds } from '../parameters/writeOptions';
import type { GristClient } from '../transport';
import { deleteRows, targetKey, type Target } from '../transport/api';
import { errorItem, withItemIndex } from './items';

/** One input item's contribution to a batched request. */
export interface BatchUnit<R, G> {
	/** Items with the same key go into the same requests. */
	key: string;
	/** What the requests of this key need (document, table, query string…); taken from the first unit. */
	group: G;
	/** The records this item adds to the request body (usually one). */
	records: R[];
	/** Anything the item needs for its output. */
	meta?: IDataObject;
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
}

/** What every request of a batched write to one table needs: target, query flags, column types. */
export interface WriteGroup {
	target: Target;
	qs: IDataObject;
	types: Record<string, string>;
	/** Records per request (Options → Batch Size). */
	batchSize?: number;
	/** Options → Allow Dangling References: referenced row IDs are not checked (actions/references.ts). */
	allowDangling?: boolean;
}

interface PreparedUnit<R, G> extends BatchUnit<R, G> {
	itemIndex: number;
	/** JSON bytes of the unit's records (with commas), or an upper bound while `exact` is false. */
	bytes: number;
	exact: boolean;
}

/** JSON bytes of records written one after the other with commas. */
function recordsBytes(records: unknown[], size: (r: unknown) => number): number {
	let bytes = records.length > 1 ? records.length - 1 : 0;
	for (let k = 0; k < records.length; k++) bytes += size(records[k]);
	return bytes;
}

/** A unit's exact JSON bytes (measured once). */
function exactBytes(unit: PreparedUnit<unknown, unknown>): number {
	if (!unit.exact) {
		unit.bytes = recordsBytes(unit.records, jsonBytes);
		unit.exact = true;
	}
	return unit.bytes;
}

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

	// 1. Prepare every item; bad input fails before any request. A unit's size is a cheap upper
	// bound (jsonUpperBound) until a chunk comes near the byte limit; then it is measured.
	type Group = { group: G; units: Array<PreparedUnit<R, G>> };
	const groups = new Map<string, Group>();
	let lastKey: string | undefined;
	let lastGroup: Group | undefined;
	/** The unit with its item and size; an item too large for one request is refused. */
	const sized = (unit: BatchUnit<R, G>, itemIndex: number): PreparedUnit<R, G> => {
		let bytes = recordsBytes(unit.records, jsonUpperBound);
		let exact = false;
		if (bytes > budget) {
			bytes = recordsBytes(unit.records, jsonBytes);
			exact = true;
		}
		if (bytes > budget) {
			const largest = largestField(unit.records);
			const which = largest
				? ` (its largest field, "${largest.name}", is ${largest.bytes} bytes)`
				: '';
			throw new NodeOperationError(
				ctx.getNode(),
				`Item ${itemIndex} is ${bytes} bytes of JSON${which}, more than Grist accepts in one request (${budget} bytes)`,
				{
					itemIndex,
					description:
						'Grist limits a request body to 1 MB. Make the values of this item smaller (e.g. upload large content as an attachment).',
				},
			);
		}
		return {
			key: unit.key,
			group: unit.group,
			records: unit.records,
			meta: unit.meta,
			itemIndex,
			bytes,
			exact,
		};
	};
	/** Adds a unit to its group (consecutive items of one group usually bring the same key string). */
	const place = (unit: PreparedUnit<R, G>): void => {
		let g = unit.key === lastKey ? lastGroup : groups.get(unit.key);
		if (!g) {
			g = { group: unit.group, units: [] };
			groups.set(unit.key, g);
		}
		lastKey = unit.key;
		lastGroup = g;
		g.units.push(unit);
	};
	// Without Continue On Fail: the items refused so far (bad input), in input order, to be named
	// together once every item is prepared.
	const refused: Array<{ itemIndex: number; error: Error }> = [];
	const refuse = (itemIndex: number, error: Error): void => {
		if (continueOnFail) outputs[itemIndex] = errorItem(error, itemIndex);
		else refused.push({ itemIndex, error });
	};
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		// One object of one shape per unit (not the prepared one with fields added); no list for
		// the usual single unit.
		let single: PreparedUnit<R, G> | undefined;
		let several: Array<PreparedUnit<R, G>> | undefined;
		try {
			let result = options.prepare(itemIndex);
			if (result instanceof Promise) result = await result;
			if (Array.isArray(result)) several = result.map((unit) => sized(unit, itemIndex));
			else single = sized(result, itemIndex);
		} catch (error) {
			// A request that failed while preparing (reading the table's columns…) stops the run:
			// it would fail again for every item.
			if (!continueOnFail && error instanceof NodeApiError)
				throw withItemIndex.call(ctx, error, itemIndex);
			refuse(itemIndex, error as Error);
			continue;
		}
		if (single) place(single);
		else for (const unit of several ?? []) place(unit);
	}

	// 1b. Checks over all prepared items (one read per referenced table…), then the refusals.
	if (options.verify && groups.size > 0) {
		const all: Array<PreparedUnit<R, G>> = [];
		for (const g of groups.values()) for (const u of g.units) all.push(u);
		const verdict = await options.verify(all);
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
		});
		for (const chunk of splitByRecordCount(
			chunks.map((c) => c.items),
			groupMax,
		)) {
			plan.push({ group, chunk });
		}
	}
	let writtenItems = 0;
	const failedItems = new Set<number>();
	for (let c = 0; c < plan.length; c++) {
		const { group, chunk } = plan[c];
		const records: R[] = [];
		for (const u of chunk) for (const r of u.records) records.push(r);
		try {
			const result = await options.send(group, chunk, records);
			for (let k = 0; k < chunk.length; k++) {
				const itemIndex = chunk[k].itemIndex;
				const out = result.outputs[k];
				if (out === undefined) continue;
				if (!Array.isArray(out)) {
					addOutput(outputs, itemIndex, { json: out, pairedItem: { item: itemIndex } });
					continue;
				}
				for (const json of out)
					addOutput(outputs, itemIndex, { json, pairedItem: { item: itemIndex } });
			}
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
	item.json.description =
		`Uncertain: item ${itemIndex} was sent in one request with item${indices.length === 1 ? '' : 's'} ${describeIndices(indices)}, ` +
		`and its answer was lost, so they may or may not have been ${verb}. Check in Grist whether they are there before sending them again.`;
	return item;
}

/**
 * The error item (Continue On Fail) of an item whose request Grist refused as a whole (it
 * applies a request entirely or not at all): the item Grist's message names keeps Grist's
 * error; the others say they were not written because of it; when Grist's message names no
 * item, each says that the request as a whole was refused (issue #30).
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

/**
 * Deletes the rows named in the Row IDs field of every item (record and columnar Delete): row
 * IDs of all items of one table share requests. `route` 'records' is `POST …/records/delete`
 * with a fallback to `/data/delete` on servers without it; 'data' is `POST …/data/delete`.
 */
export async function executeRowDeletes(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	route: 'records' | 'data',
): Promise<INodeExecutionData[]> {
	const legacy = new Set<string>();
	const options: BatchOptions<number, Target> = {
		envelopeBytes: 2,
		verb: 'deleted',
		prepare: async (itemIndex) => {
			const target = readTarget.call(ctx, itemIndex);
			const ids = parseRowIds.call(
				ctx,
				itemParameterValue.call(ctx, 'rowIds', itemIndex, '' as unknown),
				itemIndex,
				'Row IDs',
			);
			return { key: targetKey(target), group: target, records: ids };
		},
		send: async (target, units, records) => {
			await deleteRows(client, target, [...new Set(records)], units[0].itemIndex, route, legacy);
			return { outputs: units.map((u) => [{ deleted: true, ids: u.records }]) };
		},
	};
	return await executeBatched(ctx, items, options);
}
