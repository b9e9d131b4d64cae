/**
 * Option lists that depend on the chosen table: its columns (for filter, sort and match pickers).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { columnTypeText } from '../cells/tableColumns';
import { pickedLocator } from '../parameters/locators';
import { GristClient } from '../api/client';
import { listTables } from '../api/tables';
import { columnOption, pickedColumns } from './columnOptions';

/** The table's columns (plus `id`), labelled "Label (ColId)", their type below as the mapper names it. */
export async function getColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const columns = await pickedColumns(this, { hidden: true });
	if (!columns) return [];
	return [
		{ name: 'Row ID', value: 'id', description: columnTypeText('Int') },
		...columns.map((c) => {
			const type = columnTypeText(c.type);
			return columnOption(c, c.isFormula && c.formula !== '' ? `${type} · formula` : type);
		}),
	];
}

/** The document's tables (for a Ref/RefList column's table), summary tables left out. */
export async function getTables(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const docId = pickedLocator(this, 'document');
	if (docId === '') return [];
	const client = await GristClient.create(this);
	const tables = await listTables(client, docId);
	return tables
		.filter(
			(t) => Number(t.fields.summarySourceTable ?? 0) === 0 && !t.id.startsWith('GristHidden_'),
		)
		.map((t) => ({ name: t.id, value: t.id }));
}

export { getToggleColumns, getWatchColumns, getWebhooks } from './webhookOptions';
