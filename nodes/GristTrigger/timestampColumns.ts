/**
 * Load options of the Grist Trigger: the table's timestamp columns (Date, DateTime, Numeric) and
 * the columns that can serve as a creation column.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { columnTypeText, isTimestampColumn, type GristColumn } from '../Grist/cells/tableColumns';
import { columnOption, pickedColumns } from '../Grist/methods/columnOptions';

/** What a column says when no trigger formula keeps it up to date: picking it never fires. */
export const NOT_UPDATED = 'not updated automatically';

/**
 * When Grist recalculates a data column's trigger formula on a record change: on any change
 * (recalcWhen 2, "Apply on changes to: Any field"), on changes to the columns listed in recalcDeps
 * (recalcWhen 0 with `["L", colRef…]`), or never (no formula, a formula column, recalcWhen 1, or 0
 * without recalcDeps: new records only). Returns the names of those columns, or undefined.
 */
export function updatedOn(column: GristColumn, columns: GristColumn[]): string[] | undefined {
	if (column.isFormula || column.formula.trim() === '') return undefined;
	const when = Number(column.fields.recalcWhen ?? 0);
	if (when === 2) return [];
	const deps = column.fields.recalcDeps;
	if (when !== 0 || !Array.isArray(deps) || deps[0] !== 'L' || deps.length < 2) return undefined;
	return deps.slice(1).map((ref) => columns.find((c) => c.colRef === ref)?.id ?? `#${String(ref)}`);
}

/**
 * The Date, DateTime and Numeric columns: those that a trigger formula updates on any change first,
 * then those updated on changes to some columns, then the others, named "not updated
 * automatically" (a Row Added or Updated trigger on one of them fires only on edits of it).
 */
export async function getTimestampColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const columns = (await pickedColumns(this, { current: true })) ?? [];
	const ranked = columns.filter(isTimestampColumn).map((c) => {
		const on = updatedOn(c, columns);
		const type = columnTypeText(c.type);
		if (on === undefined) {
			const option = columnOption(c, `${type} · no trigger formula: changes only when written`);
			return { rank: 2, option: { ...option, name: `${option.name} (${NOT_UPDATED})` } };
		}
		if (on.length === 0)
			return { rank: 0, option: columnOption(c, `${type} · trigger formula, on any change`) };
		return {
			rank: 1,
			option: columnOption(c, `${type} · trigger formula, on changes to ${on.join(', ')} only`),
		};
	});
	// a stable sort: the table's order within each rank
	return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.option);
}

export async function getCreationColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return ((await pickedColumns(this, { current: true })) ?? [])
		.filter((c) => !c.isFormula)
		.map((c) => columnOption(c));
}
