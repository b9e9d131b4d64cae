/**
 * Grist cell values → what n8n users work with, and the column types both directions share.
 *
 * Reading (decode): Date → 'YYYY-MM-DD', DateTime → ISO string (UTC), `["L", …]` → array, typed
 * codes (`["d",…]`, `["D",…]`, `["R",…]`, `["r",…]`) unwrapped; everything else as it is.
 * Writing (encode) is cellEncoding.ts, which throws the CellValueError defined here.
 */
import type { IDataObject } from 'n8n-workflow';

import { InputError } from '../errors/gristAnswers';

/** The base of a Grist column type: `DateTime:America/New_York` → `DateTime`, `Ref:People` → `Ref`. */
export function baseType(columnType: string | undefined): string {
	if (!columnType) return 'Any';
	const colon = columnType.indexOf(':');
	return colon === -1 ? columnType : columnType.slice(0, colon);
}

/** The part after the colon: the time zone of a DateTime, the table of a Ref/RefList. */
export function typeArgument(columnType: string | undefined): string | undefined {
	if (!columnType) return undefined;
	const colon = columnType.indexOf(':');
	return colon === -1 ? undefined : columnType.slice(colon + 1);
}

/**
 * A value that cannot be stored in a column of the given type: an InputError that keeps the
 * value, the type and what was expected, which callers word into their own message (a
 * condition's, a record field's); the field it is about is only known to them.
 */
export class CellValueError extends InputError {
	constructor(
		readonly value: unknown,
		readonly columnType: string,
		readonly expected: string,
	) {
		super(`The value ${describeValue(value)} does not fit a ${columnType} column: ${expected}`);
	}
}

export function describeValue(value: unknown): string {
	if (typeof value === 'string')
		return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
	if (value instanceof Date)
		return `date ${isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()}`;
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

/** Epoch seconds → `YYYY-MM-DD` (UTC, as Grist stores dates at UTC midnight). */
export function epochToIsoDate(seconds: number): string {
	const d = new Date(seconds * 1000);
	const year = d.getUTCFullYear();
	const y = year < 0 ? `-${pad(-year, 6)}` : year > 9999 ? `+${pad(year, 6)}` : pad(year, 4);
	return `${y}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Epoch seconds → ISO 8601 in UTC, e.g. `2024-01-10T15:30:00.000Z`. */
export function epochToIsoDateTime(seconds: number): string {
	return new Date(seconds * 1000).toISOString();
}

export function isFiniteNumber(v: unknown): v is number {
	return typeof v === 'number' && Number.isFinite(v);
}

/** Decodes one cell value as Grist returns it, for n8n output. */
export function decodeCellValue(value: unknown, columnType?: string): unknown {
	if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'string') {
		const code = value[0];
		switch (code) {
			case 'L':
				return value.slice(1);
			case 'd':
				return isFiniteNumber(value[1]) ? epochToIsoDate(value[1]) : value[1];
			case 'D':
				return isFiniteNumber(value[1]) ? epochToIsoDateTime(value[1]) : value[1];
			case 'R':
				return value[2];
			case 'r':
				return Array.isArray(value[2]) ? value[2] : value;
			default:
				return value;
		}
	}
	if (!isFiniteNumber(value)) return value;
	// Only Date and DateTime columns turn numbers into text (one character compared first).
	if (!isDateType(columnType)) return value;
	switch (baseType(columnType)) {
		case 'Date':
			return epochToIsoDate(value);
		case 'DateTime':
			return epochToIsoDateTime(value);
		default:
			return value;
	}
}

export interface GristRecord {
	id: number;
	fields: Record<string, unknown>;
	errors?: Record<string, unknown>;
}

/**
 * `{ id, fields, errors? }` → `{ id, ...decoded fields }`, formula errors kept under `errors`.
 * The spread copies the parsed fields on V8's fast path; then only the cells whose encoding
 * differs from what n8n shows are replaced: lists and typed codes (any column can hold them,
 * e.g. Any, or a censored cell), and numbers of Date and DateTime columns. This is cheaper than
 * the cell-by-cell copy of `simplifyFields` (docs/PERFORMANCE.md has the measurement).
 */
export function simplifyRecord(
	record: GristRecord,
	columnTypes?: Record<string, string>,
): IDataObject {
	const fields = record.fields;
	const out: IDataObject = { id: record.id, ...fields } as IDataObject;
	for (const key in fields) {
		const value = fields[key];
		if (
			typeof value === 'object'
				? value !== null
				: typeof value === 'number' && isDateType(columnTypes?.[key])
		)
			out[key] = decodeCellValue(value, columnTypes?.[key]) as IDataObject[string];
	}
	if (record.errors && Object.keys(record.errors).length > 0) {
		out.errors = record.errors as IDataObject;
	}
	return out;
}

/** Date or DateTime (a first-letter test: no other Grist type starts with D). */
function isDateType(columnType: string | undefined): boolean {
	return columnType !== undefined && columnType.charCodeAt(0) === 68; /* D */
}

/** `{ id, ...decoded fields }`: `simplifyRecord` of a record without formula errors. */
export function simplifyFields(
	id: unknown,
	fields: Record<string, unknown> | undefined,
	columnTypes?: Record<string, string>,
): IDataObject {
	const out: IDataObject = { id: id as IDataObject[string] };
	if (!fields) return out;
	const keys = Object.keys(fields);
	for (let k = 0; k < keys.length; k++) {
		const key = keys[k];
		const value = fields[key];
		// Text, booleans and null decode to themselves.
		out[key] = (
			typeof value === 'string' || typeof value === 'boolean' || value === null
				? value
				: decodeCellValue(value, columnTypes?.[key])
		) as IDataObject[string];
	}
	return out;
}
