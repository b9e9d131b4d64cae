import type { INodeProperties } from 'n8n-workflow';

import { toColumn } from '../../cells/tableColumns';
import { columnSpecs } from '../../cells/columnSpecs';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { TableCache } from '../../api/schemaCache';
import { addColumnsToTable, fetchColumns } from '../../api/columns';
import { columnsCollection, readColumnInputs } from '../../parameters/columnDefinition';
import { columnItem, forEachSchemaItem } from '../schemaChanges';
import { operationDescription } from '../operationFrame';
import { checkNewColumnReferences, untieLabelledColumns } from '../newColumns';
import type { OperationExecute } from '../types';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	columnsCollection('The columns to add, in order; all are added or none'),
];

export const description = operationDescription('column', 'create', properties);

/**
 * POST …/columns: the item's columns in one request; one output item per new column. A
 * Reference to a table the document lacks is refused before; the IDs of columns given a Label
 * are then untied from it (one PATCH, see untieNewColumns).
 */
export const execute: OperationExecute = async function (client, items) {
	const tables = new TableCache(client);
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const inputs = readColumnInputs.call(this, itemIndex);
		const existing = await fetchColumns(client, target, { hidden: true, itemIndex });
		const specs = columnSpecs(inputs, { existing: existing.map((c) => c.id) });
		await checkNewColumnReferences(tables, target.docId, specs, itemIndex);
		const ids = await addColumnsToTable(client, target, specs, itemIndex);
		await untieLabelledColumns(client, target, specs, ids, itemIndex);
		return specs.map((spec, i) =>
			columnItem(toColumn({ id: ids[i] ?? String(spec.id), fields: spec.fields as never })),
		);
	});
};
