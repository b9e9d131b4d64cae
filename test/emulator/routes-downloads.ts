/**
 * §4 Docs, "Export XLSX" / "Export CSV": GET /api/docs/{docId}/download/xlsx (one table with
 * `tableId`, else all), /download/csv and /download/tsv (`tableId` required), `header=label|colId`,
 * `title=` (the file name).
 */
import type { Ctx, Route } from './context';
import { RAW } from './context';
import { tzOffsetMs } from './cells-dates';
import { displayValue } from './cells-format';
import { docRoute, evaluatedRows } from './docworker';
import { ApiError, contentDisposition, sendRaw } from './http';
import type { Doc, Table } from './model';
import { baseType, isHiddenCol, typeArg } from './model';
import type { SheetCell } from './zip';
import { buildXlsx, toCsv } from './zip';

/** A table as sheet rows: a header row (labels or colIds), then display values; numbers, booleans and dates stay typed for XLSX. */
function exportRows(c: Ctx, doc: Doc, t: Table, header: 'label' | 'colId'): SheetCell[][] {
	const cols = t.columns.filter((x) => !isHiddenCol(x.id));
	const rows: SheetCell[][] = [cols.map((x) => (header === 'colId' ? x.id : x.label))];
	for (const { row } of evaluatedRows(c, t)) {
		rows.push(
			cols.map((col) => {
				const v = row[col.id];
				const bt = baseType(col.type);
				if (typeof v === 'number' && (bt === 'Numeric' || bt === 'Int' || bt === 'Any')) return v;
				if (typeof v === 'boolean') return v;
				const text = displayValue(c.store, doc, col, v);
				if (typeof v === 'number' && bt === 'Date') return { date: v, text: String(text) };
				if (typeof v === 'number' && bt === 'DateTime') {
					// Excel has no time zones: write the wall-clock time of the column's zone
					const tz = typeArg(col.type) || 'UTC';
					return { dateTime: v + tzOffsetMs(tz, v * 1000) / 1000, text: String(text) };
				}
				return text;
			}),
		);
	}
	return rows;
}

function getTableForExport(c: Ctx, doc: Doc, tableId: string): Table {
	const t = c.store.table(doc, tableId);
	if (!t) throw new ApiError(404, `Table ${tableId} not found.`);
	return t;
}

function headerParam(c: Ctx): 'label' | 'colId' {
	return c.query.header === 'colId' ? 'colId' : 'label';
}

/** Answers with a file: `Content-Disposition: attachment; filename="<name>"`. */
function sendFile(
	c: Ctx,
	contentType: string,
	fileName: string,
	data: Buffer | string,
): typeof RAW {
	sendRaw(
		c.res,
		200,
		{
			'Content-Type': contentType,
			'Content-Disposition': contentDisposition('attachment', fileName),
		},
		data,
	);
	return RAW;
}

export const downloadsRoutes: Route[] = [
	docRoute('GET', 'download/xlsx', 'viewers', (c, doc) => {
		const tables = c.query.tableId ? [getTableForExport(c, doc, c.query.tableId)] : doc.tables;
		const xlsx = buildXlsx(
			tables.map((t) => ({ name: t.id, rows: exportRows(c, doc, t, headerParam(c)) })),
		);
		return sendFile(
			c,
			'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			`${c.query.title || doc.name}.xlsx`,
			xlsx,
		);
	}),
	...(['csv', 'tsv'] as const).map((fmt) =>
		docRoute('GET', `download/${fmt}`, 'viewers', (c, doc) => {
			if (!c.query.tableId) throw new ApiError(400, 'tableId parameter is required');
			const t = getTableForExport(c, doc, c.query.tableId);
			const text = toCsv(exportRows(c, doc, t, headerParam(c)), fmt === 'tsv' ? '\t' : ',');
			const type =
				fmt === 'csv' ? 'text/csv; charset=utf-8' : 'text/tab-separated-values; charset=utf-8';
			return sendFile(c, type, `${c.query.title || `${doc.name}-${t.id}`}.${fmt}`, text);
		}),
	),
];
