/**
 * Grist's SQL endpoint: checks made before the request (a read-only SELECT, as
 * many parameters as `?` placeholders, parameters as a list of scalars) and the decoding of the
 * raw SQLite values it answers (Bool 0/1, lists as JSON text of their items, dates as numbers)
 * into what Get Many returns, where the column's type is known.
 */
import { baseType, decodeCellValue } from '../cells/cellValues';
import { InputError, attempt } from '../errors/gristAnswers';

/** A table or column ID as an SQLite identifier: in double quotes, a double quote doubled. */
export function sqlIdentifier(id: string): string {
	return `"${id.replace(/"/g, '""')}"`;
}

/**
 * The statement with the same length, comments blanked out (spaces) and string / quoted
 * identifier literals masked (`x`), so `?`, `;` and keywords are only seen in the SQL itself.
 */
function skeleton(sql: string): string {
	let out = '';
	let i = 0;
	while (i < sql.length) {
		const ch = sql[i];
		let end = -1;
		let mask = ' ';
		if (ch === '-' && sql[i + 1] === '-') {
			const nl = sql.indexOf('\n', i);
			end = nl === -1 ? sql.length : nl;
		} else if (ch === '/' && sql[i + 1] === '*') {
			const close = sql.indexOf('*/', i + 2);
			end = close === -1 ? sql.length : close + 2;
		} else if (ch === "'" || ch === '"' || ch === '`' || ch === '[') {
			const close = ch === '[' ? ']' : ch;
			let j = i + 1;
			while (j < sql.length) {
				if (sql[j] === close) {
					if (close !== ']' && sql[j + 1] === close) j += 2;
					else break;
				} else j++;
			}
			end = Math.min(j + 1, sql.length);
			mask = 'x';
		}
		if (end === -1) {
			out += ch;
			i++;
		} else {
			out += mask.repeat(end - i);
			i = end;
		}
	}
	return out;
}

/** Whether the statement is a SELECT (or WITH … SELECT), the only kind Grist runs. */
export function isSelectStatement(sql: string): boolean {
	return /^\s*(\(\s*)*(select|with)\b/i.test(skeleton(sql));
}

/**
 * The position of a `;` that ends a statement followed by another one (outside strings, quoted
 * identifiers and comments; the `;`, spaces and comments at the very end, which
 * normalizeSqlStatement cuts off, do not count); -1 when there is one statement.
 */
export function secondStatementAt(sql: string): number {
	const code = skeleton(sql);
	let end = code.length;
	while (end > 0 && /[\s;]/.test(code[end - 1])) end--;
	return code.slice(0, end).indexOf(';');
}

type Token = { kind: 'word'; text: string } | { kind: 'group' } | { kind: 'char'; text: string };

/** Tokens at parenthesis depth 0 of a skeleton: words, whole `( … )` groups, other characters. */
function topLevelTokens(code: string): Token[] {
	const out: Token[] = [];
	let i = 0;
	while (i < code.length) {
		const ch = code[i];
		if (/\s/.test(ch)) {
			i++;
		} else if (/[A-Za-z0-9_$]/.test(ch)) {
			let j = i;
			while (j < code.length && /[A-Za-z0-9_$]/.test(code[j])) j++;
			out.push({ kind: 'word', text: code.slice(i, j).toLowerCase() });
			i = j;
		} else if (ch === '(') {
			let depth = 0;
			let j = i;
			for (; j < code.length; j++) {
				if (code[j] === '(') depth++;
				else if (code[j] === ')' && --depth === 0) break;
			}
			out.push({ kind: 'group' });
			i = j + 1;
		} else {
			out.push({ kind: 'char', text: ch });
			i++;
		}
	}
	return out;
}

/**
 * The first keyword of the main statement of a `WITH … ` query (after its common table
 * expressions: `name [(columns)] AS [NOT] [MATERIALIZED] ( … )`, separated by commas), in lower
 * case; undefined when the statement does not start with WITH or cannot be read that way (SQLite
 * would then refuse it as a syntax error).
 */
export function mainStatementAfterWith(sql: string): string | undefined {
	const tokens = topLevelTokens(skeleton(sql).replace(/^[\s(]+/, ''));
	let i = 0;
	const word = (w?: string) => {
		const t = tokens[i];
		return t?.kind === 'word' && (w === undefined || t.text === w);
	};
	if (!word('with')) return undefined;
	i++;
	if (word('recursive')) i++;
	for (;;) {
		if (!word()) return undefined; // the name (a quoted one is masked as xxx)
		i++;
		if (tokens[i]?.kind === 'group') i++; // its column names
		if (!word('as')) return undefined;
		i++;
		if (word('not')) i++;
		if (word('materialized')) i++;
		if (tokens[i]?.kind !== 'group') return undefined;
		i++;
		const next = tokens[i];
		if (next?.kind === 'char' && next.text === ',') {
			i++;
			continue;
		}
		return next?.kind === 'word' ? next.text : undefined;
	}
}

/** The number of `?` placeholders (outside strings and comments). */
export function countPlaceholders(sql: string): number {
	return (skeleton(sql).match(/\?/g) ?? []).length;
}

export type SqlArg = string | number | null;

function toArg(value: unknown, position: number): SqlArg {
	if (value === null || value === undefined) return null;
	if (typeof value === 'string') return value;
	if (typeof value === 'number') {
		if (!Number.isFinite(value))
			throw new InputError(
				`Parameter ${position} is not a finite number`,
				'Parameters',
				'Give numbers, texts, true/false or null.',
			);
		return value;
	}
	if (typeof value === 'boolean') return value ? 1 : 0;
	if (value instanceof Date) {
		if (isNaN(value.getTime()))
			throw new InputError(`Parameter ${position} is an invalid date`, 'Parameters');
		return value.getTime() / 1000;
	}
	const maybe = value as { toMillis?: () => number; isValid?: boolean };
	if (typeof maybe.toMillis === 'function' && maybe.isValid !== false)
		return maybe.toMillis() / 1000;
	throw new InputError(
		`Parameter ${position} is ${Array.isArray(value) ? 'a list' : 'an object'}, not a single value`,
		'Parameters',
		'Each parameter is one value: a number, a text, true/false, null or a date (sent as epoch seconds, as Grist stores dates).',
	);
}

/**
 * The parameters: an array, a JSON array text, or empty. Booleans become 1/0 and dates epoch
 * seconds (Grist's storage). Anything else is an InputError: values are bound, never spliced.
 */
export function parseSqlArgs(raw: unknown): SqlArg[] {
	let list: unknown = raw;
	if (raw === undefined || raw === null || raw === '') return [];
	if (typeof raw === 'string') {
		const text = raw.trim();
		if (text === '') return [];
		const parsed = attempt(() => JSON.parse(text) as unknown);
		if (parsed.error) {
			throw new InputError(
				`The Parameters are not a JSON array: ${parsed.error.message}`,
				'Parameters',
				'Give the values as a JSON array, e.g. ["Open", 10], or an expression returning an array.',
			);
		}
		list = parsed.value;
	}
	if (!Array.isArray(list)) {
		throw new InputError(
			'The Parameters must be a list',
			'Parameters',
			'Give the values as a JSON array, e.g. ["Open", 10], one per ? in the query.',
		);
	}
	return list.map((v, i) => toArg(v, i + 1));
}

/**
 * The statement as Grist can run it: Grist strips one `;` at the very end and wraps the rest in
 * `select * from (…)`: trailing `;`, spaces and comments (a last `--` comment would hide the
 * closing parenthesis) are cut off here.
 */
export function normalizeSqlStatement(sql: string): string {
	const code = skeleton(sql);
	let end = code.length;
	while (end > 0 && /[\s;]/.test(code[end - 1])) end--;
	return sql.slice(0, end).trimStart();
}

/** Checks the statement and its parameters before the request. */
export function checkSqlQuery(sql: string, args: SqlArg[]): void {
	if (sql.trim() === '') {
		throw new InputError('The Query is empty', 'Query', 'Enter a SELECT statement.');
	}
	if (!isSelectStatement(sql)) {
		throw new InputError(
			'Only SELECT statements can be run: Grist refuses others',
			'Query',
			'SQL is read-only in Grist. To change data, use the Record operations.',
		);
	}
	const second = secondStatementAt(sql);
	if (second !== -1) {
		throw new InputError(
			`The Query holds more than one statement (a ; at character ${second + 1} is followed by more SQL): Grist runs a single SELECT`,
			'Query',
			'Keep one SELECT statement: remove the ; and what follows it (a single ; at the very end is fine). To change data, use the Record operations.',
		);
	}
	const main = mainStatementAfterWith(sql);
	if (main !== undefined && main !== 'select' && main !== 'values') {
		throw new InputError(
			`The statement after WITH is ${/^[aeiou]/.test(main) ? 'an' : 'a'} ${main.toUpperCase()}, not a SELECT: only SELECT statements can be run`,
			'Query',
			'SQL is read-only in Grist: after WITH … AS (…) write a SELECT. To change data, use the Record operations.',
		);
	}
	const placeholders = countPlaceholders(sql);
	if (placeholders !== args.length) {
		throw new InputError(
			`The query has ${placeholders} placeholder${placeholders === 1 ? '' : 's'} (?) but ${args.length} parameter${args.length === 1 ? ' was' : 's were'} given`,
			'Parameters',
			'Give one parameter per ? in the query, in order.',
		);
	}
}

/** Names that follow FROM or JOIN (quoted or not): the tables a query may read. */
export function referencedTables(sql: string): string[] {
	const out = new Set<string>();
	const re =
		/\b(?:from|join)\s+(?:"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_]*))/gi;
	for (const m of sql.matchAll(re)) out.add((m[1]?.replace(/""/g, '"') ?? m[2] ?? m[3] ?? m[4])!);
	return [...out];
}

/** A raw SQLite value as Grist's `/records` gives it for the column type. */
export function sqlToCellValue(value: unknown, columnType: string | undefined): unknown {
	const type = baseType(columnType);
	if (value === null || value === undefined) return value ?? null;
	switch (type) {
		case 'Bool':
			return value === 1 ? true : value === 0 ? false : value;
		case 'ChoiceList':
		case 'RefList':
		case 'Attachments': {
			if (typeof value !== 'string') return value;
			if (value === '') return null;
			try {
				const parsed = JSON.parse(value) as unknown;
				return Array.isArray(parsed) ? ['L', ...parsed] : value;
			} catch {
				return value;
			}
		}
		default:
			return value;
	}
}

/** A raw SQLite value decoded like Simplify does (dates as ISO text, lists as arrays). */
export function decodeSqlValue(value: unknown, columnType: string | undefined): unknown {
	if (columnType === undefined) return value;
	return decodeCellValue(sqlToCellValue(value, columnType), columnType);
}

/**
 * Column types by result column name, for the tables a query reads: a name with one type in all
 * of them is decoded; a name with different types in two tables, or none, is left as it is.
 */
export function resultColumnTypes(
	tables: Array<{ id: string; columns: Array<{ id: string; type: string }> }>,
	referenced: string[],
): Record<string, string> {
	const wanted = new Set(referenced.map((t) => t.toLowerCase()));
	const types: Record<string, string> = {};
	const conflicting = new Set<string>();
	for (const t of tables) {
		if (!wanted.has(t.id.toLowerCase())) continue;
		for (const c of t.columns) {
			if (c.id in types && types[c.id] !== c.type) conflicting.add(c.id);
			else types[c.id] = c.type;
		}
	}
	for (const id of conflicting) delete types[id];
	return types;
}

/** Row IDs (whole numbers ≥ 1 only, checked) as the JSON array of a `/sql` `json_each(?)` argument. */
export function sqlIdList(ids: number[]): string {
	for (const id of ids)
		if (!(Number.isInteger(id) && id >= 1)) throw new Error(`Not a row ID: ${String(id)}`);
	return `[${ids.join(',')}]`;
}
