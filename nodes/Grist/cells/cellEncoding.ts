/**
 * What n8n users give → Grist cell values: ISO strings / JS Dates / luxon DateTimes → epoch
 * seconds, arrays → `["L", …]` for list columns, Ref by row id, and a CellValueError for a value
 * that cannot fit the column.
 */
import { CellValueError, baseType, isFiniteNumber, typeArgument } from './cellValues';

interface LuxonLike {
	isLuxonDateTime: true;
	isValid: boolean;
	toMillis(): number;
	year: number;
	month: number;
	day: number;
}

function isLuxon(value: unknown): value is LuxonLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	);
}

const ISO_DATE = /^([+-]?\d{4,6})-(\d{2})-(\d{2})$/;
const ISO_DATE_PREFIX = /^([+-]?\d{4,6})-(\d{2})-(\d{2})(?=[T ])/;
const ISO_DATETIME =
	/^([+-]?\d{4,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function validYmd(y: number, m: number, d: number): boolean {
	if (m < 1 || m > 12 || d < 1 || d > 31) return false;
	const t = new Date(Date.UTC(y, m - 1, d));
	return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function utcMidnight(y: number, m: number, d: number): number {
	const t = new Date(Date.UTC(2000, m - 1, d));
	t.setUTCFullYear(y);
	return t.getTime() / 1000;
}

/** Offset (ms) of `timeZone` from UTC at the instant `utcMs`; 0 for unknown zones. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
	let fmt: Intl.DateTimeFormat;
	try {
		fmt = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
	} catch {
		return 0;
	}
	const parts: Record<string, number> = {};
	for (const p of fmt.formatToParts(new Date(utcMs))) {
		if (p.type !== 'literal') parts[p.type] = Number(p.value);
	}
	const asUtc = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour,
		parts.minute,
		parts.second,
	);
	return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** Wall-clock time in `timeZone` → epoch ms (two passes handle DST edges). */
function zonedToUtcMs(wallAsUtcMs: number, timeZone: string | undefined): number {
	if (!timeZone || timeZone === 'UTC') return wallAsUtcMs;
	let guess = wallAsUtcMs - zoneOffsetMs(wallAsUtcMs, timeZone);
	guess = wallAsUtcMs - zoneOffsetMs(guess, timeZone);
	return guess;
}

function parseDateTimeString(text: string, timeZone: string | undefined): number | undefined {
	const m = ISO_DATETIME.exec(text.trim());
	if (!m) return undefined;
	const [, ys, mos, ds, hs, mis, ss, frac, offset] = m;
	const y = Number(ys);
	const mo = Number(mos);
	const d = Number(ds);
	if (!validYmd(y, mo, d)) return undefined;
	const h = hs === undefined ? 0 : Number(hs);
	const mi = mis === undefined ? 0 : Number(mis);
	const s = ss === undefined ? 0 : Number(ss);
	if (h > 23 || mi > 59 || s > 59) return undefined;
	const ms = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
	const wall = utcMidnight(y, mo, d) * 1000 + ((h * 60 + mi) * 60 + s) * 1000 + ms;
	if (offset === undefined) return zonedToUtcMs(wall, timeZone) / 1000;
	if (offset.toUpperCase() === 'Z') return wall / 1000;
	const sign = offset[0] === '-' ? -1 : 1;
	const digits = offset.slice(1).replace(':', '');
	const offMin =
		Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2)) : 0);
	return (wall - sign * offMin * 60_000) / 1000;
}

/** `2024-01-31` (or a date-time on that day) → epoch seconds of its UTC midnight. */
function parseDateString(value: string): number | undefined {
	const text = value.trim();
	const m = ISO_DATE.exec(text) ?? ISO_DATE_PREFIX.exec(text);
	if (!m) return undefined;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	if (validYmd(y, mo, d) && (ISO_DATE.test(text) || parseDateTimeString(text, 'UTC') !== undefined))
		return utcMidnight(y, mo, d);
	return undefined;
}

/**
 * Epoch seconds of a value for a Date (`dateOnly`: its day at UTC midnight) or DateTime column;
 * undefined when the value is not a date.
 */
function epochSeconds(value: unknown, columnType: string, dateOnly: boolean): number | undefined {
	if (isFiniteNumber(value)) return value;
	if (isLuxon(value)) {
		if (!value.isValid) return undefined;
		return dateOnly ? utcMidnight(value.year, value.month, value.day) : value.toMillis() / 1000;
	}
	if (value instanceof Date) {
		if (isNaN(value.getTime())) return undefined;
		return dateOnly
			? utcMidnight(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate())
			: value.getTime() / 1000;
	}
	if (typeof value === 'string')
		return dateOnly ? parseDateString(value) : parseDateTimeString(value, typeArgument(columnType));
	return undefined;
}

/** A Date (`dateOnly`) or DateTime cell: epoch seconds, or a CellValueError saying what fits. */
function encodeMoment(value: unknown, columnType: string, dateOnly: boolean): number {
	const seconds = epochSeconds(value, columnType, dateOnly);
	if (seconds !== undefined) return seconds;
	throw new CellValueError(
		value,
		columnType,
		dateOnly
			? 'use a date like 2024-01-31, an n8n DateTime or epoch seconds'
			: 'use an ISO date-time like 2024-01-31T14:30:00Z, an n8n DateTime or epoch seconds',
	);
}

function toNumber(value: unknown): number | undefined {
	if (isFiniteNumber(value)) return value;
	if (typeof value === 'string' && value.trim() !== '') {
		const n = Number(value.trim());
		if (Number.isFinite(n)) return n;
	}
	return undefined;
}

function toRowId(value: unknown, columnType: string, what: string): number {
	const n = toNumber(value);
	if (n === undefined || !Number.isInteger(n) || n < 0) {
		throw new CellValueError(value, columnType, `${what} must be a row ID (a whole number)`);
	}
	return n;
}

/** A list value from an array, a `["L",…]` list, a JSON array string or a comma-separated string. */
export function listItems(value: unknown): unknown[] | undefined {
	if (Array.isArray(value)) return value[0] === 'L' ? value.slice(1) : value;
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return [];
		if (text.startsWith('[')) {
			try {
				const parsed = JSON.parse(text) as unknown;
				if (Array.isArray(parsed)) return parsed[0] === 'L' ? parsed.slice(1) : parsed;
			} catch {
				// not JSON: treat as comma-separated
			}
		}
		return text
			.split(',')
			.map((s) => s.trim())
			.filter((s) => s !== '');
	}
	return undefined;
}

function isPlainObject(value: unknown): boolean {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		!(value instanceof Date) &&
		!isLuxon(value)
	);
}

function encodeText(value: unknown, columnType: string): unknown {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		return String(value);
	if (isLuxon(value)) return (value as unknown as { toISO(): string }).toISO();
	if (value instanceof Date && !isNaN(value.getTime())) return value.toISOString();
	throw new CellValueError(value, columnType, 'expected text');
}

function encodeNumeric(value: unknown, columnType: string): unknown {
	if (value === '') return null;
	const n = toNumber(value);
	if (n === undefined) throw new CellValueError(value, columnType, 'expected a number');
	return n;
}

function encodeInt(value: unknown, columnType: string): unknown {
	if (value === '') return null;
	const n = toNumber(value);
	if (n === undefined || !Number.isInteger(n)) {
		throw new CellValueError(value, columnType, 'expected a whole number');
	}
	return n;
}

function encodeBool(value: unknown, columnType: string): unknown {
	if (typeof value === 'boolean') return value;
	if (value === 0 || value === 1) return value === 1;
	if (typeof value === 'string') {
		const t = value.trim().toLowerCase();
		if (t === '') return null;
		if (['true', 'yes', 'y', 'on', '1'].includes(t)) return true;
		if (['false', 'no', 'n', 'off', '0'].includes(t)) return false;
	}
	throw new CellValueError(value, columnType, 'expected true or false');
}

function encodeRef(value: unknown, columnType: string): unknown {
	if (value === '') return 0;
	const n = toNumber(value);
	if (n !== undefined) return toRowId(n, columnType, 'a reference');
	if (typeof value === 'string') return value; // looked up by Grist via the visible column
	throw new CellValueError(value, columnType, 'a reference must be a row ID (a whole number)');
}

/** RefList and Attachments: a list of row ids. */
function encodeRowIdList(value: unknown, columnType: string): unknown {
	const list = listItems(value) ?? (toNumber(value) !== undefined ? [value] : undefined);
	if (list === undefined) {
		throw new CellValueError(value, columnType, 'expected a list of row IDs');
	}
	if (list.length === 0) return null;
	return ['L', ...list.map((v) => toRowId(v, columnType, 'each entry'))];
}

function encodeChoiceList(value: unknown, columnType: string): unknown {
	const list = listItems(value);
	if (list === undefined) {
		if (typeof value === 'number' || typeof value === 'boolean') return ['L', String(value)];
		throw new CellValueError(value, columnType, 'expected a list of choices');
	}
	if (list.length === 0) return null;
	return [
		'L',
		...list.map((v) => {
			if (typeof v === 'string') return v;
			if (typeof v === 'number' || typeof v === 'boolean') return String(v);
			throw new CellValueError(value, columnType, 'each choice must be text');
		}),
	];
}

/** Any (and types we do not know): lists become Grist lists, dates epoch seconds. */
function encodeAny(value: unknown): unknown {
	if (Array.isArray(value)) return value[0] === 'L' ? value : ['L', ...value];
	if (isLuxon(value)) return value.toMillis() / 1000;
	if (value instanceof Date) return value.getTime() / 1000;
	if (isPlainObject(value)) return ['O', value];
	return value;
}

/**
 * Encodes one value for a column of type `columnType` (e.g. `Int`, `DateTime:Europe/Paris`).
 * `null`/`undefined` → `null` (Ref → 0). Throws CellValueError where the value cannot fit.
 */
export function encodeCellValue(value: unknown, columnType: string): unknown {
	const type = baseType(columnType);
	if (value === undefined || value === null) return type === 'Ref' ? 0 : null;
	switch (type) {
		case 'Text':
		case 'Choice':
			return encodeText(value, columnType);
		case 'Numeric':
			return encodeNumeric(value, columnType);
		case 'Int':
			return encodeInt(value, columnType);
		case 'Bool':
			return encodeBool(value, columnType);
		case 'Date':
			if (value === '') return null;
			return encodeMoment(value, columnType, true);
		case 'DateTime':
			if (value === '') return null;
			return encodeMoment(value, columnType, false);
		case 'Ref':
			return encodeRef(value, columnType);
		case 'RefList':
		case 'Attachments':
			return encodeRowIdList(value, columnType);
		case 'ChoiceList':
			return encodeChoiceList(value, columnType);
		default:
			return encodeAny(value);
	}
}
