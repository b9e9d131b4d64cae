/**
 * The row deletes of record Delete and columnar Delete: the row IDs of all items of one table
 * share requests (the record write pipeline: collect.ts, send.ts).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { itemParameterValue } from '../parameters/read';
import { parseRowIds } from '../parameters/rowIds';
import type { GristClient } from '../api/client';
import { deleteRows } from '../api/records';
import { addItem, itemTarget, NO_TABLE, startWrite, type WriteSpec } from './collect';
import { refuseItem } from './report';
import { finishWrite } from './send';

const DELETE: WriteSpec = { envelopeBytes: '[]'.length, verb: 'deleted' };

/**
 * Deletes the rows named in the Row IDs field of every item. `route` 'records' is `POST
 * …/records/delete` with a fallback to `/data/delete` on servers without it; 'data' is `POST
 * …/data/delete`.
 */
export async function deleteItemRows(
	ctx: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
	route: 'records' | 'data',
): Promise<INodeExecutionData[]> {
	const write = startWrite<number>(ctx, client, items.length, DELETE);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = itemTarget(write, itemIndex);
			const raw = itemParameterValue.call(ctx, 'rowIds', itemIndex, '' as unknown);
			const ids = parseRowIds.call(ctx, raw, itemIndex, 'Row IDs');
			addItem(write, itemIndex, target, NO_TABLE, ids);
		} catch (error) {
			refuseItem(write.report, itemIndex, error);
		}
	}
	// Documents whose server has no /records/delete (deleteRows remembers them per execution).
	const legacy = new Set<string>();
	return await finishWrite(write, async (group, ids, units) => {
		await deleteRows(client, group.target, [...new Set(ids)], units[0].itemIndex, route, legacy);
		return units.map((u) => [{ deleted: true, ids: u.records }]);
	});
}
