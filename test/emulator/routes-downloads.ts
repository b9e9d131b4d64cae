/**
 * §4 Docs, "Export XLSX" / "Export CSV": GET /api/docs/{docId}/download/xlsx (one table with
 * `tableId`, else all), /download/csv, /download/tsv and /download/dsv (`tableId` required;
 * grist-core's ExportDSV: `,`, tab, or 💩 between values), `header=label|colId`, `title=` (the
 * file name); /download/table-schema (ExportTableSchema.ts: the Frictionless descriptor of the
 * CSV export, its `path` the CSV's URL with the same query). Guess: the document's locale is
 * en-US (number separators `,` and `.`).
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
	...(['csv', 'tsv', 'dsv'] as const).map((fmt) =>
		docRoute('GET', `download/${fmt}`, 'viewers', (c, doc) => {
			if (!c.query.tableId) throw new ApiError(400, 'tableId parameter is required');
			const t = getTableForExport(c, doc, c.query.tableId);
			const text = toCsv(exportRows(c, doc, t, headerParam(c)), DSV[fmt].delimiter);
			const type = `${DSV[fmt].type}; charset=utf-8`;
			return sendFile(c, type, `${c.query.title || `${doc.name}-${t.id}`}.${fmt}`, text);
		}),
	),
	docRoute('GET', 'download/table-schema', 'viewers', (c, doc) => {
		if (!c.query.tableId) throw new ApiError(400, 'tableId parameter is required');
		const t = getTableForExport(c, doc, c.query.tableId);
		const header = headerParam(c);
		const org = c.store.docOrg(doc);
		const query = new URLSearchParams(c.query).toString();
		return {
			format: 'csv',
			mediatype: 'text/csv',
			encoding: 'utf-8',
			path: `http://${c.req.headers.host ?? ''}/o/${org.domain}/api/docs/${doc.urlId ?? doc.id}/download/csv?${query}`,
			dialect: { delimiter: ',', doubleQuote: true },
			name: t.id.toLowerCase().replace(/_/g, '-'),
			title: t.id,
			schema: {
				fields: t.columns
					.filter((x) => !isHiddenCol(x.id))
					.map((x) => ({
						name: header === 'colId' ? x.id : x.label,
						...(x.description ? { description: x.description } : {}),
						...schemaType(x.type, x.widgetOptions),
					})),
			},
		};
	}),
];

const DSV = {
	csv: { delimiter: ',', type: 'text/csv' },
	tsv: { delimiter: '\t', type: 'text/tab-separated-values' },
	dsv: { delimiter: '💩', type: 'text/x-doo-separated-values' },
} as const;

/**
 * ExportTableSchema.ts's buildTypeField, cases and omissions included: its `Integer`,
 * `Reference` and `ReferenceList` never match Grist's type names (Int, Ref, RefList), so those
 * columns are `string`, as is every other type it does not name.
 */
function schemaType(type: string, widgetOptions: string): Record<string, unknown> {
	let w: Record<string, unknown> = {};
	try {
		w = (JSON.parse(widgetOptions || '{}') as Record<string, unknown>) ?? {};
	} catch {
		w = {};
	}
	switch (baseType(type)) {
		case 'Text':
			return { type: 'string', format: w.widget === 'HyperLink' ? 'uri' : 'default' };
		case 'Numeric':
			return {
				type: 'number',
				bareNumber: w.numMode === 'decimal',
				groupChar: ',',
				decimalChar: '.',
			};
		case 'Date':
			return { type: 'date', format: 'any', gristFormat: w.dateFormat || 'YYYY-MM-DD' };
		case 'DateTime':
			return { type: 'datetime', format: 'any', gristFormat: `${w.dateFormat} ${w.timeFormat}` };
		case 'Bool':
			return { type: 'boolean', trueValue: ['TRUE'], falseValue: ['FALSE'] };
		case 'Choice':
			return { type: 'string', constraints: { enum: w.choices } };
		case 'ChoiceList':
			return { type: 'array', constraints: { enum: w.choices } };
		default:
			return { type: 'string' };
	}
}
