/**
 * The row deletes of record Delete and columnar Delete, declared for the batch executor
 * (`executeWrite`): the row IDs of all items of one table share requests.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { itemParameterValue } from '../parameters/read';
import { parseRowIds } from '../parameters/rowIds';
import type { GristClient } from '../api/client';
import { deleteRows } from '../api/records';
import type { WriteDeclaration, WriteOptions } from './batch';

/**
 * Deletes the rows named in the Row IDs field of every item. `route` 'records' is `POST
 * …/records/delete` with a fallback to `/data/delete` on servers without it; 'data' is `POST
 * …/data/delete`.
 */
export function rowDeletes(
	ctx: IExecuteFunctions,
	client: GristClient,
	route: 'records' | 'data',
): WriteDeclaration<number, WriteOptions> {
	// Documents whose server has no /records/delete (deleteRows remembers them per execution).
	const legacy = new Set<string>();
	return {
		envelopeBytes: '[]'.length,
		verb: 'deleted',
		columns: false,
		read: (itemIndex) => ({
			records: parseRowIds.call(
				ctx,
				itemParameterValue.call(ctx, 'rowIds', itemIndex, '' as unknown),
				itemIndex,
				'Row IDs',
			),
		}),
		send: async (group, records, units) => {
			await deleteRows(
				client,
				group.target,
				[...new Set(records)],
				units[0].itemIndex,
				route,
				legacy,
			);
			return units.map((u) => [{ deleted: true, ids: u.records }]);
		},
	};
}
