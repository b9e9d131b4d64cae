/**
 * Option lists that depend on the chosen table: its columns (for filter, sort and match pickers).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { fetchColumns } from '../helpers/columns';
import { GristClient } from '../transport';

function rlcString(ctx: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = ctx.getNodeParameter(name, '', { extractValue: true }) as unknown;
	} catch {
		value = ''; // the parameter is not there (yet)
	}
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

/** The table's columns (plus `id`), labelled "Label (ColId) · Type". */
export async function getColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const docId = rlcString(this, 'document');
	const tableId = rlcString(this, 'table');
	if (docId === '' || tableId === '') return [];
	const client = await GristClient.create(this);
	const columns = await fetchColumns(client, docId, tableId);
	return [
		{ name: 'Row ID', value: 'id', description: 'Int' },
		...columns.map((c) => ({
			name: c.label === c.id ? c.id : `${c.label} (${c.id})`,
			value: c.id,
			description: c.isFormula && c.formula !== '' ? `${c.type} · formula` : c.type,
		})),
	];
}
