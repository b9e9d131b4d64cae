import type { INodeProperties } from 'n8n-workflow';

import { tableItem } from '../../cells/columnSpecs';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { fetchColumns } from '../../api/columns';
import { fetchTables } from '../../api/tables';
import { columnItem, forEachSchemaItem } from '../schemaChanges';
import { itemParameter } from '../../parameters/read';
import { operationDescription, perItemThrough } from '../operationFrame';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Include Columns',
		name: 'includeColumns',
		type: 'boolean',
		default: false,
		description:
			"Whether to list each table's columns (ID, label, type, formula, choices) under columns, e.g. to find out what to query",
	},
	{
		displayName: 'Include Summary Tables',
		name: 'includeSummary',
		type: 'boolean',
		default: true,
		description:
			'Whether to list summary tables too (marked isSummary: true); they are computed by Grist and cannot be written',
	},
];

export const description = operationDescription('table', 'getAll', properties);

/** GET /api/docs/{doc}/tables (`expand=column` for the columns): one item per table. */
export const execute = perItemThrough(forEachSchemaItem, async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const withColumns = itemParameter.call(this, 'includeColumns', itemIndex, false) as boolean;
	const withSummary = itemParameter.call(this, 'includeSummary', itemIndex, true) as boolean;
	const tables = (await fetchTables(client, docId, { columns: withColumns, itemIndex })).filter(
		(t) => !t.id.startsWith('GristHidden_'),
	);
	const out = [];
	for (const t of tables) {
		const summary = Number(t.fields?.summarySourceTable ?? 0) !== 0;
		if (summary && !withSummary) continue;
		let columns = t.columns;
		// Servers before Grist 1.7.12 ignore expand=column: ask per table
		if (withColumns && !columns)
			columns = await fetchColumns(client, { docId, tableId: t.id }, { itemIndex });
		out.push(tableItem(t, withColumns ? (columns ?? []).map(columnItem) : undefined));
	}
	return out;
});
