/**
 * Names in Record → Get Many's conditions on Reference and Reference List columns: a value that
 * is not a row ID is the referenced row's shown value (cells/referenceInput.ts), turned into the
 * IDs of every row that has it before the filter or the SQL is built. A name no row has is
 * refused (a typo would otherwise match nothing, or everything for Is None Of).
 */
import { baseType, describeValue } from '../cells/cellValues';
import { nameProblemText, type NameFinding } from '../cells/referenceInput';
import { InputError } from '../errors/gristAnswers';
import type { Condition } from './conditionSql';
import { conditionValues } from './filters';

/** Matches whose values may be names, and what each becomes when a name gives several rows. */
const NAMED_MATCHES = new Map([
	['anyOf', 'anyOf'],
	['noneOf', 'noneOf'],
	['equals', 'anyOf'],
	['notEquals', 'noneOf'],
	['contains', 'anyOf'],
	['notContains', 'noneOf'],
]);

const DIGITS = /^\d+$/;

/** A condition value that is a name: text that is neither empty nor digits (trimmed), else undefined. */
function nameOf(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return text === '' || DIGITS.test(text) ? undefined : text;
}

/** The table a Reference (List) column points at, or undefined for another type. */
function referencedTable(type: string | undefined): string | undefined {
	const base = baseType(type);
	return base === 'Ref' || base === 'RefList' ? type!.slice(base.length + 1) : undefined;
}

/** The names of the conditions, by the Reference (List) column they are given for. */
export function conditionNames(
	conditions: Condition[],
	types: Record<string, string>,
): Map<string, Set<string>> {
	const out = new Map<string, Set<string>>();
	for (const c of conditions) {
		const column = String(c.column ?? '').trim();
		if (referencedTable(types[column]) === undefined) continue;
		if (!NAMED_MATCHES.has(c.match || 'anyOf')) continue;
		for (const v of conditionValues(c.values)) {
			const name = nameOf(v);
			if (name === undefined) continue;
			let names = out.get(column);
			if (!names) out.set(column, (names = new Set()));
			names.add(name);
		}
	}
	return out;
}

/**
 * The conditions with their names replaced by row IDs (`findingOf(column, name)`: what the
 * lookup found); a condition whose values became several takes any of them (Equals → Is One Of,
 * Not Equals → Is None Of, Contains → Is One Of, Does Not Contain → Is None Of). Conditions
 * without names are returned as they are. Throws an InputError for a name no row has.
 */
export function withReferenceIds(
	conditions: Condition[],
	types: Record<string, string>,
	findingOf: (column: string, name: string) => NameFinding,
	shownLabelOf: (column: string) => string,
): Condition[] {
	return conditions.map((c, index) => {
		const column = String(c.column ?? '').trim();
		const table = referencedTable(types[column]);
		const match = c.match || 'anyOf';
		if (table === undefined || !NAMED_MATCHES.has(match)) return c;
		const values = conditionValues(c.values);
		if (!values.some((v) => nameOf(v) !== undefined)) return c;
		const out: unknown[] = [];
		for (const v of values) {
			const name = nameOf(v);
			if (name === undefined) {
				out.push(v);
				continue;
			}
			const finding = findingOf(column, name);
			if ('ids' in finding && finding.ids.length > 0) {
				for (const id of finding.ids) if (!out.includes(id)) out.push(id);
				continue;
			}
			const label = shownLabelOf(column);
			throw new InputError(
				`Condition ${index + 1} (${column}): ${nameProblemText({ name, finding }, table, label)}`,
				'Conditions',
				'refused' in finding
					? `Give the row ID instead of ${describeValue(name)}.`
					: `A name is matched exactly with the ${label} of the referenced rows, case included (spaces around it are ignored). Check the spelling, or give the row ID.`,
			);
		}
		const several = out.length > 1;
		return { ...c, values: out, match: several ? NAMED_MATCHES.get(match) : match };
	});
}
