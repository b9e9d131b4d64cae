/**
 * Output formatting of cell values: `cellFormat=typed` (§5, §9 "typed" column) and the display
 * text of a cell in CSV/TSV/XLSX exports (§4 Export).
 */
import { isErrorCell } from './cells-convert';
import { tzOffsetMs } from './cells-dates';
import { RowEvaluator } from './formula';
import type { Column, Doc, Store } from './model';
import { baseType, typeArg } from './model';

/** A stored value as `cellFormat=typed` shows it: Date `["d",…]`, DateTime `["D",…,tz]`, Ref `["R",…]`, lists `["r",…]`. */
export function typedValue(col: Column, v: unknown): unknown {
	if (isErrorCell(v)) return v;
	const bt = baseType(col.type);
	if (typeof v === 'string' && bt !== 'Text' && bt !== 'Choice' && bt !== 'Any') return v;
	switch (bt) {
		case 'Date':
			return typeof v === 'number' ? ['d', v] : v;
		case 'DateTime':
			return typeof v === 'number' ? ['D', v, typeArg(col.type) || 'UTC'] : v;
		case 'Ref':
			return typeof v === 'number' ? ['R', typeArg(col.type), v] : v;
		case 'RefList':
			return Array.isArray(v) && v[0] === 'L' ? ['r', typeArg(col.type), v.slice(1)] : v;
		case 'Attachments':
			return Array.isArray(v) && v[0] === 'L' ? ['r', '_grist_Attachments', v.slice(1)] : v;
		default:
			return v;
	}
}

function pad(n: number, w = 2): string {
	return String(n).padStart(w, '0');
}

/** Display text of a cell (exports). */
export function displayValue(
	store: Store,
	doc: Doc,
	col: Column,
	v: unknown,
): string | number | boolean {
	if (v === null || v === undefined) return '';
	if (isErrorCell(v)) return `#${v[1]}`;
	const bt = baseType(col.type);
	if (typeof v === 'string') return v;
	switch (bt) {
		case 'Date': {
			const d = new Date(Number(v) * 1000);
			return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
		}
		case 'DateTime': {
			const tz = typeArg(col.type) || 'UTC';
			const ms = Number(v) * 1000;
			const d = new Date(ms + tzOffsetMs(tz, ms));
			// Grist's default DateTime format: dateFormat YYYY-MM-DD, timeFormat h:mma
			const h = d.getUTCHours();
			return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${h % 12 || 12}:${pad(d.getUTCMinutes())}${h < 12 ? 'am' : 'pm'}`;
		}
		case 'Ref':
			return refDisplay(store, doc, col, Number(v));
		case 'RefList':
			return Array.isArray(v)
				? v
						.slice(1)
						.map((id) => refDisplay(store, doc, col, Number(id)))
						.join(', ')
				: '';
		case 'Attachments':
			// the attachment ids, not file names (measured on grist-core 1.7.17: `1, 2`)
			return Array.isArray(v) ? v.slice(1).map(String).join(', ') : '';
		case 'ChoiceList':
			return Array.isArray(v) ? v.slice(1).join(', ') : '';
		default:
			if (typeof v === 'number' || typeof v === 'boolean') return v;
			return JSON.stringify(v);
	}
}

function refDisplay(store: Store, doc: Doc, col: Column, id: number): string {
	if (!id) return '';
	const target = store.table(doc, typeArg(col.type));
	const row = target?.rows.get(id);
	if (!target || !row) return `${typeArg(col.type)}[${id}]`;
	const vis = col.visibleCol ? store.colByRef(doc, col.visibleCol)?.col : undefined;
	if (!vis) return String(id);
	const full = vis.isFormula ? new RowEvaluator(target, store.clock()).full(row, id) : row;
	const v = full[vis.id];
	return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}
