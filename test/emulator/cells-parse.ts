/**
 * Grist's ValueParser (app/common/ValueParser.ts), what a write does to strings unless
 * `noparse` (§5): numbers with `,` grouping, `(1)`, `%` and a currency sign, dates, lists, and
 * references looked up through the column's visibleCol. en-US only.
 */
import { parseDateOnly, parseDateTime } from './cells-dates';
import { RowEvaluator } from './formula';
import { tryParseJson } from './http';
import type { Column, Doc, Store } from './model';
import { baseType, typeArg } from './model';

function parseNumber(s: string): number | undefined {
	let t = s.trim().replace(/,/g, '');
	let neg = false;
	if (/^\(.*\)$/.test(t)) {
		neg = true;
		t = t.slice(1, -1);
	}
	let pct = false;
	if (t.endsWith('%')) {
		pct = true;
		t = t.slice(0, -1);
	}
	t = t.replace(/^[$€£]/, '');
	if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return undefined;
	let n = Number(t);
	if (pct) n /= 100;
	return neg ? -n : n;
}

function splitList(s: string): string[] | undefined {
	const t = s.trim();
	if (t === '') return [];
	if (t.startsWith('[')) {
		const parsed = tryParseJson(t); // else CSV
		if (parsed.ok && Array.isArray(parsed.value)) return parsed.value.map((x) => String(x));
	}
	return t
		.split(',')
		.map((x) => x.trim())
		.filter((x) => x !== '');
}

/**
 * Grist's ValueParser (app/common/ValueParser.ts), run on strings written without `noparse`:
 * Numeric/Int, Date, DateTime, ChoiceList, Ref, RefList and Attachments columns have a parser;
 * an empty string and every other type (Bool, Text, Any…) are left alone; unparseable text
 * stays text. The data engine's conversion (`convertCell`) runs after it either way.
 */
export function parseCell(store: Store, doc: Doc, col: Column, value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	const bt = baseType(col.type);
	switch (bt) {
		case 'Numeric':
		case 'Int': {
			const n = parseNumber(value);
			return n === undefined ? value : n;
		}
		case 'Date': {
			const opts = tryParseJson(col.widgetOptions || '{}');
			const format = opts.ok ? (opts.value as { dateFormat?: unknown }).dateFormat : undefined;
			const d = parseDateOnly(value, typeof format === 'string' ? format : undefined);
			return d === undefined ? value : d;
		}
		case 'DateTime': {
			const d = parseDateTime(value, typeArg(col.type));
			return d === undefined ? value : d;
		}
		case 'ChoiceList': {
			const l = splitList(value);
			if (!l) return value;
			return l.length ? ['L', ...l] : null;
		}
		case 'Ref': {
			if (value.trim() === '') return 0;
			const id = lookupRef(store, doc, col, value.trim());
			return id === undefined ? value : id;
		}
		case 'RefList':
		case 'Attachments': {
			const l = splitList(value);
			if (!l) return value;
			if (!l.length) return null;
			const ids: number[] = [];
			for (const part of l) {
				// Attachments parse as a RefList by row id of _grist_Attachments (gristTypes.ts
				// isRefListType; ValueParser.ts ReferenceListParser): an id without an attachment
				// leaves the text as it is (measured on grist-core 1.7.17)
				const id =
					bt === 'Attachments' ? attachmentOf(doc, part) : lookupRef(store, doc, col, part);
				if (id === undefined) return value;
				ids.push(id);
			}
			return ['L', ...ids];
		}
		default:
			return value;
	}
}

function attachmentOf(doc: Doc, s: string): number | undefined {
	const id = intOf(s);
	return id !== undefined && doc.attachments.has(id) ? id : undefined;
}

function intOf(s: string): number | undefined {
	return /^\d+$/.test(s.trim()) ? Number(s.trim()) : undefined;
}

function lookupRef(store: Store, doc: Doc, col: Column, s: string): number | undefined {
	const target = store.table(doc, typeArg(col.type));
	if (!target) return undefined;
	const vis = col.visibleCol ? store.colByRef(doc, col.visibleCol)?.col : undefined;
	if (!vis) {
		const id = intOf(s);
		return id !== undefined && target.rows.has(id) ? id : undefined;
	}
	const ev = new RowEvaluator(target, store.clock());
	for (const id of store.rowIds(target)) {
		const row = vis.isFormula ? ev.full(target.rows.get(id)!, id) : target.rows.get(id)!;
		const v = row[vis.id];
		if (v === s || (typeof v === 'number' && String(v) === s)) return id;
	}
	return undefined;
}
