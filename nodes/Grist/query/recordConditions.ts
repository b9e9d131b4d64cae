/**
 * Record → Get Many conditions beyond Grist's equality filter: equals / not equals,
 * greater / less (or equal), between, contains / starts with / ends with (optionally ignoring
 * case), is empty / is not empty, is one of / is none of, combined with AND or OR, sorted and
 * limited — built as ONE parameterised SELECT for Grist's /sql (values bound as `?`, never
 * spliced; identifiers double-quoted). Values are typed by the column: numbers, dates and
 * date-times (ISO text or n8n dates → epoch seconds), toggles (1/0), Ref by row id, Choice List /
 * Reference List by element. The rows SQLite returns are turned back into Grist's /records
 * encoding (`sqlRecord`), so Simplify gives the same shapes as the equality path.
 */
import { baseType } from '../cells/cellValues';
import { InputError } from '../errors/gristAnswers';
import { conditionSql, emptyTest, type Condition, type SqlArgs } from './conditionSql';
import type { SortRule } from './filters';
import { sqlIdentifier, sqlToCellValue } from './sqlQuery';

/** Matches Grist's filter expresses (all ANDed): the equality path needs no SQL. */
const FILTER_MATCHES = new Set(['anyOf', 'isEmpty']);

/** Whether the conditions need /sql (an OR, or a match the equality filter cannot express). */
export function needsSql(conditions: Condition[], combine: string): boolean {
	if (combine === 'or' && conditions.length > 1) return true;
	return conditions.some((c) => !FILTER_MATCHES.has(c.match || 'anyOf'));
}

export interface ConditionQuery {
	sql: string;
	args: Array<string | number | null>;
}

export interface ConditionQueryInput {
	tableId: string;
	conditions: Condition[];
	combine: 'and' | 'or' | string;
	/** Column types by ID (the table's columns, hidden ones included). */
	types: Record<string, string>;
	/** Choices of Choice columns, for Order By Choice. */
	choices?: Record<string, string[]>;
	sort?: SortRule[];
	/** 0: no limit. */
	limit?: number;
	/**
	 * The caller's own equality tests on stored values (column → values, e.g. a window of row
	 * IDs), ANDed with the conditions; an empty list matches no row.
	 */
	where?: Record<string, unknown[]>;
}

/** The ORDER BY terms of the sort rules (Grist's options as far as SQL can follow them). */
function orderSql(
	rules: SortRule[],
	types: Record<string, string>,
	choices: Record<string, string[]>,
	args: SqlArgs,
): string[] {
	const terms: string[] = [];
	rules.forEach((rule, index) => {
		const column = String(rule.column ?? '').trim();
		if (column === '')
			throw new InputError(
				`Sort rule ${index + 1} has no column`,
				'Sort',
				'Pick a column for every sort rule or remove it.',
			);
		const type = column === 'id' ? 'Int' : types[column];
		if (type === undefined) {
			throw new InputError(
				`Cannot sort by column "${column}": the table has no such column`,
				'Sort',
				`Pick a column of the table in Sort.`,
			);
		}
		if (rule.naturalSort) {
			throw new InputError(
				`Sort rule ${index + 1} (${column}): Natural Sort is not available with these conditions`,
				'Sort',
				"Turn off Natural Sort, or use only Is One Of / Is Empty conditions combined with AND (they use Grist's own sort).",
			);
		}
		const dir = rule.direction === 'desc' ? 'DESC' : 'ASC';
		const col = sqlIdentifier(column);
		if (rule.emptyLast) terms.push(`CASE WHEN ${emptyTest(col, type)} THEN 1 ELSE 0 END`);
		if (rule.orderByChoice && baseType(type) === 'Choice' && (choices[column]?.length ?? 0) > 0) {
			const list = choices[column];
			args.push(...list);
			terms.push(
				`CASE ${col} ${list.map((_, i) => `WHEN ? THEN ${i}`).join(' ')} ELSE ${list.length} END ${dir}`,
			);
		}
		terms.push(`${col} ${dir}`);
	});
	return terms;
}

/** The SELECT for the conditions: `SELECT * FROM "T" WHERE … ORDER BY …, id LIMIT ?`. */
export function buildConditionQuery(input: ConditionQueryInput): ConditionQuery {
	const args: SqlArgs = [];
	const parts = input.conditions.map((c, i) => conditionSql(c, i, input.types, args));
	const joiner = input.combine === 'or' ? ' OR ' : ' AND ';
	let sql = `SELECT * FROM ${sqlIdentifier(input.tableId)}`;
	const tests = parts.length > 0 ? [parts.map((p) => `(${p})`).join(joiner)] : [];
	for (const [column, values] of Object.entries(input.where ?? {})) {
		args.push(...(values as SqlArgs));
		tests.push(
			values.length === 0
				? '0'
				: `${sqlIdentifier(column)} IN (${values.map(() => '?').join(', ')})`,
		);
	}
	if (tests.length === 1) sql += ` WHERE ${tests[0]}`;
	else if (tests.length > 1) sql += ` WHERE ${tests.map((t) => `(${t})`).join(' AND ')}`;
	const order = orderSql(input.sort ?? [], input.types, input.choices ?? {}, args);
	order.push(`${sqlIdentifier('id')} ASC`);
	sql += ` ORDER BY ${order.join(', ')}`;
	if (input.limit && input.limit > 0) {
		sql += ' LIMIT ?';
		args.push(input.limit);
	}
	return { sql, args };
}

/**
 * A value Grist stored marshalled (a formula error, or text that SQLite would have turned into a
 * number): a BLOB, which comes out of JSON as `{ type: 'Buffer', data }`. /records shows such a
 * cell as null (with the error under `errors`); so does the SQL path.
 */
function isMarshalled(value: unknown): boolean {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		(value as { type?: unknown }).type === 'Buffer'
	);
}

/**
 * A row of `SELECT *` as Grist's /records gives it: `{ id, fields }` with toggles as booleans
 * and lists as `["L", …]`; Grist's hidden columns left out unless `hidden`.
 */
export function sqlRecord(
	row: Record<string, unknown>,
	types: Record<string, string>,
	hidden = false,
): { id: number; fields: Record<string, unknown> } {
	const fields: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(row)) {
		if (key === 'id') continue;
		if (!hidden && (key === 'manualSort' || key.startsWith('gristHelper_'))) continue;
		fields[key] = isMarshalled(value) ? null : sqlToCellValue(value, types[key]);
	}
	return { id: Number(row.id), fields };
}
