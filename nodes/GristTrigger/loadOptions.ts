/**
 * Load options of the Grist Trigger: the table's timestamp columns (Date, DateTime, Numeric) and
 * the columns that can serve as a creation column.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isTimestampColumn } from '../Grist/helpers/columns';
import { columnOption, pickedColumns } from '../Grist/methods/columns';

export async function getTimestampColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return ((await pickedColumns(this, { current: true })) ?? [])
		.filter(isTimestampColumn)
		.map((c) => columnOption(c));
}

export async function getCreationColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return ((await pickedColumns(this, { current: true })) ?? [])
		.filter((c) => !c.isFormula)
		.map((c) => columnOption(c));
}
