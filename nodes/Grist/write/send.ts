/**
 * The last stage of a record write (collect.ts reads the items into batches): the names given
 * for references looked up (referenceNames.ts, the items holding them put in their batches), the
 * reference check over all items (referenceCheck.ts, one read per referenced table), the refusals of bad
 * input (report.ts), the plan (plan.ts: chunks of ≤ Batch Size records and < 1 MB), and one
 * request per chunk through the operation's `send`, in first-seen order of the batches. What
 * each item gets, written or not, is report.ts's.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { missingRowIds } from '../api/rowLookup';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ITEMS } from './chunking';
import type { RecordWrite } from './collect';
import {
	planChunks,
	requestRecords,
	type Batches,
	type PlannedRequest,
	type WriteGroup,
	type WriteUnit,
} from './plan';
import { checkReferences, type ReferenceRefusal, type ReferencingRecord } from './referenceCheck';
import { placePending } from './referenceNames';
import {
	addOutputs,
	batchError,
	failRequest,
	refuseChecked,
	reportedItems,
	throwRefusals,
	type WriteReport,
} from './report';

/**
 * Sends one request: the records of `units` (in their order) to the group's table; answers the
 * output of each unit, in order (a list of output JSON, or one object).
 */
export type SendRequest<R, G = WriteGroup> = (
	group: G,
	records: R[],
	units: Array<WriteUnit<R, G>>,
) => Promise<Array<IDataObject[] | IDataObject>>;

/**
 * Checks, plans and sends a write whose items are all read (collect.ts); answers the output
 * items in input order.
 */
export async function finishWrite<R>(
	write: RecordWrite<R>,
	send: SendRequest<R>,
): Promise<INodeExecutionData[]> {
	if (write.pending.length > 0) await placePending(write);
	const { report, batches } = write;
	if (write.spec.references && batches.size > 0) {
		const units = allUnits(batches) as Array<WriteUnit<ReferencingRecord>>;
		const sqlRefused = new Set<string>();
		const verdict = await checkReferences(units, async (docId, table, ids, itemIndex) => {
			// rows found by the name lookup exist: only the others are read
			const found = write.foundRows.get(`${docId}\u0000${table}`);
			const unknown = found ? ids.filter((id) => !found.has(id)) : ids;
			if (unknown.length === 0) return new Set<number>();
			return missingRowIds(write.client, docId, table, unknown, itemIndex, sqlRefused);
		});
		if (verdict.size > 0) {
			const errors = referenceErrors(write.ctx, verdict);
			refuseChecked(report, errors);
			dropItems(batches, errors);
		}
	}
	throwRefusals(report);
	const requests = planChunks(batches, {
		maxItems: DEFAULT_MAX_ITEMS,
		maxBytes: DEFAULT_MAX_BYTES,
		envelopeBytes: write.spec.envelopeBytes,
		maxItemsOf: (group) => group.batchSize,
	});
	await sendRequests(report, requests, send);
	return reportedItems(report);
}

/**
 * The errors of the items the reference check refuses. A failed read of a referenced table
 * (one error for all its items) says that no item referencing the table was written.
 */
function referenceErrors(
	ctx: IExecuteFunctions,
	verdict: Map<number, ReferenceRefusal>,
): Map<number, Error> {
	const errors = new Map<number, Error>();
	const noted = new Set<Error>();
	for (const [itemIndex, refusal] of verdict) {
		if ('failed' in refusal) {
			const error = refusal.failed;
			if (error instanceof NodeApiError && !noted.has(error)) {
				const note = `Checking that the referenced rows of table "${refusal.table}" exist failed, so no item referencing it was written.`;
				error.description = error.description ? `${note} ${error.description}` : note;
			}
			noted.add(error);
			errors.set(itemIndex, error);
			continue;
		}
		const { message, description } = refusal.dangling;
		errors.set(
			itemIndex,
			new NodeOperationError(ctx.getNode(), message, { itemIndex, description }),
		);
	}
	return errors;
}

/** Every unit, batch by batch. */
export function allUnits<R, G>(batches: Batches<R, G>): Array<WriteUnit<R, G>> {
	const all: Array<WriteUnit<R, G>> = [];
	for (const batch of batches.values()) for (const u of batch.units) all.push(u);
	return all;
}

/** Takes the units of refused items out of their batches (a batch left empty goes). */
export function dropItems<R, G>(batches: Batches<R, G>, refused: Map<number, unknown>): void {
	for (const [key, batch] of batches) {
		batch.units = batch.units.filter((u) => !refused.has(u.itemIndex));
		if (batch.units.length === 0) batches.delete(key);
	}
}

/**
 * One request per planned chunk, in order. A failing request: with Continue On Fail its items
 * get error items and the other requests go on; without it, the error says what was written
 * before, what failed and what was not sent.
 */
export async function sendRequests<R, G>(
	report: WriteReport,
	requests: Array<PlannedRequest<R, G>>,
	send: SendRequest<R, G>,
): Promise<void> {
	let written = 0;
	for (let c = 0; c < requests.length; c++) {
		const { group, units } = requests[c];
		try {
			addOutputs(report, units, await send(group, requestRecords(units), units));
			written += new Set(units.map((u) => u.itemIndex)).size;
		} catch (error) {
			if (report.continueOnFail) {
				failRequest(report, error, units, `request ${c + 1} of ${requests.length}`);
				continue;
			}
			const failed = [...new Set(units.map((u) => u.itemIndex))];
			const later = new Set<number>();
			for (const rest of requests.slice(c + 1))
				for (const u of rest.units) if (!failed.includes(u.itemIndex)) later.add(u.itemIndex);
			throw batchError(report, error, {
				failed,
				written,
				later: [...later],
				verb: report.verb,
				units,
			});
		}
	}
}
