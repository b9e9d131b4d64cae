/**
 * The resource mapper's fields: the table's columns, typed. Formula columns are read-only and
 * never sent (they can still be matched on in an upsert).
 */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { toMapperField } from '../helpers/columns';
import { pickedLocator } from '../parameters';
import { GristClient } from '../transport';
import { fetchColumns } from '../transport/api';

export async function getMappingColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const docId = pickedLocator(this, 'document');
	const tableId = pickedLocator(this, 'table');
	if (docId === '' || tableId === '') {
		return { fields: [], emptyFieldsNotice: 'Pick a document and a table first' };
	}
	const client = await GristClient.create(this);
	const columns = await fetchColumns(client, { docId, tableId });
	return { fields: columns.filter((c) => !c.hidden).map(toMapperField) };
}
