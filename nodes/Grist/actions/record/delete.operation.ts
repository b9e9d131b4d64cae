import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { executeBatched, type BatchOptions } from '../../helpers/batch';
import type { GristClient } from '../../transport';
import { documentLocator, tableLocator } from '../common.descriptions';
import { parseRowIds, readTarget, tablePath, targetKey, type Target } from './shared';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'Row IDs',
		name: 'rowIds',
		type: 'string',
		default: '={{ $json.id }}',
		required: true,
		description: 'The row IDs of the records to delete: one ID, several separated by commas, or an array',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['delete'] } },
	properties,
);

/** Whether a 404 says the route is missing (an older server), not that the table or doc is. */
export function isMissingRoute(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return false;
	return !/table|document|column|workspace|organization|attachment/i.test(error.message) || /^not found: \//i.test(error.message);
}

/**
 * Deletes rows with `POST …/records/delete` (Grist 1.7.5+), falling back to `POST …/data/delete`
 * where the server does not have that route. Row IDs of all items of one table share requests.
 */
export async function deleteRows(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	readIds: (i: number) => number[],
	route: 'records' | 'data',
): Promise<INodeExecutionData[]> {
	const legacy = new Set<string>();
	const options: BatchOptions<number, Target> = {
		envelopeBytes: 2,
		verb: 'deleted',
		prepare: async (i) => {
			const target = readTarget.call(ctx, i);
			const ids = readIds(i);
			return { key: targetKey(target), group: target, records: ids };
		},
		send: async (target, units, records) => {
			const body = [...new Set(records)];
			const key = targetKey(target);
			const send = async (path: string) =>
				await client.request({
					method: 'POST',
					path,
					body,
					what: `table "${target.tableId}"`,
					itemIndex: units[0].itemIndex,
				});
			if (route === 'data' || legacy.has(key)) {
				await send(tablePath(client, target, 'data', 'delete'));
			} else {
				const failure = await send(tablePath(client, target, 'records', 'delete')).then(
					() => undefined,
					(error: unknown) => error,
				);
				if (failure !== undefined) {
					if (!isMissingRoute(failure)) return await Promise.reject(failure as Error);
					legacy.add(key);
					await send(tablePath(client, target, 'data', 'delete'));
				}
			}
			return { outputs: units.map((u) => [{ deleted: true, ids: u.records }]) };
		},
	};
	return await executeBatched(ctx, items, options);
}

export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await deleteRows(
		this,
		client,
		items,
		(i) => parseRowIds.call(this, this.getNodeParameter('rowIds', i, '') as unknown, i, 'Row IDs'),
		'records',
	);
}
