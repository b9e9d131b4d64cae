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
import { encodeCellValue } from '../cells/cellEncoding';
import { CellValueError, baseType } from '../cells/cellValues';
import { InputError, attempt } from '../errors/gristAnswers';
import { conditionValues, type SortRule } from './filters';
import { sqlIdentifier, sqlToCellValue } from './sqlQuery';

export type ConditionMatch =
	| 'anyOf'
	| 'noneOf'
	| 'isEmpty'
	| 'isNotEmpty'
	| 'equals'
	| 'notEquals'
	| 'gt'
	| 'gte'
	| 'lt'
	| 'lte'
	| 'between'
	| 'contains'
	| 'notContains'
	| 'startsWith'
	| 'endsWith';

export interface Condition {
	column: string;
	/** Absent in conditions saved before the option existed: `anyOf`. */
	match?: ConditionMatch | string;
	values?: unknown;
	/** The upper bound of `between`. */
	value2?: unknown;
	ignoreCase?: boolean;
}

/** Matches Grist's filter expresses (all ANDed): the equality path needs no SQL. */
const FILTER_MATCHES = new Set(['anyOf', 'isEmpty']);

/** Whether the conditions need /sql (an OR, or a match the equality filter cannot express). */
export function needsSql(conditions: Condition[], combine: string): boolean {
	if (combine === 'or' && conditions.length > 1) return true;
	return conditions.some((c) => !FILTER_MATCHES.has(c.match || 'anyOf'));
}

const LIST_TYPES = new Set(['ChoiceList', 'RefList', 'Attachments']);
const NUMBER_TYPES = new Set([
	'Numeric',
	'Int',
	'Date',
	'DateTime',
	'Ref',
	'ManualSortPos',
	'PositionNumber',
]);
const TEXT_TYPES = new Set(['Text', 'Choice', 'Any']);

const LABELS: Record<string, string> = {
	anyOf: 'Is One Of',
	noneOf: 'Is None Of',
	isEmpty: 'Is Empty',
	isNotEmpty: 'Is Not Empty',
	equals: 'Equals',
	notEquals: 'Not Equals',
	gt: 'Greater Than',
	gte: 'Greater Than or Equal',
	lt: 'Less Than',
	lte: 'Less Than or Equal',
	between: 'Between',
	contains: 'Contains',
	notContains: 'Does Not Contain',
	startsWith: 'Starts With',
	endsWith: 'Ends With',
};

/** The SQL test of an empty cell of a column type (as Grist's "Is Empty" means it). */
export function emptyTest(col: string, type: string): string {
	const base = baseType(type);
	if (TEXT_TYPES.has(base)) return `(${col} IS NULL OR ${col} = '')`;
	if (base === 'Ref') return `(${col} IS NULL OR ${col} = 0)`;
	if (LIST_TYPES.has(base)) return `(${col} IS NULL OR ${col} = '' OR ${col} = '[]')`;
	return `${col} IS NULL`;
}

function escapeLike(text: string): string {
	return text.replace(/[\\%_]/g, (c) => `\\${c}`);
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
}

/** Encodes one value for a comparison with a column of `type` (a list column: one element). */
function sqlValue(value: unknown, type: string, where: string): string | number | null {
	const base = baseType(type);
	const result = attempt(() => {
		if (base === 'ChoiceList') return encodeCellValue(value, 'Text');
		if (base === 'RefList' || base === 'Attachments' || base === 'Ref' || type === 'Int')
			return encodeCellValue(value, 'Int');
		if (base === 'Any') return value;
		return encodeCellValue(value, type);
	});
	if (result.error) {
		const error = result.error;
		const message =
			error instanceof CellValueError
				? `the value ${JSON.stringify(value)} does not fit a ${type} column (${error.expected})`
				: (error as Error).message;
		throw new InputError(
			`${where}: ${message}`,
			'Conditions',
			'Give a value of the column type: numbers, dates as 2024-01-31 (or an n8n date), true/false, references as row IDs.',
		);
	}
	const encoded = result.value;
	if (
		encoded === undefined ||
		(encoded === null && value !== null && value !== '' && value !== undefined)
	) {
		throw new InputError(
			`${where}: the value ${JSON.stringify(value)} does not fit a ${type} column`,
			'Conditions',
		);
	}
	if (typeof encoded === 'boolean') return encoded ? 1 : 0;
	if (encoded === null || typeof encoded === 'number' || typeof encoded === 'string')
		return encoded;
	if (typeof value === 'object' && value !== null) return JSON.stringify(value);
	return String(encoded);
}

/** One condition as SQL, its arguments appended to `args`. */
function conditionSql(
	c: Condition,
	index: number,
	types: Record<string, string>,
	args: Array<string | number | null>,
): string {
	const column = String(c.column ?? '').trim();
	if (column === '') {
		throw new InputError(
			`Condition ${index + 1} has no column`,
			'Conditions',
			'Pick a column for every condition or remove it.',
		);
	}
	const type = column === 'id' ? 'Int' : types[column];
	if (type === undefined) {
		throw new InputError(
			`Condition ${index + 1}: the table has no column "${column}"`,
			'Conditions',
			`Use a column ID (not its label). The table's columns are: ${Object.keys(types)
				.filter((k) => k !== 'manualSort' && !k.startsWith('gristHelper_'))
				.join(', ')}.`,
		);
	}
	const match = (c.match || 'anyOf') as ConditionMatch;
	const label = LABELS[match];
	if (label === undefined) {
		throw new InputError(
			`Condition ${index + 1}: "${match}" is not a condition`,
			'Conditions',
			`Use one of: ${Object.values(LABELS).join(', ')}.`,
		);
	}
	const where = `Condition ${index + 1} (${column} ${label})`;
	const col = sqlIdentifier(column);
	const base = baseType(type);
	const isList = LIST_TYPES.has(base);
	const isNumber = NUMBER_TYPES.has(base) || column === 'id';
	const isText = TEXT_TYPES.has(base);
	const refuse = (what: string): never => {
		throw new InputError(`${where}: not available for a ${type} column`, 'Conditions', what);
	};
	if ((match === 'isEmpty' || match === 'isNotEmpty') && column === 'id') {
		throw new InputError(
			`${where}: the row ID (id) is never empty`,
			'Conditions',
			'Pick another column, or remove the condition.',
		);
	}
	if (match === 'isEmpty') {
		return emptyTest(col, type);
	}
	if (match === 'isNotEmpty') {
		return `NOT ${emptyTest(col, type)}`;
	}
	const values = conditionValues(c.values);
	const first = (): string | number | null => {
		if (values.length !== 1) {
			throw new InputError(
				`${where}: give exactly one value, not ${values.length}`,
				'Conditions',
				'Give one value in Values (a JSON array only for Is One Of / Is None Of).',
			);
		}
		if (values[0] === '' && !isText) {
			throw new InputError(
				`${where}: the value is empty`,
				'Conditions',
				'Give a value, or use Is Empty.',
			);
		}
		return sqlValue(values[0], type, where);
	};
	const ci = Boolean(c.ignoreCase) && (isText || base === 'ChoiceList');
	const cased = (expr: string) => (ci ? `lower(${expr})` : expr);
	if (isList) {
		const elements = `json_each(CASE WHEN json_valid(${col}) THEN ${col} ELSE '[]' END)`;
		if (
			match === 'anyOf' ||
			match === 'noneOf' ||
			match === 'contains' ||
			match === 'notContains' ||
			match === 'equals' ||
			match === 'notEquals'
		) {
			const list =
				match === 'anyOf' || match === 'noneOf'
					? values.filter((v) => v !== '')
					: [values.length === 1 ? values[0] : refuse('Give one value.')];
			if (list.length === 0)
				throw new InputError(
					`${where}: no value given`,
					'Conditions',
					'Give one or more values, or use Is Empty.',
				);
			for (const v of list) args.push(sqlValue(v, type, where));
			const test = `EXISTS (SELECT 1 FROM ${elements} WHERE ${cased('value')} IN (${list.map(() => cased('?')).join(', ')}))`;
			return match === 'anyOf' || match === 'contains' || match === 'equals' ? test : `NOT ${test}`;
		}
		return refuse(
			'A list column takes Is One Of, Is None Of, Contains, Does Not Contain, Is Empty and Is Not Empty (each matches on the elements of the list).',
		);
	}
	switch (match) {
		case 'anyOf':
		case 'noneOf': {
			if (values.length === 1 && values[0] === '' && isText) {
				// like the equality filter: an empty value matches empty cells
				const test = emptyTest(col, type);
				return match === 'anyOf' ? test : `NOT ${test}`;
			}
			const list = values.map((v) => sqlValue(v, type, where));
			args.push(...list);
			const test = `${cased(col)} IN (${list.map(() => cased('?')).join(', ')})`;
			return match === 'anyOf' ? test : `(${col} IS NULL OR NOT ${test})`;
		}
		case 'equals':
			args.push(first());
			return `${cased(col)} = ${cased('?')}`;
		case 'notEquals':
			args.push(first());
			return `${cased(col)} IS NOT ${cased('?')}`;
		case 'gt':
		case 'gte':
		case 'lt':
		case 'lte': {
			if (base === 'Bool') refuse('A toggle takes Equals, Not Equals, Is One Of and Is Empty.');
			const op = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[match];
			args.push(first());
			const guard = isNumber ? `typeof(${col}) IN ('integer', 'real') AND ` : '';
			return `(${guard}${cased(col)} ${op} ${cased('?')})`;
		}
		case 'between': {
			if (base === 'Bool') refuse('A toggle takes Equals, Not Equals, Is One Of and Is Empty.');
			const low = first();
			const highRaw = c.value2;
			if (highRaw === undefined || highRaw === null || highRaw === '') {
				throw new InputError(
					`${where}: the upper bound (To) is empty`,
					'Conditions',
					'Give both bounds: Values is the lower bound, To the upper one (both included).',
				);
			}
			const high = sqlValue(highRaw, type, where);
			args.push(low, high);
			const guard = isNumber ? `typeof(${col}) IN ('integer', 'real') AND ` : '';
			return `(${guard}${cased(col)} BETWEEN ${cased('?')} AND ${cased('?')})`;
		}
		case 'contains':
		case 'notContains':
		case 'startsWith':
		case 'endsWith': {
			if (!isText) refuse('Contains, Starts With and Ends With are for text and choice columns.');
			const v = values.length === 1 ? String(values[0]) : refuse('Give one value.');
			let test: string;
			if (ci) {
				const pattern =
					match === 'startsWith'
						? `${escapeLike(v)}%`
						: match === 'endsWith'
							? `%${escapeLike(v)}`
							: `%${escapeLike(v)}%`;
				args.push(pattern);
				test = `${col} LIKE ? ESCAPE '\\'`;
			} else if (match === 'startsWith') {
				args.push(v, v);
				test = `substr(${col}, 1, length(?)) = ?`;
			} else if (match === 'endsWith') {
				args.push(v, v);
				test = `substr(${col}, -length(?)) = ?`;
				// substr(x, -0) is the whole text: an empty suffix matches every text anyway
			} else {
				args.push(v);
				test = `instr(${col}, ?) > 0`;
			}
			return match === 'notContains' ? `(${col} IS NULL OR NOT (${test}))` : `(${test})`;
		}
		default:
			return refuse('Pick another condition.');
	}
}

/** The ORDER BY terms of the sort rules (Grist's options as far as SQL can follow them). */
function orderSql(
	rules: SortRule[],
	types: Record<string, string>,
	choices: Record<string, string[]>,
	args: Array<string | number | null>,
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
	const args: Array<string | number | null> = [];
	const parts = input.conditions.map((c, i) => conditionSql(c, i, input.types, args));
	const joiner = input.combine === 'or' ? ' OR ' : ' AND ';
	let sql = `SELECT * FROM ${sqlIdentifier(input.tableId)}`;
	if (parts.length > 0) sql += ` WHERE ${parts.map((p) => `(${p})`).join(joiner)}`;
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
