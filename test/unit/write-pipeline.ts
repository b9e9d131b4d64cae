/**
 * The record write pipeline (nodes/Grist/write/) run over test items as the operations run it:
 * each item prepared (`prepare`: its batch key, group and records) and sized, the optional check
 * over all items (`verify`), the refusals, the plan and one `send` per request.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ITEMS } from '../../nodes/Grist/write/chunking';
import { sizedUnit } from '../../nodes/Grist/write/collect';
import { planChunks, placeUnit, type Batches, type WriteUnit } from '../../nodes/Grist/write/plan';
import {
	newReport,
	refuseChecked,
	refuseItem,
	reportedItems,
	throwRefusals,
} from '../../nodes/Grist/write/report';
import { allUnits, dropItems, sendRequests } from '../../nodes/Grist/write/send';

export interface PipelineOptions<R, G> {
	prepare: (itemIndex: number) => Promise<{ key: string; group: G; records: R[] }>;
	send: (
		group: G,
		units: Array<WriteUnit<R, G>>,
		records: R[],
	) => Promise<{ outputs: Array<IDataObject[] | IDataObject> }>;
	envelopeBytes?: number;
	maxItems?: number;
	verify?: (units: Array<WriteUnit<R, G>>) => Promise<Map<number, Error>>;
}

export async function runWritePipeline<R, G>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	options: PipelineOptions<R, G>,
): Promise<INodeExecutionData[]> {
	const report = newReport(ctx, items.length, 'written');
	const envelopeBytes = options.envelopeBytes ?? 0;
	const batches: Batches<R, G> = new Map();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const { key, group, records } = await options.prepare(itemIndex);
			const budget = DEFAULT_MAX_BYTES - envelopeBytes;
			placeUnit(batches, key, group, sizedUnit(ctx, itemIndex, group, records, budget));
		} catch (error) {
			refuseItem(report, itemIndex, error);
		}
	}
	if (options.verify && batches.size > 0) {
		const verdict = await options.verify(allUnits(batches));
		refuseChecked(report, verdict);
		dropItems(batches, verdict);
	}
	throwRefusals(report);
	const requests = planChunks(batches, {
		maxItems: options.maxItems ?? DEFAULT_MAX_ITEMS,
		maxBytes: DEFAULT_MAX_BYTES,
		envelopeBytes,
	});
	await sendRequests(report, requests, async (group, records, units) => {
		return (await options.send(group, units, records)).outputs;
	});
	return reportedItems(report);
}
