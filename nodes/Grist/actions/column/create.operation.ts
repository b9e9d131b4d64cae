import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { toColumn } from '../../helpers/columns';
import { columnSpecs } from '../../helpers/schema';
import { readTarget } from '../../parameters';
import type { GristClient } from '../../transport';
import { addColumnsToTable, fetchColumns } from '../../transport/api';
import { documentLocator, tableLocator } from '../common.descriptions';
import { columnItem, columnsCollection, forEachSchemaItem, readColumnInputs } from '../schema';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnsCollection('The columns to add, in order; all are added or none'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['column'], operation: ['create'] } },
	properties,
);

/** POST …/columns: the item's columns in one request; one output item per new column. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const inputs = readColumnInputs.call(this, itemIndex);
		const existing = await fetchColumns(client, target, { hidden: true, itemIndex });
		const specs = columnSpecs(inputs, { existing: existing.map((c) => c.id) });
		const ids = await addColumnsToTable(client, target, specs, itemIndex);
		return specs.map((spec, i) =>
			columnItem(toColumn({ id: ids[i] ?? String(spec.id), fields: spec.fields as never })),
		);
	});
}
