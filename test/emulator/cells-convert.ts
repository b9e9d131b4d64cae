/**
 * The data engine's conversion of a value written to a data column (sandbox/grist/usertypes.py
 * `convert`), run on every write after the ValueParser (cells-parse.ts), also with `noparse`,
 * and on trigger formulas' results (formula.ts).
 */
import { parseDateTime, parseIsoDate } from './cells-dates';
import { tryParseJson } from './http';
import type { Column } from './model';
import { baseType, typeArg } from './model';

/** Python's `float(s)` for finite results (inf/nan cannot be stored in JSON answers: kept as text). */
function pyFloat(s: string): number | undefined {
	const t = s.trim();
	if (!/^[-+]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][-+]?\d(_?\d)*)?$/.test(t))
		return undefined;
	const n = Number(t.replace(/_/g, ''));
	return Number.isFinite(n) ? n : undefined;
}

/** Python's `'%.15g' % v` (how the data engine turns a non-integer number into text). */
function pyG15(v: number): string {
	const [mant, expStr] = v.toExponential(14).split('e');
	const exp = Number(expStr);
	if (exp < -4 || exp >= 15) {
		const m = mant.replace(/\.?0+$/, '');
		return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
	}
	return v
		.toFixed(Math.max(0, 14 - exp))
		.replace(/(\.\d*?)0+$/, '$1')
		.replace(/\.$/, '');
}

/** Python's `str()` of a JSON value (objects: JSON text, a guess). */
function pyStr(x: unknown): string {
	if (typeof x === 'string') return x;
	if (x === null) return 'None';
	if (typeof x === 'boolean') return x ? 'True' : 'False';
	if (typeof x === 'number') return String(x);
	return JSON.stringify(x);
}

const TRUTHY = new Set(['true', 'yes', '1']);
const FALSY = new Set(['false', 'no', '0']);
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** An error cell `["E", kind, message]` (a formula's error). */
export function isErrorCell(v: unknown): v is unknown[] {
	return Array.isArray(v) && v[0] === 'E';
}

/**
 * The data engine's conversion of a value written to a data column (sandbox/grist/usertypes.py
 * `convert`, also with `noparse`): a value of the right type is stored, a convertible one is
 * converted ("41" → 41 in Numeric, 41 → "41" in Text, "yes" → true in Bool, an ISO date string
 * → epoch seconds), anything else is kept as text (an AltText cell, returned as that string).
 */
export function convertCell(col: Column, v: unknown): unknown {
	if (isErrorCell(v)) return v;
	switch (baseType(col.type)) {
		case 'Text':
		case 'Choice':
			if (typeof v === 'boolean') return v ? 'True' : 'False';
			if (typeof v === 'number')
				return Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? String(v) : pyG15(v);
			return v;
		case 'Numeric':
			if (v === '' || v === null || v === undefined) return null;
			if (typeof v === 'boolean') return v ? 1 : 0;
			if (typeof v === 'string') return pyFloat(v) ?? v;
			return v;
		case 'Int': {
			if (v === '' || v === null || v === undefined) return null;
			let n: number | undefined;
			if (typeof v === 'boolean') n = v ? 1 : 0;
			else if (typeof v === 'number') n = v;
			else if (typeof v === 'string') n = pyFloat(v);
			if (n === undefined || !Number.isFinite(n)) return v;
			n = Math.trunc(n);
			return n < INT_MIN || n > INT_MAX ? String(v) : n;
		}
		case 'Bool':
			if (!v) return false;
			if (typeof v === 'number' || v === true) return true;
			if (typeof v === 'string') {
				const low = v.toLowerCase();
				if (FALSY.has(low)) return false;
				if (TRUTHY.has(low)) return true;
			}
			return v;
		case 'Date':
		case 'DateTime': {
			if (v === '' || v === null || v === undefined) return null;
			if (typeof v === 'boolean') return v ? 1 : 0;
			if (typeof v !== 'string') return v;
			const d =
				baseType(col.type) === 'Date' ? parseIsoDate(v) : parseDateTime(v, typeArg(col.type));
			return d ?? v;
		}
		case 'ChoiceList':
			if (!v) return null;
			if (typeof v === 'string' && v.startsWith('[')) {
				const parsed = tryParseJson(v);
				if (parsed.ok && Array.isArray(parsed.value)) {
					const items = parsed.value.map(pyStr);
					return items.length ? ['L', ...items] : null;
				}
			}
			return v;
		case 'Ref':
			if (!v) return 0;
			if (v === true) return 1;
			return v;
		case 'RefList':
		case 'Attachments':
			if (!v) return null;
			if (typeof v === 'number' && Number.isInteger(v)) return ['L', v];
			if (typeof v === 'string' && v.startsWith('[')) {
				const parsed = tryParseJson(v);
				if (
					parsed.ok &&
					Array.isArray(parsed.value) &&
					parsed.value.every((x) => Number.isInteger(x) && (x as number) > 0)
				)
					return parsed.value.length ? ['L', ...parsed.value] : null;
			}
			return v;
		default:
			return v;
	}
}
