import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { exportOptions, exportToBinary, type ExportRequest } from './export';
import { documentLocator, tableLocator, readTarget } from '../../parameters/locators';
import { binaryPropertyField } from '../../parameters/binaryFields';
import { itemParameter } from '../../parameters/read';
import { operationDescription, perItem } from '../operationFrame';

type TableFormat = Exclude<ExportRequest['format'], 'xlsx'>;

const FORMATS: TableFormat[] = ['csv', 'tsv', 'dsv', 'table-schema'];

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		options: [
			{ name: 'CSV', value: 'csv', description: 'Values separated by commas (.csv)' },
			{
				name: 'DSV',
				value: 'dsv',
				description:
					"Values separated by 💩, Grist's choice for text full of commas and tabs (.dsv)",
			},
			{
				name: 'Table Schema',
				value: 'table-schema',
				description:
					"The table's columns and types as a Frictionless Table Schema, a JSON file that describes the CSV export",
			},
			{ name: 'TSV', value: 'tsv', description: 'Values separated by tabs (.tsv)' },
		],
		default: 'csv',
	},
	binaryPropertyField,
	exportOptions,
];

export const description = operationDescription('document', 'exportTable', properties);

/** GET /api/docs/{docId}/download/{csv|tsv|dsv|table-schema}?tableId= into a binary property. */
export const execute = perItem(async function (client, itemIndex) {
	const { docId, tableId } = readTarget.call(this, itemIndex);
	const format = itemParameter.call(this, 'format', itemIndex, 'csv') as TableFormat;
	if (!FORMATS.includes(format)) {
		throw new NodeOperationError(
			this.getNode(),
			`The Format of item ${itemIndex} must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`,
			{ description: 'Pick a format from the list.', itemIndex },
		);
	}
	return await exportToBinary.call(this, client, { docId, format, tableId, itemIndex });
});
