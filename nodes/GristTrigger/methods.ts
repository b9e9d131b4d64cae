/**
 * Load options of the Grist Trigger: the table's timestamp columns (Date, DateTime, Numeric) and
 * the columns that can serve as a creation column.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { baseType } from '../Grist/helpers/cells';
import { fetchColumns, type GristColumn } from '../Grist/helpers/columns';
import { GristClient } from '../Grist/transport';

export const TIMESTAMP_TYPES = ['Date', 'DateTime', 'Numeric'];

export function isTimestampColumn(column: GristColumn): boolean {
	return TIMESTAMP_TYPES.includes(baseType(column.type));
}

function current(ctx: ILoadOptionsFunctions, name: string): string {
	const value = ctx.getCurrentNodeParameter(name, { extractValue: true }) as unknown;
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

async function tableColumns(ctx: ILoadOptionsFunctions): Promise<GristColumn[]> {
	const docId = current(ctx, 'document');
	const tableId = current(ctx, 'table');
	if (!docId || !tableId) return [];
	const client = await GristClient.create(ctx);
	return (await fetchColumns(client, docId, tableId)).filter((c) => !c.hidden);
}

function option(column: GristColumn): INodePropertyOptions {
	const label = column.label !== column.id ? `${column.label} (${column.id})` : column.id;
	return { name: label, value: column.id, description: column.type };
}

export async function getTimestampColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await tableColumns(this)).filter(isTimestampColumn).map(option);
}

export async function getCreationColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await tableColumns(this)).filter((c) => !c.isFormula).map(option);
}
