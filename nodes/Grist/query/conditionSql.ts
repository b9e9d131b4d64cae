/**
 * One Record → Get Many condition as an SQL test for Grist's /sql: the column and match checked
 * against the table's column types, the values encoded for the column (bound as `?`, never
 * spliced), one builder per family of matches (lists, Is One Of, ranges, text matches).
 */
import { encodeCellValue } from '../cells/cellEncoding';
import { CellValueError, baseType } from '../cells/cellValues';
import { InputError, attempt } from '../errors/gristAnswers';
import { conditionValues } from './filters';
import { sqlIdentifier } from './sqlQuery';

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

export const LIST_TYPES = new Set(['ChoiceList', 'RefList', 'Attachments']);
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

/** Encodes one value for a comparison with a column of `type` (a list column: one element). */
export function sqlValue(value: unknown, type: string, where: string): string | number | null {
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

export type SqlArgs = Array<string | number | null>;

/** A checked condition: its column, type and match, and what its SQL is built from. */
export interface CheckedCondition {
	condition: Condition;
	column: string;
	type: string;
	base: string;
	match: ConditionMatch;
	/** `Condition 2 (Price Greater Than)`: how messages name the condition. */
	where: string;
	/** The column as an SQL identifier. */
	col: string;
	isNumber: boolean;
	isText: boolean;
}

/** Checks a condition's column and match against the table's column types. */
export function checkCondition(
	c: Condition,
	index: number,
	types: Record<string, string>,
): CheckedCondition {
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
	const base = baseType(type);
	return {
		condition: c,
		column,
		type,
		base,
		match,
		where: `Condition ${index + 1} (${column} ${label})`,
		col: sqlIdentifier(column),
		isNumber: NUMBER_TYPES.has(base) || column === 'id',
		isText: TEXT_TYPES.has(base),
	};
}

/** The condition's match is not available for its column type: `what` says what is. */
function refuse(c: CheckedCondition, what: string): never {
	throw new InputError(`${c.where}: not available for a ${c.type} column`, 'Conditions', what);
}

/** The one value of a condition that takes one, encoded for its column. */
function singleValue(c: CheckedCondition, values: unknown[]): string | number | null {
	if (values.length !== 1) {
		throw new InputError(
			`${c.where}: give exactly one value, not ${values.length}`,
			'Conditions',
			'Give one value in Values (a JSON array only for Is One Of / Is None Of).',
		);
	}
	if (values[0] === '' && !c.isText) {
		throw new InputError(
			`${c.where}: the value is empty`,
			'Conditions',
			'Give a value, or use Is Empty.',
		);
	}
	return sqlValue(values[0], c.type, c.where);
}

/** `lower(expr)` when the condition ignores case, else `expr`. */
type Cased = (expr: string) => string;

const LIST_MATCHES = new Set(['anyOf', 'noneOf', 'contains', 'notContains', 'equals', 'notEquals']);

/** A condition on a list column (Choice List, Reference List, Attachments): on its elements. */
function listConditionSql(
	c: CheckedCondition,
	values: unknown[],
	cased: Cased,
	args: SqlArgs,
): string {
	const { match, col } = c;
	if (!LIST_MATCHES.has(match)) {
		return refuse(
			c,
			'A list column takes Is One Of, Is None Of, Contains, Does Not Contain, Is Empty and Is Not Empty (each matches on the elements of the list).',
		);
	}
	const elements = `json_each(CASE WHEN json_valid(${col}) THEN ${col} ELSE '[]' END)`;
	const list =
		match === 'anyOf' || match === 'noneOf'
			? values.filter((v) => v !== '')
			: [values.length === 1 ? values[0] : refuse(c, 'Give one value.')];
	if (list.length === 0)
		throw new InputError(
			`${c.where}: no value given`,
			'Conditions',
			'Give one or more values, or use Is Empty.',
		);
	for (const v of list) args.push(sqlValue(v, c.type, c.where));
	const test = `EXISTS (SELECT 1 FROM ${elements} WHERE ${cased('value')} IN (${list.map(() => cased('?')).join(', ')}))`;
	return match === 'anyOf' || match === 'contains' || match === 'equals' ? test : `NOT ${test}`;
}

/** Is One Of / Is None Of on a column that is not a list. */
function oneOfSql(c: CheckedCondition, values: unknown[], cased: Cased, args: SqlArgs): string {
	const { match, col, type } = c;
	if (values.length === 1 && values[0] === '' && c.isText) {
		// like the equality filter: an empty value matches empty cells
		const test = emptyTest(col, type);
		return match === 'anyOf' ? test : `NOT ${test}`;
	}
	const list = values.map((v) => sqlValue(v, type, c.where));
	args.push(...list);
	const test = `${cased(col)} IN (${list.map(() => cased('?')).join(', ')})`;
	return match === 'anyOf' ? test : `(${col} IS NULL OR NOT ${test})`;
}

/** Greater / Less Than (or Equal) and Between: numbers only compared with numbers. */
function rangeSql(c: CheckedCondition, values: unknown[], cased: Cased, args: SqlArgs): string {
	const { match, col } = c;
	if (c.base === 'Bool') refuse(c, 'A toggle takes Equals, Not Equals, Is One Of and Is Empty.');
	const guard = c.isNumber ? `typeof(${col}) IN ('integer', 'real') AND ` : '';
	if (match !== 'between') {
		const op = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[match as 'gt' | 'gte' | 'lt' | 'lte'];
		args.push(singleValue(c, values));
		return `(${guard}${cased(col)} ${op} ${cased('?')})`;
	}
	const low = singleValue(c, values);
	const highRaw = c.condition.value2;
	if (highRaw === undefined || highRaw === null || highRaw === '') {
		throw new InputError(
			`${c.where}: the upper bound (To) is empty`,
			'Conditions',
			'Give both bounds: Values is the lower bound, To the upper one (both included).',
		);
	}
	const high = sqlValue(highRaw, c.type, c.where);
	args.push(low, high);
	return `(${guard}${cased(col)} BETWEEN ${cased('?')} AND ${cased('?')})`;
}

/** Contains / Does Not Contain / Starts With / Ends With, on text and choice columns. */
function textMatchSql(
	c: CheckedCondition,
	values: unknown[],
	ignoreCase: boolean,
	args: SqlArgs,
): string {
	const { match, col } = c;
	if (!c.isText) refuse(c, 'Contains, Starts With and Ends With are for text and choice columns.');
	const v = values.length === 1 ? String(values[0]) : refuse(c, 'Give one value.');
	let test: string;
	if (ignoreCase) {
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

/** One condition as SQL, its arguments appended to `args`. */
export function conditionSql(
	condition: Condition,
	index: number,
	types: Record<string, string>,
	args: SqlArgs,
): string {
	const c = checkCondition(condition, index, types);
	const { match, col, type, base } = c;
	if ((match === 'isEmpty' || match === 'isNotEmpty') && c.column === 'id') {
		throw new InputError(
			`${c.where}: the row ID (id) is never empty`,
			'Conditions',
			'Pick another column, or remove the condition.',
		);
	}
	if (match === 'isEmpty') return emptyTest(col, type);
	if (match === 'isNotEmpty') return `NOT ${emptyTest(col, type)}`;
	const values = conditionValues(condition.values);
	const ci = Boolean(condition.ignoreCase) && (c.isText || base === 'ChoiceList');
	const cased = (expr: string) => (ci ? `lower(${expr})` : expr);
	if (LIST_TYPES.has(base)) return listConditionSql(c, values, cased, args);
	switch (match) {
		case 'anyOf':
		case 'noneOf':
			return oneOfSql(c, values, cased, args);
		case 'equals':
			args.push(singleValue(c, values));
			return `${cased(col)} = ${cased('?')}`;
		case 'notEquals':
			args.push(singleValue(c, values));
			return `${cased(col)} IS NOT ${cased('?')}`;
		case 'gt':
		case 'gte':
		case 'lt':
		case 'lte':
		case 'between':
			return rangeSql(c, values, cased, args);
		case 'contains':
		case 'notContains':
		case 'startsWith':
		case 'endsWith':
			return textMatchSql(c, values, ci, args);
		default:
			return refuse(c, 'Pick another condition.');
	}
}
