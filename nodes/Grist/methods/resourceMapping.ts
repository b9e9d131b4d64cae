/**
 * The resource mapper's fields: the table's columns, typed. Formula columns are read-only and
 * never sent (they can still be matched on in an upsert).
 */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { fetchColumns, toMapperField } from '../helpers/columns';
import { GristClient } from '../transport';

function rlcString(ctx: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = ctx.getNodeParameter(name, '', { extractValue: true }) as unknown;
	} catch {
		value = '';
	}
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

export async function getMappingColumns(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const docId = rlcString(this, 'document');
	const tableId = rlcString(this, 'table');
	if (docId === '' || tableId === '') {
		return { fields: [], emptyFieldsNotice: 'Pick a document and a table first' };
	}
	const client = await GristClient.create(this);
	const columns = await fetchColumns(client, docId, tableId);
	return { fields: columns.filter((c) => !c.hidden).map(toMapperField) };
}
