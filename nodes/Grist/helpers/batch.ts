/**
 * Batch executor for write operations: every input item is prepared (parameters read, values
 * encoded, bad input rejected before any request), grouped by target (document, table, query
 * options, field set…), chunked with `chunkRecords` (≤500 records, <1 MB of JSON), and sent with
 * one request per chunk. Results are mapped back to input items in input order, paired.
 *
 * On a failing chunk: with Continue On Fail its items get error items and the other chunks go
 * on; without it, the error says how many items had been written before it and which failed.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ITEMS, chunkRecords, jsonBytes } from './batching';
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
	/** Output JSON per unit of the chunk, in the order of `units`. */
	outputs: IDataObject[][];
}

export interface BatchOptions<R, G> {
	/** Reads one item's parameters; throw for bad input (NodeOperationError naming the field). */
	prepare: (itemIndex: number) => Promise<BatchUnit<R, G> | Array<BatchUnit<R, G>>>;
	/** Sends one chunk; returns outputs for every unit of the chunk. */
	send: (group: G, units: Array<BatchUnit<R, G> & { itemIndex: number }>, records: R[]) => Promise<ChunkResult>;
	/** Bytes of the JSON envelope around the records, e.g. `{"records":[` + `]}`. */
	envelopeBytes?: number;
	maxItems?: number;
	maxBytes?: number;
	/** "written", "deleted"… for the message of a failed batch. */
	verb?: string;
}

interface PreparedUnit<R, G> extends BatchUnit<R, G> {
	itemIndex: number;
	bytes: number;
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
	const outputs: INodeExecutionData[][] = items.map(() => []);
	const continueOnFail = ctx.continueOnFail();

	// 1. Prepare every item; bad input fails before any request.
	const groups = new Map<string, { group: G; units: Array<PreparedUnit<R, G>> }>();
	for (let i = 0; i < items.length; i++) {
		let prepared: Array<BatchUnit<R, G>>;
		try {
			const result = await options.prepare(i);
			prepared = Array.isArray(result) ? result : [result];
			for (const unit of prepared) {
				const bytes = unit.records.reduce((sum, r) => sum + jsonBytes(r), 0) + Math.max(0, unit.records.length - 1);
				if (bytes > budget) {
					const largest = largestField(unit.records);
					const which = largest ? ` (its largest field, "${largest.name}", is ${largest.bytes} bytes)` : '';
					throw new NodeOperationError(
						ctx.getNode(),
						`Item ${i} is ${bytes} bytes of JSON${which}, more than Grist accepts in one request (${budget} bytes)`,
						{ itemIndex: i, description: 'Grist limits a request body to 1 MB. Make the values of this item smaller (e.g. upload large content as an attachment).' },
					);
				}
				(unit as PreparedUnit<R, G>).bytes = bytes;
				(unit as PreparedUnit<R, G>).itemIndex = i;
			}
		} catch (error) {
			if (continueOnFail) {
				outputs[i] = [errorItem(error as Error, i)];
				continue;
			}
			throw withItemIndex.call(ctx, error, i);
		}
		for (const unit of prepared as Array<PreparedUnit<R, G>>) {
			let g = groups.get(unit.key);
			if (!g) {
				g = { group: unit.group, units: [] };
				groups.set(unit.key, g);
			}
			g.units.push(unit);
		}
	}

	// 2. One request per chunk, in first-seen order of groups.
	let writtenItems = 0;
	const failedItems = new Set<number>();
	for (const { group, units } of groups.values()) {
		const chunks = chunkRecords(units, {
			maxItems,
			maxBytes,
			envelopeBytes: envelope,
			sizeOf: (u) => u.bytes,
		});
		for (const chunk of splitByRecordCount(chunk0(chunks), maxItems)) {
			const records: R[] = [];
			for (const u of chunk) for (const r of u.records) records.push(r);
			try {
				const result = await options.send(group, chunk, records);
				chunk.forEach((u, k) => {
					for (const json of result.outputs[k] ?? []) outputs[u.itemIndex].push({ json, pairedItem: { item: u.itemIndex } });
				});
				writtenItems += new Set(chunk.map((u) => u.itemIndex)).size;
			} catch (error) {
				const indices = [...new Set(chunk.map((u) => u.itemIndex))];
				if (continueOnFail) {
					for (const i of indices) {
						failedItems.add(i);
						outputs[i] = [errorItem(error as Error, i)];
					}
					continue;
				}
				throw batchError.call(ctx, error, indices, writtenItems, verb, chunk);
			}
		}
	}
	// An item split over several units (e.g. several upsert rounds) keeps only its error if any failed.
	for (const i of failedItems) outputs[i] = outputs[i].filter((o) => o.json.error !== undefined).slice(0, 1);
	return outputs.flat();
}

/** The field with the most bytes of JSON among records' `fields`/`require` (or top-level keys): for the error of an oversized item. */
export function largestField(records: unknown[]): { name: string; bytes: number } | undefined {
	let best: { name: string; bytes: number } | undefined;
	const visit = (o: unknown) => {
		if (!o || typeof o !== 'object' || Array.isArray(o)) return;
		for (const [name, value] of Object.entries(o as IDataObject)) {
			const bytes = jsonBytes(value ?? null);
			if (!best || bytes > best.bytes) best = { name, bytes };
		}
	};
	for (const r of records) {
		const rec = r as { fields?: unknown; require?: unknown };
		if (rec && typeof rec === 'object' && ('fields' in rec || 'require' in rec)) {
			visit(rec.fields);
			visit(rec.require);
		} else visit(r);
	}
	return best;
}

function chunk0<U>(chunks: Array<{ items: U[] }>): U[][] {
	return chunks.map((c) => c.items);
}

/** Units may hold several records: keep every request at most `maxItems` records. */
function splitByRecordCount<R, G>(chunks: Array<Array<PreparedUnit<R, G>>>, maxItems: number): Array<Array<PreparedUnit<R, G>>> {
	const out: Array<Array<PreparedUnit<R, G>>> = [];
	for (const chunk of chunks) {
		let current: Array<PreparedUnit<R, G>> = [];
		let count = 0;
		for (const u of chunk) {
			if (current.length > 0 && count + u.records.length > maxItems) {
				out.push(current);
				current = [];
				count = 0;
			}
			current.push(u);
			count += u.records.length;
		}
		if (current.length > 0) out.push(current);
	}
	return out;
}

/** `[0,1,2,5,7,8]` → `0–2, 5, 7–8`. */
export function describeIndices(indices: number[]): string {
	const sorted = [...indices].sort((a, b) => a - b);
	const parts: string[] = [];
	let start = sorted[0];
	let prev = sorted[0];
	for (let k = 1; k <= sorted.length; k++) {
		const n = sorted[k];
		if (n === prev + 1) {
			prev = n;
			continue;
		}
		parts.push(start === prev ? String(start) : `${start}–${prev}`);
		start = n;
		prev = n;
	}
	return parts.join(', ');
}

/** Items of a failed request whose records name `column` (top level, `fields` or `require`). */
export function itemsWithColumn(units: Array<{ itemIndex: number; records: unknown[] }>, column: string): number[] {
	const has = (o: unknown) => !!o && typeof o === 'object' && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, column);
	const found = new Set<number>();
	for (const u of units) {
		for (const r of u.records) {
			const rec = r as { fields?: unknown; require?: unknown };
			if (has(r) || has(rec?.fields) || has(rec?.require)) found.add(u.itemIndex);
		}
	}
	return [...found];
}

function batchError(
	this: IExecuteFunctions,
	error: unknown,
	indices: number[],
	written: number,
	verb: string,
	units: Array<{ itemIndex: number; records: unknown[] }>,
): Error {
	const message = error instanceof Error ? error.message : '';
	const column = /Invalid column "([^"]+)"/.exec(message)?.[1];
	const withColumn = column === undefined ? [] : itemsWithColumn(units, column);
	const where = withColumn.length
		? `The column "${column}" is in item${withColumn.length === 1 ? '' : 's'} ${describeIndices(withColumn)}. `
		: '';
	const note =
		where +
		`${written} item${written === 1 ? '' : 's'} had been ${verb} before this request failed. ` +
		`The failed request held item${indices.length === 1 ? '' : 's'} ${describeIndices(indices)} (none of them was ${verb}: Grist applies a request entirely or not at all); later items were not sent.`;
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = error.description ? `${error.description} ${note}` : note;
		if (error.context) error.context.itemIndex = withColumn[0] ?? indices[0];
		return error;
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex: withColumn[0] ?? indices[0], description: note });
}
