/**
 * The resource mapper's fields: the table's columns, typed. Formula columns are read-only and
 * never sent (they can still be matched on in an upsert).
 */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { toMapperField } from '../cells/tableColumns';
import { pickedTarget } from '../parameters/locators';
import { GristClient } from '../api/client';
import { fetchColumns } from '../api/columns';

export async function getMappingColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const target = pickedTarget(this);
	if (!target) return { fields: [], emptyFieldsNotice: 'Pick a document and a table first' };
	const client = await GristClient.create(this);
	const columns = await fetchColumns(client, target);
	return { fields: columns.filter((c) => !c.hidden).map(toMapperField) };
}
