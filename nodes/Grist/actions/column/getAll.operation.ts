import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { GristColumn } from '../../cells/tableColumns';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import { hiddenColumnsOptions, readIncludeHidden } from '../../parameters/recordReadOptions';
import { fetchColumns } from '../../api/columns';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator, tableLocator, hiddenColumnsOptions];

export const description = operationDescription('column', 'getAll', properties);

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
export const execute = perItem(async function (client, itemIndex) {
	const target = readTarget.call(this, itemIndex);
	const hidden = readIncludeHidden.call(this, itemIndex);
	const columns = await fetchColumns(client, target, { hidden, itemIndex });
	return columns.map(toJson);
});
