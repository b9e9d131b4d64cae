/**
 * What a record write answers per input item, in input order and paired: the output items of the
 * written ones, and what happened to the others. Bad input (an item refused before any request):
 * with Continue On Fail an error item; without it one error after every item is read, naming
 * every refused item ("items 600–610") and saying that no item was written. A failed request:
 * with Continue On Fail its items get error items (the item Grist's message names was refused,
 * the others were not written because of it, or Grist did not say which item caused it; when
 * the answer was lost, uncertain, never "not written"); without it, the error says how many
 * items had been written before it, which failed and which were not sent.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem, withItemIndex } from '../actions/items';
import { isUncertainWrite } from '../api/retry';
import { isApiLimitError } from '../api/requestErrors';
import {
	apiLimitItemNote,
	batchFailureNote,
	blamedItems,
	itemsWithColumn,
	refusalSummary,
	refusedRequestNote,
	uncertainItemNote,
	type BatchFailure,
} from './outcomeTexts';

/** Output items per input item: one item, a list, or none yet (fewer arrays for 10,000 items). */
type OutputSlot = INodeExecutionData | INodeExecutionData[] | undefined;

/** The outcome of a write so far, per input item. */
export interface WriteReport {
	ctx: IExecuteFunctions;
	continueOnFail: boolean;
	/** "written", "deleted"… for the messages of refused and failed items. */
	verb: string;
	outputs: OutputSlot[];
	/** Without Continue On Fail: the items refused so far (bad input), named together later. */
	refused: Array<{ itemIndex: number; error: Error }>;
	/** Items of failed requests (Continue On Fail). */
	failed: Set<number>;
}

export function newReport(ctx: IExecuteFunctions, itemCount: number, verb: string): WriteReport {
	const outputs = new Array<OutputSlot>(itemCount);
	const continueOnFail = ctx.continueOnFail();
	return { ctx, continueOnFail, verb, outputs, refused: [], failed: new Set() };
}

/**
 * An item that could not be read: refused, except that a request that failed while reading it
 * (the table's columns…) stops the run without Continue On Fail: it would fail for every item.
 */
export function refuseItem(report: WriteReport, itemIndex: number, error: unknown): void {
	if (!report.continueOnFail && error instanceof NodeApiError)
		throw withItemIndex.call(report.ctx, error, itemIndex);
	refuse(report, itemIndex, error as Error);
}

function refuse(report: WriteReport, itemIndex: number, error: Error): void {
	if (report.continueOnFail) report.outputs[itemIndex] = errorItem(error, itemIndex);
	else report.refused.push({ itemIndex, error });
}

/**
 * Items refused by a check over all items (the reference check), in item order; a failed read
 * stops the run without Continue On Fail.
 */
export function refuseChecked(report: WriteReport, verdict: Map<number, Error>): void {
	for (const [itemIndex, error] of verdict) {
		if (!report.continueOnFail && error instanceof NodeApiError)
			throw withItemIndex.call(report.ctx, error, itemIndex);
	}
	const sorted = [...verdict.keys()].sort((a, b) => a - b);
	for (const itemIndex of sorted) refuse(report, itemIndex, verdict.get(itemIndex)!);
}

/**
 * Without Continue On Fail, once every item is read and checked: the one error that names every
 * refused item (a single input item: its own error, as it is).
 */
export function throwRefusals(report: WriteReport): void {
	const refused = report.refused;
	if (refused.length === 0) return;
	refused.sort((a, b) => a.itemIndex - b.itemIndex);
	const first = refused[0];
	const total = report.outputs.length;
	if (total === 1) throw withItemIndex.call(report.ctx, first.error, first.itemIndex);
	const summary = refusalSummary(
		refused.map(({ itemIndex, error }) => ({
			itemIndex,
			message: error.message,
			description: (error as { description?: string }).description ?? undefined,
		})),
		total,
		report.verb,
	);
	const error = withItemIndex.call(report.ctx, first.error, summary.itemIndex);
	error.message = summary.message;
	(error as { description?: string }).description = summary.description;
	throw error;
}

/** The output items of a sent request, paired with their input items. */
export function addOutputs(
	report: WriteReport,
	units: Array<{ itemIndex: number }>,
	results: Array<IDataObject[] | IDataObject>,
): void {
	for (let k = 0; k < units.length; k++) {
		const itemIndex = units[k].itemIndex;
		const out = results[k];
		if (out === undefined) continue;
		if (!Array.isArray(out)) {
			addOutput(report.outputs, itemIndex, { json: out, pairedItem: { item: itemIndex } });
			continue;
		}
		for (const json of out)
			addOutput(report.outputs, itemIndex, { json, pairedItem: { item: itemIndex } });
	}
}

function addOutput(outputs: OutputSlot[], itemIndex: number, item: INodeExecutionData): void {
	const slot = outputs[itemIndex];
	if (slot === undefined) outputs[itemIndex] = item;
	else if (Array.isArray(slot)) slot.push(item);
	else outputs[itemIndex] = [slot, item];
}

/**
 * With Continue On Fail, the error items of the items of a failed request (`request`: "request
 * 2 of 3"): uncertain when its answer was lost, else refused as a whole.
 */
export function failRequest(
	report: WriteReport,
	error: unknown,
	units: Array<{ itemIndex: number; records: unknown[] }>,
	request: string,
): void {
	const indices = [...new Set(units.map((u) => u.itemIndex))];
	if (isApiLimitError(error)) {
		for (const itemIndex of indices) {
			report.failed.add(itemIndex);
			const item = errorItem(error as Error, itemIndex);
			const hint = (error as { description?: string }).description ?? '';
			item.json.description = `${apiLimitItemNote(indices, report.verb, request, notSent(error))} ${hint}`;
			report.outputs[itemIndex] = item;
		}
		return;
	}
	const uncertain = isUncertainWrite(error);
	const blame = uncertain
		? undefined
		: blamedItems(error instanceof Error ? error.message : '', units);
	for (const itemIndex of indices) {
		report.failed.add(itemIndex);
		report.outputs[itemIndex] = uncertain
			? uncertainItem(error as Error, itemIndex, indices, report.verb)
			: refusedItem(error as Error, itemIndex, indices, blame!, report.verb, request);
	}
}

/** Whether an error is of a request the client did not send (a document already at its API limit). */
function notSent(error: unknown): boolean {
	return (error as { context?: Record<string, unknown> }).context?.notSent === true;
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
	request: string,
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
		request,
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

/**
 * Without Continue On Fail, the error of a failed request: Grist's error with what it means for
 * the batch (items written before it, the failed ones, those not sent).
 */
export function batchError(report: WriteReport, error: unknown, f: BatchFailure): Error {
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
	return new NodeOperationError(report.ctx.getNode(), error as Error, {
		itemIndex,
		description: note,
	});
}

/**
 * The output items in input order. An item split over several units (e.g. several upsert
 * rounds) keeps only its error if any of its requests failed.
 */
export function reportedItems(report: WriteReport): INodeExecutionData[] {
	const outputs = report.outputs;
	for (const itemIndex of report.failed) {
		const slot = outputs[itemIndex];
		const items = slot === undefined ? [] : Array.isArray(slot) ? slot : [slot];
		outputs[itemIndex] = items.filter((o) => o.json.error !== undefined).slice(0, 1);
	}
	const all: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < outputs.length; itemIndex++) {
		const slot = outputs[itemIndex];
		if (slot === undefined) continue;
		if (Array.isArray(slot)) for (const item of slot) all.push(item);
		else all.push(slot);
	}
	return all;
}
