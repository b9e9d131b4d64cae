import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { toColumn } from '../../cells/tableColumns';
import { columnSpecs } from '../../cells/columnSpecs';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import type { GristClient } from '../../transport';
import { TableCache, addColumnsToTable, fetchColumns } from '../../transport/api';
import { columnsCollection, readColumnInputs } from '../../parameters/columnDefinition';
import {
	checkReferencedTables,
	columnItem,
	forEachSchemaItem,
	untieNewColumns,
} from '../schemaChanges';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnsCollection('The columns to add, in order; all are added or none'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['column'], operation: ['create'] } },
	properties,
);

/**
 * POST …/columns: the item's columns in one request; one output item per new column. A
 * Reference to a table the document lacks is refused before; the IDs of columns given a Label
 * are then untied from it (one PATCH, see untieNewColumns).
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const tables = new TableCache(client);
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const inputs = readColumnInputs.call(this, itemIndex);
		const existing = await fetchColumns(client, target, { hidden: true, itemIndex });
		const specs = columnSpecs(inputs, { existing: existing.map((c) => c.id) });
		await checkReferencedTables(
			tables,
			target.docId,
			specs.map((spec, i) => ({
				type: (spec.fields as IDataObject).type,
				field: `Columns (column ${i + 1}): Referenced Table`,
			})),
			itemIndex,
		);
		const ids = await addColumnsToTable(client, target, specs, itemIndex);
		await untieNewColumns(
			client,
			target,
			specs.flatMap((spec, i) =>
				(spec.fields as IDataObject).label !== undefined ? [ids[i] ?? String(spec.id)] : [],
			),
			itemIndex,
		);
		return specs.map((spec, i) =>
			columnItem(toColumn({ id: ids[i] ?? String(spec.id), fields: spec.fields as never })),
		);
	});
}
