import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyRecord } from '../../helpers/cells';
import { columnTypes, type GristColumn } from '../../helpers/columns';
import { errorItem, withItemIndex } from '../items';
import type { GristClient } from '../../transport';
import { buildReadQuery, queryNeedsColumns, readTarget } from '../../parameters';
import { ColumnCache, fetchRecords } from '../../transport/api';
import { documentLocator, hiddenColumnsOptions, readFields, tableLocator } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	...readFields,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			"Whether to return flat records (the row ID next to the fields) with dates as ISO text and lists as arrays, instead of Grist's raw form with the fields nested",
	},
	hiddenColumnsOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['getAll'] } },
	properties,
);

/** GET …/records: one request per input item (plus one GET of the columns per table, when needed). */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const columnsCache = new ColumnCache(client);
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const target = readTarget.call(this, i);
			const simplify = this.getNodeParameter('simplify', i, true) as boolean;
			const includeHidden = this.getNodeParameter('options.includeHidden', i, false) as boolean;
			let columns: GristColumn[] | undefined;
			if (simplify || queryNeedsColumns.call(this, i)) columns = await columnsCache.get(target, i);
			const qs = buildReadQuery.call(this, i, columns);
			if (includeHidden) qs.hidden = 1;
			const records = await fetchRecords(client, target, qs, i);
			const pairedItem = { item: i };
			if (simplify) {
				const types = columnTypes(columns ?? []);
				for (const record of records) out.push({ json: simplifyRecord(record, types), pairedItem });
			} else {
				for (const record of records) out.push({ json: record as unknown as IDataObject, pairedItem });
			}
		} catch (error) {
			if (this.continueOnFail()) {
				out.push(errorItem(error as Error, i));
				continue;
			}
			throw withItemIndex.call(this, error, i);
		}
	}
	return out;
}
