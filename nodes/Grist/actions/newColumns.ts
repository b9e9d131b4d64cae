/**
 * What Table → Create and Column → Create do around the columns they add: refuse a Reference to
 * a table the document lacks before the write, untie the IDs of labelled columns after it.
 */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from '../api/client';
import type { TableCache } from '../api/schemaCache';
import type { Target } from '../api/paths';
import { checkReferencedTables, untieNewColumns } from './schemaChanges';

/**
 * Refuses a new column (`specs`, as columnSpecs gives them) whose Reference names a table the
 * document lacks; `alsoExisting`: tables that count as existing (the table being created).
 */
export async function checkNewColumnReferences(
	tables: TableCache,
	docId: string,
	specs: IDataObject[],
	itemIndex: number,
	alsoExisting: string[] = [],
): Promise<void> {
	const columns = specs.map((spec, i) => ({
		type: (spec.fields as IDataObject).type,
		field: `Columns (column ${i + 1}): Referenced Table`,
	}));
	await checkReferencedTables(tables, docId, columns, itemIndex, alsoExisting);
}

/**
 * After the write: unties the IDs of the new columns given a Label from it (see
 * untieNewColumns); `ids`: the IDs Grist gave them, by spec (the spec's ID where none).
 */
export async function untieLabelledColumns(
	client: GristClient,
	target: Target,
	specs: IDataObject[],
	ids: Array<string | undefined>,
	itemIndex: number,
): Promise<void> {
	const labelled = specs.flatMap((spec, i) =>
		(spec.fields as IDataObject).label !== undefined ? [ids[i] ?? String(spec.id)] : [],
	);
	await untieNewColumns(client, target, labelled, itemIndex);
}
