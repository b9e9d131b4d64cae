import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputError } from '../../errors/gristAnswers';
import { checkIdentifier, columnSpecs } from '../../cells/columnSpecs';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import type { GristClient } from '../../transport';
import { TableCache, createTables } from '../../transport/api';
import { columnsCollection, readColumnInputs } from '../../parameters/columnDefinition';
import { checkReferencedTables, forEachSchemaItem, untieNewColumns } from '../schemaChanges';
import { itemParameter } from '../../parameters/read';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['table'], operation: ['create'] } },
	properties,
);

/**
 * POST /api/docs/{doc}/tables: one table per item, with its columns. A Reference to a table the
 * document lacks is refused before (the new table itself, and tables created by earlier items,
 * count); the IDs of columns given a Label are then untied from it (one PATCH, see
 * untieNewColumns).
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
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
		await checkReferencedTables(
			tables,
			docId,
			columns.map((spec, i) => ({
				type: (spec.fields as IDataObject).type,
				field: `Columns (column ${i + 1}): Referenced Table`,
			})),
			itemIndex,
			[tableId],
		);
		const [id] = await createTables(client, docId, [{ id: tableId, columns }], itemIndex);
		await tables.add(docId, id ?? tableId);
		await untieNewColumns(
			client,
			{ docId, tableId: id ?? tableId },
			columns.flatMap((spec) =>
				(spec.fields as IDataObject).label !== undefined ? [String(spec.id)] : [],
			),
			itemIndex,
		);
		return { id, columns: columns.map((c) => c.id) };
	});
}
