import type { INodeProperties } from 'n8n-workflow';

import { InputError } from '../../errors/gristAnswers';
import { checkIdentifier, columnSpecs } from '../../cells/columnSpecs';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { TableCache } from '../../api/schemaCache';
import { createTables } from '../../api/tables';
import { columnsCollection, readColumnInputs } from '../../parameters/columnDefinition';
import { forEachSchemaItem } from '../schemaChanges';
import { itemParameter } from '../../parameters/read';
import { operationDescription } from '../operationFrame';
import { checkNewColumnReferences, untieLabelledColumns } from '../newColumns';
import type { OperationExecute } from '../types';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Table ID',
		name: 'tableId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Projects',
		description:
			'Letters, digits and _, not starting with a digit (Grist capitalises the first letter)',
	},
	columnsCollection('The columns of the new table, in order'),
];

export const description = operationDescription('table', 'create', properties);

/**
 * POST /api/docs/{doc}/tables: one table per item, with its columns. A Reference to a table the
 * document lacks is refused before (the new table itself, and tables created by earlier items,
 * count); the IDs of columns given a Label are then untied from it (one PATCH, see
 * untieNewColumns).
 */
export const execute: OperationExecute = async function (client, items) {
	const tables = new TableCache(client);
	return await forEachSchemaItem.call(this, items, async (itemIndex) => {
		const docId = documentIdValue.call(this, itemIndex);
		const tableId = checkIdentifier(
			String(itemParameter.call(this, 'tableId', itemIndex, '') ?? '').trim(),
			'table',
			'Table ID',
		);
		const inputs = readColumnInputs.call(this, itemIndex);
		if (inputs.length === 0) {
			throw new InputError(
				'A new table needs at least one column',
				'Columns',
				'Add a column under Columns (Grist refuses a table without columns).',
			);
		}
		const columns = columnSpecs(inputs);
		await checkNewColumnReferences(tables, docId, columns, itemIndex, [tableId]);
		const [id] = await createTables(client, docId, [{ id: tableId, columns }], itemIndex);
		await tables.add(docId, id ?? tableId);
		await untieLabelledColumns(client, { docId, tableId: id ?? tableId }, columns, [], itemIndex);
		return { id, columns: columns.map((c) => c.id) };
	});
};
