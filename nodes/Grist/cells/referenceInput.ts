/**
 * References as a person types them (Record → Create, Update and Upsert; Get Many's conditions):
 * a Reference cell takes a row ID or the referenced row's shown value (the cell of the column the
 * Reference column shows, its `visibleCol`), a Reference List a list of both. This is the pure
 * part: reading what was typed, the value a name is looked up by, and the verdict on what the
 * lookup found. The rules (docs/REFERENCES.md):
 * - a number, or text of digits only, is a row ID (even where the shown column holds numbers);
 *   empty text, null and 0 clear the reference;
 * - other text is a name: the spaces around it are ignored and it is matched exactly, case
 *   included, with the shown cells, as Grist matches a reference typed in a cell;
 * - in a write, a name no row has or several rows have is refused; a condition takes every row
 *   that has it;
 * - a Reference column that shows the row ID takes row IDs only.
 */
import { encodeCellValue, listItems } from './cellEncoding';
import { CellValueError, baseType, describeValue } from './cellValues';

/** A Reference (List) value that holds names: row IDs and names in the order given. */
export class NamedReference {
	constructor(
		readonly list: boolean,
		readonly parts: ReadonlyArray<number | string>,
	) {}

	/** The names among the parts. */
	names(): string[] {
		const out: string[] = [];
		for (const p of this.parts) if (typeof p === 'string') out.push(p);
		return out;
	}
}

/** The column a Reference column shows, in the referenced table. */
export interface ShownColumn {
	id: string;
	type: string;
	label: string;
}

const DIGITS = /^\d+$/;

/** A row ID from a number or text of digits; `undefined` for a name; `null` for empty. */
function rowIdOf(value: unknown, columnType: string, what: string): number | string | null {
	if (value === null || value === undefined) return null;
	if (typeof value === 'number') {
		if (!Number.isSafeInteger(value) || value < 0)
			throw new CellValueError(value, columnType, `${what} must be a row ID (a whole number)`);
		return value;
	}
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return null;
		if (DIGITS.test(text)) {
			const n = Number(text);
			if (!Number.isSafeInteger(n))
				throw new CellValueError(value, columnType, `${what} must be a row ID (a whole number)`);
			return n;
		}
		return text;
	}
	throw new CellValueError(
		value,
		columnType,
		`${what} must be a row ID or the shown value of the referenced row (text)`,
	);
}

/**
 * A Reference or Reference List value for a write: row IDs as Grist stores them (Ref: the ID, 0
 * for empty; RefList: `["L", …]`, null for empty), or a NamedReference when it holds names. A
 * Reference List takes an array (n8n's or `["L", …]`), a JSON array text or values separated by
 * commas. Throws a CellValueError for what is neither.
 */
export function encodeReferenceInput(value: unknown, columnType: string): unknown {
	if (baseType(columnType) === 'Ref') {
		const part = rowIdOf(value, columnType, 'a reference');
		if (part === null) return 0;
		return typeof part === 'number' ? part : new NamedReference(false, [part]);
	}
	if (value === null || value === undefined) return null;
	const items = listItems(value) ?? (typeof value === 'number' ? [value] : undefined);
	if (items === undefined) {
		throw new CellValueError(
			value,
			columnType,
			'expected row IDs or shown values: a list, a JSON array or values separated by commas',
		);
	}
	const parts: Array<number | string> = [];
	let named = false;
	for (const item of items) {
		const part = rowIdOf(item, columnType, 'each entry');
		if (part === null) continue;
		if (typeof part === 'string') named = true;
		parts.push(part);
	}
	if (parts.length === 0) return null;
	return named ? new NamedReference(true, parts) : ['L', ...parts];
}

/** Shown column types whose cells are text. */
const TEXT_TYPES = new Set(['Text', 'Choice', 'Any']);
/** Shown column types whose cells a name is converted to before the lookup. */
const CONVERTED_TYPES = new Set(['Numeric', 'Int', 'Date', 'DateTime', 'Bool']);

/**
 * The stored value `name` is looked up by in the shown column (text as it is; a number, date or
 * toggle converted as a write would store it), or why it cannot be.
 */
export function nameLookupValue(
	name: string,
	shown: ShownColumn,
): { value: string | number | boolean } | { refused: string } {
	const base = baseType(shown.type);
	if (TEXT_TYPES.has(base)) return { value: name };
	if (CONVERTED_TYPES.has(base)) {
		let value: unknown;
		try {
			value = encodeCellValue(name, shown.type);
		} catch {
			value = undefined;
		}
		if (typeof value === 'number' || typeof value === 'boolean') return { value };
		return {
			refused: `${describeValue(name)} is neither a row ID nor a value of ${shown.label} (${base})`,
		};
	}
	return {
		refused: `${describeValue(name)} is not a row ID, and rows are not found by their ${shown.label} (a ${base} column)`,
	};
}

/** The key of a stored value in the lookup's index (text and numbers apart: "12" is not 12). */
export function lookupKey(value: unknown): string {
	return typeof value === 'string' ? `s${value}` : `v${JSON.stringify(value)}`;
}

/** Row IDs by the key of their shown value (`rows`: what the lookup read, in /records' encoding). */
export function indexRows(
	rows: Iterable<{ id: number; value: unknown }>,
	index: Map<string, number[]> = new Map(),
): Map<string, number[]> {
	for (const { id, value } of rows) {
		if (value === null || typeof value === 'object') continue;
		const key = lookupKey(value);
		const ids = index.get(key);
		if (ids === undefined) index.set(key, [id]);
		else if (!ids.includes(id)) ids.push(id);
	}
	return index;
}

/** What the lookup of one name found: the IDs of the rows that have it, or why it cannot be looked up. */
export type NameFinding = { ids: number[] } | { refused: string };

/** A name of a write that does not give one row. */
export interface NameProblem {
	name: string;
	finding: NameFinding;
}

/**
 * The value of a NamedReference for a write, its names replaced by the one row ID each has;
 * else the names that have no row, several rows or cannot be looked up.
 */
export function resolveNamedReference(
	ref: NamedReference,
	findingOf: (name: string) => NameFinding,
): { value: number | unknown[] } | { problems: NameProblem[] } {
	const ids: number[] = [];
	const problems: NameProblem[] = [];
	for (const part of ref.parts) {
		if (typeof part === 'number') {
			ids.push(part);
			continue;
		}
		const finding = findingOf(part);
		if ('ids' in finding && finding.ids.length === 1) ids.push(finding.ids[0]);
		else if (!problems.some((p) => p.name === part)) problems.push({ name: part, finding });
	}
	if (problems.length > 0) return { problems };
	return { value: ref.list ? ['L', ...ids] : ids[0] };
}

/** `3, 7` (at most 5, then `…`). */
function someIds(ids: number[]): string {
	const sorted = [...ids].sort((a, b) => a - b);
	return sorted.length > 5 ? `${sorted.slice(0, 5).join(', ')}, …` : sorted.join(', ');
}

/**
 * One name's problem in words, e.g. `no row of table "Customers" has Name "Alice"`, `2 rows of
 * table "Customers" have Name "Alice" (rows 3, 7)`.
 */
export function nameProblemText(problem: NameProblem, table: string, shownLabel: string): string {
	const { name, finding } = problem;
	if ('refused' in finding) return finding.refused;
	const value = describeValue(name);
	if (finding.ids.length === 0) return `no row of table "${table}" has ${shownLabel} ${value}`;
	return `${finding.ids.length} rows of table "${table}" have ${shownLabel} ${value} (rows ${someIds(finding.ids)})`;
}

/** The fix of a name's problem. */
function problemFix(problem: NameProblem, shownLabel: string | undefined): string {
	const { finding } = problem;
	if (shownLabel === undefined)
		return 'This Reference column shows the row ID, so it takes row IDs only; to find rows by a name, pick its Show column in Grist.';
	if ('refused' in finding)
		return `Give the row ID, or a value that fits the ${shownLabel} column.`;
	if (finding.ids.length === 0)
		return `Names are matched exactly with the ${shownLabel} of the referenced rows, case included (spaces around the value are ignored). Check the spelling, give the row ID, or add the row first.`;
	return `Give the row ID of the row you mean (e.g. ${Math.min(...finding.ids)}), or make the ${shownLabel} values unique in Grist.`;
}

/**
 * The message and fix of an item refused because names of its Reference (List) column `column`
 * do not give one row each (`shownLabel` undefined: the column shows the row ID).
 */
export function referenceNameText(
	itemIndex: number,
	column: string,
	table: string,
	shownLabel: string | undefined,
	problems: NameProblem[],
): { message: string; description: string } {
	const label = shownLabel ?? 'row ID';
	const parts = problems.map((p) => nameProblemText(p, table, label));
	const fixes = [...new Set(problems.map((p) => problemFix(p, shownLabel)))];
	return {
		message: `Item ${itemIndex}, column "${column}": ${parts.join('; ')}`,
		description: `${fixes.join(' ')} The item is not sent.`,
	};
}
