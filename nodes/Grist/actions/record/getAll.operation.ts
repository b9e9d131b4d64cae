import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyRecord } from '../../helpers/cells';
import { columnTypes } from '../../helpers/columns';
import { errorItem, withItemIndex } from '../items';
import type { GristClient } from '../../transport';
import { readQuery, readTarget } from '../../parameters';
import { ColumnCache, fetchRecords } from '../../transport/api';
import {
	documentLocator,
	hiddenColumnsOptions,
	readFields,
	tableLocator,
} from '../common.descriptions';

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
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = readTarget.call(this, itemIndex);
			const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
			const includeHidden = this.getNodeParameter(
				'options.includeHidden',
				itemIndex,
				false,
			) as boolean;
			const { qs, columns } = await readQuery.call(this, itemIndex, target, columnsCache, simplify);
			if (includeHidden) qs.hidden = 1;
			const records = await fetchRecords(client, target, qs, itemIndex);
			const pairedItem = { item: itemIndex };
			if (simplify) {
				const types = columnTypes(columns ?? []);
				for (const record of records) out.push({ json: simplifyRecord(record, types), pairedItem });
			} else {
				for (const record of records)
					out.push({ json: record as unknown as IDataObject, pairedItem });
			}
		} catch (error) {
			if (this.continueOnFail()) {
				out.push(errorItem(error as Error, itemIndex));
				continue;
			}
			throw withItemIndex.call(this, error, itemIndex);
		}
	}
	return out;
}
