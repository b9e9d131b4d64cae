/**
 * Filters and sorts for `GET …/records` and `…/data`: a typed filter builder, a
 * JSON-filter parser that catches malformed input before the request (Grist answers 500), and
 * a sort builder with Grist's real options (`naturalSort`, `emptyLast`, `orderByChoice`).
 */
import { encodeCellValue } from '../cells/cellEncoding';
import { CellValueError, baseType } from '../cells/cellValues';
import { InputError } from '../errors/gristAnswers';

export type GristFilter = Record<string, unknown[]>;

/** How a builder condition matches: the cell equals one of the values (the default), or is empty. */
export type FilterMatch = 'anyOf' | 'isEmpty';

export interface FilterCondition {
	column: string;
	/** Absent in conditions saved before the option existed: `anyOf`. */
	match?: FilterMatch | string;
	/** One value, an array, a JSON array string or comma-separated values (ignored for `isEmpty`). */
	values?: unknown;
}

/**
 * The values Grist stores in an empty cell of a column type, for "Is Empty": empty text (or none)
 * for Text, Choice and untyped columns, row 0 for a reference, no value for the other types.
 */
export function emptyCellValues(columnType: string | undefined): unknown[] {
	const type = columnType === undefined ? 'Any' : baseType(columnType);
	if (type === 'Text' || type === 'Choice' || type === 'Any') return ['', null];
	if (type === 'Ref') return [0];
	return [null];
}

/** Splits the Values of a condition: arrays as they are, a JSON array, or comma-separated text. */
export function conditionValues(values: unknown): unknown[] {
	if (Array.isArray(values)) return values;
	if (typeof values === 'string') {
		const text = values.trim();
		if (text.startsWith('[')) {
			try {
				const parsed = JSON.parse(text) as unknown;
				if (Array.isArray(parsed)) return parsed;
			} catch {
				// not JSON: comma-separated
			}
		}
		if (text === '') return [''];
		return text.split(',').map((s) => s.trim());
	}
	return [values];
}

/** Encodes a filter value so it equals what Grist stores (Date → epoch seconds, Ref → row id…). */
export function encodeFilterValue(value: unknown, columnType: string | undefined): unknown {
	if (columnType === undefined) return value;
	const type = baseType(columnType);
	if (type === 'Ref') {
		if (value === '' || value === null || value === undefined) return 0;
		const n = typeof value === 'number' ? value : Number(String(value).trim());
		if (!Number.isInteger(n) || n < 0) {
			throw new CellValueError(
				value,
				columnType,
				'filter a reference column by row ID (a whole number)',
			);
		}
		return n;
	}
	if (type === 'Any') return value;
	return encodeCellValue(value, columnType);
}

function tryEncode(
	value: unknown,
	type: string | undefined,
): { value?: unknown; error?: CellValueError } {
	try {
		return { value: encodeFilterValue(value, type) };
	} catch (error) {
		if (error instanceof CellValueError) return { error };
		return { error: new CellValueError(value, type ?? 'Any', (error as Error).message) };
	}
}

/**
 * Builds Grist's filter object from builder conditions. Keys are ANDed by Grist, values of one
 * key ORed; conditions on the same column are merged (their values ORed).
 */
export function buildFilter(
	conditions: FilterCondition[],
	columnTypes: Record<string, string> = {},
): GristFilter {
	const filter: GristFilter = {};
	conditions.forEach((condition, index) => {
		const column = String(condition.column ?? '').trim();
		if (column === '') {
			throw new InputError(
				`Filter condition ${index + 1} has no column`,
				'Conditions',
				'Pick a column for every condition or remove it.',
			);
		}
		const type = column === 'id' ? 'Int' : columnTypes[column];
		if (condition.match === 'isEmpty') {
			if (column === 'id') {
				throw new InputError(
					`Filter condition ${index + 1}: the row ID (id) is never empty`,
					'Conditions',
					'Pick another column, or remove the condition.',
				);
			}
			filter[column] = [...(filter[column] ?? []), ...emptyCellValues(type)];
			return;
		}
		const values = conditionValues(condition.values).map((v) => {
			const encoded = tryEncode(v, type);
			if (encoded.error) {
				throw new InputError(
					`Filter on column "${column}": ${encoded.error.message}`,
					'Conditions',
				);
			}
			return encoded.value;
		});
		filter[column] = [...(filter[column] ?? []), ...values];
	});
	return filter;
}

/** Parses a raw JSON filter `{"col": [v1, v2]}`; throws an InputError for anything Grist would reject. */
export function parseJsonFilter(input: unknown, field = 'Filter (JSON)'): GristFilter {
	let value: unknown = input;
	if (typeof input === 'string') {
		const text = input.trim();
		if (text === '') return {};
		let syntaxError: string | undefined;
		try {
			value = JSON.parse(text);
		} catch (error) {
			syntaxError = (error as Error).message;
		}
		if (syntaxError !== undefined) {
			throw new InputError(
				`The ${field} is not valid JSON: ${syntaxError}`,
				field,
				'Write an object whose keys are column IDs and whose values are arrays, e.g. {"Status": ["Open", "Done"], "Age": [30]}.',
			);
		}
	}
	if (value === null || value === undefined) return {};
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw new InputError(
			`The ${field} must be a JSON object, e.g. {"Status": ["Open"]}`,
			field,
			'Keys are column IDs, values are arrays of the values to match.',
		);
	}
	const out: GristFilter = {};
	for (const [key, values] of Object.entries(value as Record<string, unknown>)) {
		if (!Array.isArray(values)) {
			throw new InputError(
				`The ${field} value for column "${key}" must be an array, e.g. {"${key}": [${JSON.stringify(values) ?? 'null'}]}`,
				field,
			);
		}
		out[key] = values;
	}
	return out;
}

export interface SortRule {
	column: string;
	direction?: 'asc' | 'desc';
	naturalSort?: boolean;
	emptyLast?: boolean;
	orderByChoice?: boolean;
}

/** `[{column:'Name'},{column:'Age',direction:'desc',emptyLast:true}]` → `Name,-Age:emptyLast`. */
export function buildSort(rules: SortRule[]): string {
	return rules
		.map((rule, index) => {
			const column = String(rule.column ?? '').trim();
			if (column === '') {
				throw new InputError(
					`Sort rule ${index + 1} has no column`,
					'Sort',
					'Pick a column for every sort rule or remove it.',
				);
			}
			const options = [
				rule.naturalSort ? 'naturalSort' : '',
				rule.emptyLast ? 'emptyLast' : '',
				rule.orderByChoice ? 'orderByChoice' : '',
			].filter((o) => o !== '');
			return `${rule.direction === 'desc' ? '-' : ''}${column}${options.length ? `:${options.join(';')}` : ''}`;
		})
		.join(',');
}
