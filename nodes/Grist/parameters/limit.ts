/**
 * Return All / Limit: the two fields and their reader. `readLimit` checks the Limit (a whole
 * number ≥ 1) for the reads that send it to Grist; `applyLimit` cuts a list Grist returned whole.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemParameter } from './read';

export const limitFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

const RETURN_ALL = Symbol('Return All');

/** `RETURN_ALL` when Return All is on for item `itemIndex`, else its Limit as given (not checked). */
function limitSetting(this: IExecuteFunctions, itemIndex: number): unknown {
	if (itemParameter.call(this, 'returnAll', itemIndex, false)) return RETURN_ALL;
	return itemParameter.call(this, 'limit', itemIndex, 50) as unknown;
}

/** Limit of item `itemIndex`: `0` for Return All, else a whole number ≥ 1 (else an input error). */
export function readLimit(this: IExecuteFunctions, itemIndex: number): number {
	const limit = limitSetting.call(this, itemIndex);
	if (limit === RETURN_ALL) return 0;
	const n = typeof limit === 'string' ? Number(limit) : (limit as number);
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The Limit of item ${itemIndex} must be a whole number of at least 1, not ${JSON.stringify(limit)}`,
			{
				itemIndex,
				description: 'Set Limit to 1 or more, or turn on Return All.',
			},
		);
	}
	return n;
}

/**
 * Return All / Limit applied to a list the API returned whole (organizations, documents,
 * webhooks). Not checked as `readLimit` does, as these operations never did: a Limit below 1
 * (an expression; the field's minimum is 1) gives an empty list there, and an error instead
 * would stop workflows that run today.
 */
export function applyLimit<T>(ctx: IExecuteFunctions, list: T[], itemIndex: number): T[] {
	const limit = limitSetting.call(ctx, itemIndex);
	if (limit === RETURN_ALL) return list;
	return list.slice(0, Math.max(0, limit as number));
}
