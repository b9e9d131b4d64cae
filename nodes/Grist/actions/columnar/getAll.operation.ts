import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { decodeCellValue } from '../../cells/cellValues';
import { columnTypes, isHiddenColumnId } from '../../cells/tableColumns';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { readQuery } from '../../parameters/readQuery';
import { readFields } from '../../parameters/readQueryFields';
import { ColumnCache } from '../../api/schemaCache';
import { fetchColumnar } from '../../api/columnar';
import { itemParameter } from '../../parameters/read';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { failedItem } from '../items';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	...readFields,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Row',
				value: 'rows',
				description: 'Each row as an item with its ID and fields',
			},
			{
				name: 'Columnar Object',
				value: 'raw',
				description: 'One item: column IDs and arrays of values, as Grist returns them',
			},
		],
		default: 'rows',
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to turn dates into ISO text and lists into arrays, and leave out hidden helper columns',
		displayOptions: { show: { output: ['rows'] } },
	},
];

export const description = operationDescription('columnar', 'getAll', properties);

/** GET …/data (the deprecated column-oriented form). */
export const execute: OperationExecute = async function (client, items) {
	const cache = new ColumnCache(client);
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = readTarget.call(this, itemIndex);
			const output = itemParameter.call(this, 'output', itemIndex, 'rows') as string;
			const simplify =
				output === 'rows' && (itemParameter.call(this, 'simplify', itemIndex, true) as boolean);
			const { qs, columns } = await readQuery.call(this, itemIndex, target, cache, simplify);
			const data = await fetchColumnar(client, target, qs, itemIndex);
			const pairedItem = { item: itemIndex };
			if (output === 'raw') {
				out.push({ json: data as IDataObject, pairedItem });
				continue;
			}
			const types = columnTypes(columns ?? []);
			const keys = Object.keys(data ?? {}).filter(
				(k) => k !== 'id' && !(simplify && isHiddenColumnId(k)),
			);
			const ids = (data?.id ?? []) as number[];
			for (let r = 0; r < ids.length; r++) {
				const json: IDataObject = { id: ids[r] };
				for (const k of keys) {
					const v = data[k][r];
					json[k] = (simplify ? decodeCellValue(v, types[k]) : v) as IDataObject[string];
				}
				out.push({ json, pairedItem });
			}
		} catch (error) {
			out.push(failedItem.call(this, error, itemIndex));
		}
	}
	return out;
};
