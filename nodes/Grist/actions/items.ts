import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { toNodeError } from '../errors/nodeErrors';
import { isUncertainWrite } from '../api/retry';

export type ItemResult = IDataObject | IDataObject[] | INodeExecutionData | INodeExecutionData[];

function isExecutionData(value: IDataObject | INodeExecutionData): value is INodeExecutionData {
	return (
		typeof value === 'object' && value !== null && 'json' in value && typeof value.json === 'object'
	);
}

/** Wraps results of item `itemIndex` as output items paired to it. */
export function toItems(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	const list = Array.isArray(result) ? result : [result];
	return list.map((entry) =>
		isExecutionData(entry as IDataObject | INodeExecutionData)
			? { ...(entry as INodeExecutionData), pairedItem: { item: itemIndex } }
			: { json: entry as IDataObject, pairedItem: { item: itemIndex } },
	);
}

/**
 * The output item that carries an item's error under Continue On Fail; `writeUncertain: true`
 * when its write may or may not have been applied (the answer was lost), so a workflow can
 * route such items to a check instead of sending them again.
 */
export function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description !== '') json.description = description;
	const httpCode = (error as { httpCode?: unknown }).httpCode;
	if (typeof httpCode === 'string' && httpCode !== '') json.httpCode = httpCode;
	if (isUncertainWrite(error)) json.writeUncertain = true;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs `fn` for every input item: paired items on every output, per-item errors under
 * Continue On Fail, and the item index attached to errors otherwise.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			out.push(...toItems(await fn(itemIndex), itemIndex));
		} catch (error) {
			out.push(failedItem.call(this, error, itemIndex));
		}
	}
	return out;
}

/**
 * What a failed item gives: under Continue On Fail its error item (errorItem), otherwise the
 * error is thrown with the item index attached.
 */
export function failedItem(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): INodeExecutionData {
	if (this.continueOnFail()) return errorItem(error as Error, itemIndex);
	throw withItemIndex.call(this, error, itemIndex);
}

/** Attaches the item index to an error (keeping NodeApiError/NodeOperationError as they are). */
export function withItemIndex(this: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	return toNodeError(this.getNode(), error, { itemIndex });
}
