import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GristColumn } from '../../cells/tableColumns';
import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { hiddenColumnsOptions, readIncludeHidden } from '../../parameters/recordReadOptions';
import { fetchColumns } from '../../transport/api';

const properties: INodeProperties[] = [documentLocator, tableLocator, hiddenColumnsOptions];

export const description = updateDisplayOptions(
	{ show: { resource: ['column'], operation: ['getAll'] } },
	properties,
);

function toJson(c: GristColumn): IDataObject {
	const json: IDataObject = {
		id: c.id,
		label: c.label,
		type: c.type,
		isFormula: c.isFormula,
		formula: c.formula,
		widgetOptions: c.widgetOptions,
	};
	if (c.choices) json.choices = c.choices;
	if (c.description !== undefined) json.description = c.description;
	if (c.colRef !== undefined) json.colRef = c.colRef;
	return json;
}

/** GET …/columns: one item per column. */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const target = readTarget.call(this, itemIndex);
		const hidden = readIncludeHidden.call(this, itemIndex);
		const columns = await fetchColumns(client, target, { hidden, itemIndex });
		return columns.map(toJson);
	});
}
