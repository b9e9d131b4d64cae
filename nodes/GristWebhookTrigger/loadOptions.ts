/**
 * Load options of the Grist Instant Trigger: the table's Toggle (Bool) columns for Ready Column,
 * and its data and formula columns for Watched Columns.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { type GristColumn } from '../Grist/helpers/columns';
import { pickedLocator } from '../Grist/parameters';
import { GristClient } from '../Grist/transport';
import { fetchColumns } from '../Grist/transport/api';

async function tableColumns(ctx: ILoadOptionsFunctions): Promise<GristColumn[]> {
	const docId = pickedLocator(ctx, 'document', true);
	const tableId = pickedLocator(ctx, 'table', true);
	if (!docId || !tableId) return [];
	const client = await GristClient.create(ctx);
	return (await fetchColumns(client, { docId, tableId })).filter((c) => !c.hidden);
}

function option(column: GristColumn): INodePropertyOptions {
	const label = column.label !== column.id ? `${column.label} (${column.id})` : column.id;
	return { name: label, value: column.id, description: column.type };
}

export async function getReadyColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await tableColumns(this)).filter((c) => c.type === 'Bool').map(option);
}

export async function getWatchableColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await tableColumns(this)).map(option);
}
