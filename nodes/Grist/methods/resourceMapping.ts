/**
 * The resource mapper's fields: the table's columns, typed. Formula columns are read-only and
 * never sent (they can still be matched on in an upsert). A Reference (List) column's label names
 * the column it shows ("row ID or Name"), read from the referenced table's columns (one read per
 * referenced table; when that read fails, the label says "row ID" only).
 */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { baseType } from '../cells/cellValues';
import { toMapperField, type GristColumn } from '../cells/tableColumns';
import { pickedTarget } from '../parameters/locators';
import { GristClient } from '../api/client';
import { fetchColumns } from '../api/columns';
import { shownColumnOf } from '../api/referenceLookup';
import type { Target } from '../api/paths';

export async function getMappingColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const target = pickedTarget(this);
	if (!target) return { fields: [], emptyFieldsNotice: 'Pick a document and a table first' };
	const client = await GristClient.create(this);
	const columns = (await fetchColumns(client, target)).filter((c) => !c.hidden);
	const shown = await shownLabels(client, target, columns);
	return { fields: columns.map((c) => toMapperField(c, shown.get(c.id))) };
}

/** The label of the column each Reference (List) column shows, by column ID (none: the row ID). */
async function shownLabels(
	client: GristClient,
	target: Target,
	columns: GristColumn[],
): Promise<Map<string, string>> {
	const refs = columns.filter((c) => {
		const base = baseType(c.type);
		const visibleCol = c.fields.visibleCol;
		return (base === 'Ref' || base === 'RefList') && typeof visibleCol === 'number' && visibleCol;
	});
	const tables = new Map<string, Promise<GristColumn[]>>();
	for (const c of refs) {
		const tableId = c.type.slice(c.type.indexOf(':') + 1);
		if (!tables.has(tableId))
			tables.set(
				tableId,
				fetchColumns(client, { docId: target.docId, tableId }).catch(() => []),
			);
	}
	const labels = new Map<string, string>();
	for (const c of refs) {
		const tableColumns = await tables.get(c.type.slice(c.type.indexOf(':') + 1))!;
		const shown = shownColumnOf(c.fields.visibleCol, tableColumns);
		if (shown) labels.set(c.id, shown.label);
	}
	return labels;
}
