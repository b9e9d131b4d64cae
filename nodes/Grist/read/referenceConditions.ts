/**
 * Record → Get Many's conditions on Reference and Reference List columns given by name: the
 * names (query/conditionNames.ts) looked up in the column each Reference column shows
 * (api/referenceLookup.ts: once per execution and referenced table, later items ask only for
 * names not asked before) and replaced by the IDs of every row that has them, before the filter
 * or the SQL is built.
 */
import { columnMap, columnTypes, type GristColumn } from '../cells/tableColumns';
import type { NameFinding } from '../cells/referenceInput';
import type { Condition } from '../query/conditionSql';
import { conditionNames, withReferenceIds } from '../query/conditionNames';
import type { ReferenceLookup } from '../api/referenceLookup';
import type { Target } from '../api/paths';

/** The conditions with the names of references replaced by row IDs (as they are without names). */
export async function conditionsWithRowIds(
	lookup: ReferenceLookup,
	target: Target,
	columns: GristColumn[],
	conditions: Condition[],
	itemIndex: number,
): Promise<Condition[]> {
	if (conditions.length === 0) return conditions;
	const types = columnTypes(columns);
	const names = conditionNames(conditions, types);
	if (names.size === 0) return conditions;
	const byId = columnMap(columns);
	const findings = new Map<string, Map<string, NameFinding>>();
	const labels = new Map<string, string>();
	for (const [column, wanted] of names) {
		const { table, shown } = await lookup.shown(target.docId, byId.get(column)!, itemIndex);
		labels.set(column, shown?.label ?? 'row ID');
		findings.set(column, await lookup.find(target.docId, table, shown, wanted, itemIndex));
	}
	return withReferenceIds(
		conditions,
		types,
		(column, name) => findings.get(column)!.get(name)!,
		(column) => labels.get(column) ?? 'row ID',
	);
}
