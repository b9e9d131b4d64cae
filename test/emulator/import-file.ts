/* eslint-disable @n8n/community-nodes/require-node-api-error -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * Reading an uploaded file as Grist's importer does for a new document (POST
 * /api/workspaces/{wid}/import): CSV/TSV (Python's csv.reader, ported), XLSX (exceljs, one table per sheet) and
 * `.grist` (grist-file.ts). Column types follow grist-core's plain cases: typed XLSX cells give
 * Numeric / Bool / Date / DateTime (parse_data.py); text columns go through ValueGuesser.ts's
 * order — Bool when every value is exactly `true`/`false`, Numeric when at most 10% of the
 * non-empty values are not plain numbers, Date when they are `YYYY-MM-DD`, else Text — and an
 * all-empty column becomes an Any data column of nulls. The first row is the header when
 * every cell of it is text that is not a number (labels; ids from them as Grist makes them).
 * Errors as in DocPluginManager.parseFile: `Failed to parse CSV file.\nError: …` (Excel, TSV),
 * `File format is not supported.` for other extensions.
 */
import ExcelJS from 'exceljs';

import { readGristFile, type ReadTable } from './grist-file';

export interface ImportedColumn {
	label: string;
	type: string;
	isFormula: boolean;
	values: unknown[];
}
export interface ImportedTable {
	name: string;
	columns: ImportedColumn[];
}
export type ImportResult =
	| { kind: 'tables'; tables: ImportedTable[] }
	| { kind: 'grist'; tables: ReadTable[] };

export class ImportError extends Error {}

const EXT_TYPE: Record<string, string> = {
	'.xlsx': 'Excel',
	'.json': 'JSON',
	'.csv': 'CSV',
	'.tsv': 'TSV',
	'.dsv': 'PSV',
};

export function splitName(fileName: string): { base: string; ext: string } {
	const m = /^(.*?)(\.[^.]*)?$/.exec(fileName)!;
	return { base: m[1].trim() || 'Untitled upload', ext: (m[2] ?? '').toLowerCase() };
}

const NUMBER_RE = /^\s*-?(\d+(,\d{3})*|\d*)(\.\d+)?([eE][-+]?\d+)?\s*$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function plainNumber(s: string): number | undefined {
	if (!NUMBER_RE.test(s) || !/\d/.test(s)) return undefined;
	const n = Number(s.replace(/,/g, ''));
	return Number.isFinite(n) ? n : undefined;
}

function isoDate(s: string): number | undefined {
	const m = DATE_RE.exec(s.trim());
	if (!m) return undefined;
	const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
	const d = new Date(t);
	return d.getUTCDate() === Number(m[3]) ? t / 1000 : undefined;
}

/** ValueGuesser's order for a column of texts (plain cases). */
export function guessTextColumn(values: string[]): {
	type: string;
	values: unknown[];
	isFormula: boolean;
} {
	// parse_data.py: an all-empty column is an Any data column of nulls (measured on 1.7.17)
	if (values.every((v) => v === ''))
		return { type: 'Any', isFormula: false, values: values.map(() => null) };
	if (values.every((v) => v === 'true' || v === 'false'))
		return { type: 'Bool', isFormula: false, values: values.map((v) => v === 'true') };
	const filled = values.filter((v) => v !== '').length;
	const tryType = (parse: (s: string) => number | undefined): unknown[] | undefined => {
		let unparsed = 0;
		const out: unknown[] = [];
		for (const v of values) {
			if (v === '') {
				out.push(null);
				continue;
			}
			const n = parse(v);
			if (n === undefined && ++unparsed > filled * 0.1) return undefined;
			out.push(n ?? v);
		}
		return out;
	};
	const nums = tryType(plainNumber);
	if (nums) return { type: 'Numeric', isFormula: false, values: nums };
	const dates = tryType(isoDate);
	if (dates) return { type: 'Date', isFormula: false, values: dates };
	return { type: 'Text', isFormula: false, values };
}

/**
 * Python's csv.reader as grist-core's import_csv.py runs it (the excel dialect with doublequote,
 * not strict; _csv.c's state machine), on the file's lines: a blank line is an empty row, a
 * quote inside an unquoted field is kept, a character after a closing quote joins the field
 * (`"ab"c` is `abc`), and a quoted field still open at the end of the file ends there with what
 * it holds, newlines included (`"x,1\n` is one field `x,1\n`; measured on grist-core 1.7.17).
 * No dialect sniffing: `delimiter` is given.
 */
export function readCsvRows(text: string, delimiter: string): string[][] {
	const rows: string[][] = [];
	const EOL = '';
	type State = 'record' | 'field' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'eatCrnl';
	let state: State = 'record';
	let fields: string[] = [];
	let field = '';
	const save = () => {
		fields.push(field);
		field = '';
	};
	const step = (c: string) => {
		const eol = c === EOL;
		const crnl = c === '\n' || c === '\r';
		switch (state) {
			case 'record':
				if (eol) return;
				if (crnl) {
					state = 'eatCrnl';
					return;
				}
				state = 'field';
			// falls through
			case 'field':
				if (crnl || eol) {
					save();
					state = eol ? 'record' : 'eatCrnl';
				} else if (c === '"') state = 'quoted';
				else if (c === delimiter) save();
				else {
					field += c;
					state = 'unquoted';
				}
				return;
			case 'unquoted':
				if (crnl || eol) {
					save();
					state = eol ? 'record' : 'eatCrnl';
				} else if (c === delimiter) {
					save();
					state = 'field';
				} else field += c;
				return;
			case 'quoted':
				if (eol) return;
				if (c === '"') state = 'quoteInQuoted';
				else field += c;
				return;
			case 'quoteInQuoted':
				if (c === '"') {
					field += c;
					state = 'quoted';
				} else if (c === delimiter) {
					save();
					state = 'field';
				} else if (crnl || eol) {
					save();
					state = eol ? 'record' : 'eatCrnl';
				} else {
					field += c;
					state = 'unquoted';
				}
				return;
			case 'eatCrnl':
				if (eol) state = 'record';
				return;
		}
	};
	// the file object yields lines with their endings (codecs' readline)
	const lines = text.match(/[^\r\n]*(\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
	for (const line of lines) {
		for (const c of line) step(c);
		step(EOL);
		if (state === 'record') {
			rows.push(fields);
			fields = [];
		}
	}
	// end of input in an open quoted field (every line ends with EOL, so no other state is left
	// open): the field read so far ends the record (not strict)
	if ((state as State) === 'quoted') {
		save();
		rows.push(fields);
	}
	return rows;
}

function isHeaderRow(row: unknown[]): boolean {
	return (
		row.length > 0 &&
		row.every((v) => typeof v === 'string' && v.trim() !== '' && plainNumber(v) === undefined)
	);
}

type Cell = string | number | boolean | Date | null;

function toColumns(rows: Cell[][]): ImportedColumn[] {
	const width = Math.max(0, ...rows.map((r) => r.length));
	const header = rows.length > 0 && isHeaderRow(rows[0]) ? (rows[0] as string[]) : undefined;
	const body = header ? rows.slice(1) : rows;
	const columns: ImportedColumn[] = [];
	for (let i = 0; i < width; i++) {
		const cells = body.map((r) => (r[i] === undefined ? null : r[i]));
		const label = header?.[i]?.trim() ?? '';
		const filled = cells.filter((v) => v !== null && v !== '');
		if (filled.length > 0 && filled.every((v) => typeof v === 'number')) {
			columns.push({
				label,
				type: 'Numeric',
				isFormula: false,
				values: cells.map((v) => (v === '' ? null : v)),
			});
		} else if (filled.length > 0 && filled.every((v) => typeof v === 'boolean')) {
			columns.push({ label, type: 'Bool', isFormula: false, values: cells.map((v) => v === true) });
		} else if (filled.length > 0 && filled.every((v) => v instanceof Date)) {
			const dates = cells.map((v) => (v instanceof Date ? v : null));
			const allMidnight = dates.every((d) => !d || d.getTime() % 86400000 === 0);
			columns.push({
				label,
				type: allMidnight ? 'Date' : 'DateTime:UTC',
				isFormula: false,
				values: dates.map((d) => (d ? d.getTime() / 1000 : null)),
			});
		} else {
			const texts = cells.map((v) =>
				v === null ? '' : v instanceof Date ? v.toISOString().slice(0, 10) : String(v),
			);
			columns.push({ label, ...guessTextColumn(texts) });
		}
	}
	return columns;
}

function cellOf(v: ExcelJS.CellValue): Cell {
	if (v === null || v === undefined) return null;
	if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
	if (v instanceof Date) return v;
	if (typeof v === 'object') {
		if ('richText' in v) return v.richText.map((r) => r.text).join('');
		if ('result' in v) return cellOf(v.result as ExcelJS.CellValue);
		if ('text' in v) return String(v.text);
		if ('error' in v) return String(v.error);
	}
	return String(v);
}

async function readXlsx(data: Buffer): Promise<ImportedTable[]> {
	const wb = new ExcelJS.Workbook();
	await wb.xlsx.load(data as unknown as ArrayBuffer);
	const tables: ImportedTable[] = [];
	wb.eachSheet((sheet) => {
		const rows: Cell[][] = [];
		for (let r = 1; r <= sheet.rowCount; r++) {
			const row = sheet.getRow(r);
			const cells: Cell[] = [];
			for (let col = 1; col <= Math.max(row.cellCount, sheet.columnCount); col++)
				cells.push(cellOf(row.getCell(col).value));
			while (cells.length && cells[cells.length - 1] === null) cells.pop();
			if (cells.length) rows.push(cells);
		}
		tables.push({ name: sheet.name, columns: toColumns(rows) });
	});
	return tables;
}

/** Parses an upload; an unreadable file throws ImportError with Grist's message. */
export async function readImport(fileName: string, data: Buffer): Promise<ImportResult> {
	const { base, ext } = splitName(fileName);
	const fail = (e: unknown) =>
		new ImportError(
			`Failed to parse ${EXT_TYPE[ext] ?? ext} file.\nError: ${(e as Error).message ?? String(e)}`,
		);
	if (ext === '.grist') {
		try {
			return { kind: 'grist', tables: await readGristFile(data) };
		} catch (e) {
			throw new ImportError(`Grist document could not be read: ${(e as Error).message}`);
		}
	}
	if (ext === '.csv' || ext === '.tsv' || ext === '.txt') {
		const text = data.toString('utf8').replace(/^\uFEFF/, '');
		const rows = readCsvRows(text, ext === '.tsv' ? '\t' : ',');
		if (rows.every((r) => r.length === 0)) throw fail(new Error('No data found in the file'));
		return { kind: 'tables', tables: [{ name: base, columns: toColumns(rows) }] };
	}
	if (ext === '.xlsx') {
		let tables: ImportedTable[];
		try {
			tables = await readXlsx(data);
		} catch (e) {
			throw fail(e);
		}
		if (tables.length === 0) throw fail(new Error('No sheets found in the workbook'));
		return { kind: 'tables', tables };
	}
	throw new ImportError('File format is not supported.');
}
