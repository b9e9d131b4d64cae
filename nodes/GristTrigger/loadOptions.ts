/**
 * Load options of the Grist Trigger: the table's timestamp columns (Date, DateTime, Numeric) and
 * the columns that can serve as a creation column.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isTimestampColumn, type GristColumn } from '../Grist/helpers/columns';
import { pickedTarget } from '../Grist/parameters/locators';
import { GristClient } from '../Grist/transport';
import { fetchColumns } from '../Grist/transport/api';

async function tableColumns(ctx: ILoadOptionsFunctions): Promise<GristColumn[]> {
	const target = pickedTarget(ctx, true);
	if (!target) return [];
	const client = await GristClient.create(ctx);
	return (await fetchColumns(client, target)).filter((c) => !c.hidden);
}

function option(column: GristColumn): INodePropertyOptions {
	const label = column.label !== column.id ? `${column.label} (${column.id})` : column.id;
	return { name: label, value: column.id, description: column.type };
}

export async function getTimestampColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await tableColumns(this)).filter(isTimestampColumn).map(option);
}

export async function getCreationColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await tableColumns(this)).filter((c) => !c.isFormula).map(option);
}
