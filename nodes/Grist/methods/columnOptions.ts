/**
 * The picked table's columns as option lists: what every column picker of the Grist node and of
 * both triggers starts from.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import type { GristColumn } from '../cells/tableColumns';
import { pickedTarget } from '../parameters/locators';
import { GristClient } from '../api/client';
import { fetchColumns } from '../api/columns';

/**
 * The columns of the picked document and table (undefined until both are picked); hidden ones (Grist's
 * helper columns, e.g. gristHelper_Display) only with `hidden`. `current`: read the parameters
 * being edited, as the triggers' pickers do.
 */
export async function pickedColumns(
	ctx: ILoadOptionsFunctions,
	{ current = false, hidden = false }: { current?: boolean; hidden?: boolean } = {},
): Promise<GristColumn[] | undefined> {
	const target = pickedTarget(ctx, current);
	if (!target) return undefined;
	const client = await GristClient.create(ctx);
	const columns = await fetchColumns(client, target);
	return hidden ? columns : columns.filter((c) => !c.hidden);
}

/** A column as an option: "Label (ColId)" (the ID alone when it is the label), its type below. */
export function columnOption(c: GristColumn, description: string = c.type): INodePropertyOptions {
	return { name: c.label !== c.id ? `${c.label} (${c.id})` : c.id, value: c.id, description };
}
