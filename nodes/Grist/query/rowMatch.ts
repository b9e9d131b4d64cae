/**
 * The Filter run on one row's values in memory, for rows no query reaches: the polling trigger's
 * rows from Grist's change history (Row Updated, Row Deleted, Row Added, Updated or Deleted).
 * Conditions mean what the SQL of ./conditionSql.ts means in Grist's SQLite — the same checks
 * and value encodings (`checkConditions` runs that SQL builder once, so a condition refused there
 * is refused here), cells compared in their stored form (toggles 1/0, lists by element, dates as
 * epoch seconds), SQLite's order between types (empty < numbers < text), Ignore Case for A–Z
 * only. A JSON filter is Grist's record filter: each column's cell equal to one of its values.
 */
import { baseType } from '../cells/cellValues';
import {
	LIST_TYPES,
	checkCondition,
	conditionSql,
	sqlValue,
	type CheckedCondition,
	type Condition,
} from './conditionSql';
import { conditionValues, type GristFilter } from './filters';

/** A row as Grist's /records gives it (and the history's values). */
export interface MatchedRow {
	id: number;
	fields: Record<string, unknown>;
}

/** Checks the conditions against the column types (an InputError names the bad one). */
export function checkConditions(conditions: Condition[], types: Record<string, string>): void {
	conditions.forEach((c, i) => conditionSql(c, i, types, []));
}

/** Whether the row matches the conditions, combined with AND or OR (no conditions: every row). */
export function rowMatches(
	conditions: Condition[],
	combine: string,
	types: Record<string, string>,
	row: MatchedRow,
): boolean {
	if (conditions.length === 0) return true;
	const test = (c: Condition, i: number) => conditionMatches(checkCondition(c, i, types), row);
	return combine === 'or' ? conditions.some(test) : conditions.every(test);
}

/** Whether the row matches Grist's filter object (keys ANDed, values ORed, stored values). */
export function filterMatches(filter: GristFilter, row: MatchedRow): boolean {
	return Object.entries(filter).every(([column, values]) => {
		const cell = JSON.stringify(column === 'id' ? row.id : (row.fields[column] ?? null));
		return values.some((v) => JSON.stringify(v) === cell);
	});
}

const TEXT_TYPES = new Set(['Text', 'Choice', 'Any']);

/** Empty as Is Empty means it (./conditionSql.ts `emptyTest`). */
function isEmptyCell(cell: unknown, type: string): boolean {
	if (cell === null || cell === undefined) return true;
	const base = baseType(type);
	if (TEXT_TYPES.has(base)) return cell === '';
	if (base === 'Ref') return cell === 0;
	if (LIST_TYPES.has(base)) return cell === '' || (Array.isArray(cell) && cell.length <= 1);
	return false;
}

/** A cell in the form SQLite holds it: toggles as 1/0, empty as null. */
function stored(cell: unknown): unknown {
	if (typeof cell === 'boolean') return cell ? 1 : 0;
	return cell === undefined ? null : cell;
}

const lowerAscii = (v: unknown): unknown =>
	typeof v === 'string' ? v.replace(/[A-Z]/g, (ch) => ch.toLowerCase()) : v;

/** SQLite's order of two values: NULL, then numbers, then text. */
function compare(a: unknown, b: unknown): number {
	const rank = (v: unknown) => (v === null ? 0 : typeof v === 'number' ? 1 : 2);
	if (rank(a) !== rank(b)) return rank(a) - rank(b);
	if (a === null) return 0;
	if (typeof a === 'number') return a - (b as number);
	const x = String(a);
	const y = String(b);
	return x < y ? -1 : x > y ? 1 : 0;
}

function conditionMatches(c: CheckedCondition, row: MatchedRow): boolean {
	const { match, type, base, condition } = c;
	const cell = c.column === 'id' ? row.id : row.fields[c.column];
	if (match === 'isEmpty') return isEmptyCell(cell, type);
	if (match === 'isNotEmpty') return !isEmptyCell(cell, type);
	const values = conditionValues(condition.values);
	const ci = Boolean(condition.ignoreCase) && (c.isText || base === 'ChoiceList');
	const cased = (v: unknown) => (ci ? lowerAscii(v) : v);
	const encoded = (v: unknown) => cased(sqlValue(v, type, c.where));
	if (LIST_TYPES.has(base)) {
		const elements = Array.isArray(cell) ? cell.slice(cell[0] === 'L' ? 1 : 0) : [];
		const wanted = (
			match === 'anyOf' || match === 'noneOf' ? values.filter((v) => v !== '') : [values[0]]
		).map(encoded);
		const has = elements.some((e) => wanted.includes(cased(e)));
		return match === 'anyOf' || match === 'contains' || match === 'equals' ? has : !has;
	}
	const value = cased(stored(cell));
	switch (match) {
		case 'anyOf':
		case 'noneOf': {
			if (values.length === 1 && values[0] === '' && c.isText) {
				const empty = isEmptyCell(cell, type);
				return match === 'anyOf' ? empty : !empty;
			}
			const found = value !== null && values.map(encoded).some((v) => compare(value, v) === 0);
			return match === 'anyOf' ? found : !found;
		}
		case 'equals':
			return value !== null && compare(value, encoded(values[0])) === 0;
		case 'notEquals':
			return compare(value, encoded(values[0])) !== 0;
		case 'gt':
		case 'gte':
		case 'lt':
		case 'lte':
		case 'between': {
			if (value === null || (c.isNumber && typeof value !== 'number')) return false;
			const low = compare(value, encoded(values[0]));
			if (match === 'gt') return low > 0;
			if (match === 'gte') return low >= 0;
			if (match === 'lt') return low < 0;
			if (match === 'lte') return low <= 0;
			return low >= 0 && compare(value, encoded(condition.value2)) <= 0;
		}
		case 'contains':
		case 'notContains':
		case 'startsWith':
		case 'endsWith': {
			if (value === null) return match === 'notContains';
			const text = String(ci ? lowerAscii(String(cell)) : cell);
			const part = String(cased(String(values[0])));
			if (match === 'startsWith') return text.startsWith(part);
			if (match === 'endsWith') return text.endsWith(part);
			return match === 'contains' ? text.includes(part) : !text.includes(part);
		}
		default:
			return false;
	}
}
