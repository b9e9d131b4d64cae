/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * A tiny zip writer (stored or deflated entries, CRC via zlib.crc32) and a minimal reader, used
 * for the XLSX export and by tests to check it.
 */
import zlib from 'node:zlib';

const crc32: (data: Buffer) => number = (zlib as unknown as { crc32: (d: Buffer) => number }).crc32;

export function zipFiles(files: Array<{ name: string; data: Buffer | string }>): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const f of files) {
		const raw = typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : f.data;
		const deflated = zlib.deflateRawSync(raw);
		const useDeflate = deflated.length < raw.length;
		const data = useDeflate ? deflated : raw;
		const name = Buffer.from(f.name, 'utf8');
		const crc = crc32(raw) >>> 0;
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt16LE(0x0800, 6); // UTF-8 names
		local.writeUInt16LE(useDeflate ? 8 : 0, 8);
		local.writeUInt16LE(0, 10);
		local.writeUInt16LE(0x21, 12); // 1980-01-01
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(data.length, 18);
		local.writeUInt32LE(raw.length, 22);
		local.writeUInt16LE(name.length, 26);
		local.writeUInt16LE(0, 28);
		locals.push(local, name, data);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(0x0800, 8);
		central.writeUInt16LE(useDeflate ? 8 : 0, 10);
		central.writeUInt16LE(0, 12);
		central.writeUInt16LE(0x21, 14);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(data.length, 20);
		central.writeUInt32LE(raw.length, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(offset, 42);
		centrals.push(central, name);
		offset += local.length + name.length + data.length;
	}
	const cd = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(files.length, 8);
	end.writeUInt16LE(files.length, 10);
	end.writeUInt32LE(cd.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, cd, end]);
}

/** Reads a zip (via its central directory), checking CRCs. Throws on anything malformed. */
export function unzip(buf: Buffer): Map<string, Buffer> {
	const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	if (eocd < 0) throw new Error('not a zip: no end of central directory');
	const count = buf.readUInt16LE(eocd + 10);
	let p = buf.readUInt32LE(eocd + 16);
	const out = new Map<string, Buffer>();
	for (let i = 0; i < count; i++) {
		if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory entry');
		const method = buf.readUInt16LE(p + 10);
		const crc = buf.readUInt32LE(p + 16);
		const csize = buf.readUInt32LE(p + 20);
		const nlen = buf.readUInt16LE(p + 28);
		const xlen = buf.readUInt16LE(p + 30);
		const clen = buf.readUInt16LE(p + 32);
		const lho = buf.readUInt32LE(p + 42);
		const name = buf.subarray(p + 46, p + 46 + nlen).toString('utf8');
		if (buf.readUInt32LE(lho) !== 0x04034b50) throw new Error('bad local header');
		const start = lho + 30 + buf.readUInt16LE(lho + 26) + buf.readUInt16LE(lho + 28);
		const comp = buf.subarray(start, start + csize);
		const data = method === 8 ? zlib.inflateRawSync(comp) : Buffer.from(comp);
		if (crc32(data) >>> 0 !== crc) throw new Error(`CRC mismatch in ${name}`);
		out.set(name, data);
		p += 46 + nlen + xlen + clen;
	}
	return out;
}

/** Whether XML 1.0 forbids this code unit: C0 controls other than tab (0x09), LF (0x0a) and CR (0x0d). */
function isXmlForbiddenControl(code: number): boolean {
	return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
}

function esc(s: string): string {
	let kept = '';
	for (let i = 0; i < s.length; i++) if (!isXmlForbiddenControl(s.charCodeAt(i))) kept += s[i];
	return kept
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

function colName(i: number): string {
	let s = '';
	let n = i + 1;
	while (n > 0) {
		const m = (n - 1) % 26;
		s = String.fromCharCode(65 + m) + s;
		n = Math.floor((n - 1) / 26);
	}
	return s;
}

/** A cell; `{ date }` / `{ dateTime }` are epoch seconds written as Excel dates (CSV gets `text`). */
export type SheetCell =
	| string
	| number
	| boolean
	| null
	| { date?: number; dateTime?: number; text: string };

/** Builds a valid XLSX workbook with one sheet per entry (inline strings). */
export function buildXlsx(sheets: Array<{ name: string; rows: SheetCell[][] }>): Buffer {
	const used = new Set<string>();
	const names = sheets.map((s) => {
		let n = s.name.replace(/[\\/?*[\]:]/g, '_').slice(0, 31) || 'Sheet';
		let k = 2;
		while (used.has(n.toLowerCase())) n = `${s.name.slice(0, 28)}_${k++}`;
		used.add(n.toLowerCase());
		return n;
	});
	const files: Array<{ name: string; data: string }> = [];
	files.push({
		name: '[Content_Types].xml',
		data:
			'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
			'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
			'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
			'<Default Extension="xml" ContentType="application/xml"/>' +
			'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
			'<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
			names
				.map(
					(_n, i) =>
						`<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
				)
				.join('') +
			'</Types>',
	});
	files.push({
		name: '_rels/.rels',
		data:
			'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
			'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
			'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
			'</Relationships>',
	});
	files.push({
		name: 'xl/workbook.xml',
		data:
			'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
			'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
			names
				.map((n, i) => `<sheet name="${esc(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
				.join('') +
			'</sheets></workbook>',
	});
	files.push({
		name: 'xl/_rels/workbook.xml.rels',
		data:
			'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
			'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
			names
				.map(
					(_n, i) =>
						`<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
				)
				.join('') +
			`<Relationship Id="rId${names.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
			'</Relationships>',
	});
	// styles: 0 = default, 1 = date (built-in numFmt 14), 2 = date and time (numFmt 22)
	files.push({
		name: 'xl/styles.xml',
		data:
			'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
			'<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
			'<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
			'<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
			'<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
			'<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
			'<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
			'<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
			'<xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
			'<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
			'</styleSheet>',
	});
	sheets.forEach((s, i) => {
		const rows = s.rows
			.map((r, ri) => {
				const cells = r
					.map((v, ci) => {
						const ref = `${colName(ci)}${ri + 1}`;
						if (v === null || v === '') return '';
						if (typeof v === 'number')
							return Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : '';
						if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
						if (typeof v === 'object') {
							const secs = v.date ?? v.dateTime;
							if (secs === undefined)
								return v.text
									? `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(v.text)}</t></is></c>`
									: '';
							return `<c r="${ref}" s="${v.date !== undefined ? 1 : 2}"><v>${secs / 86400 + 25569}</v></c>`;
						}
						return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(v)}</t></is></c>`;
					})
					.join('');
				return `<row r="${ri + 1}">${cells}</row>`;
			})
			.join('');
		files.push({
			name: `xl/worksheets/sheet${i + 1}.xml`,
			data:
				'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
				`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
		});
	});
	return zipFiles(files);
}

/** CSV as grist-core writes it with csv-stringify (LF line ends, quotes doubled, fields quoted when needed); also TSV. */
export function toCsv(rows: SheetCell[][], delimiter = ','): string {
	return (
		rows
			.map((r) =>
				r
					.map((v) => {
						const s = v === null ? '' : typeof v === 'object' ? v.text : String(v);
						return /["\r\n]/.test(s) || s.includes(delimiter) ? `"${s.replace(/"/g, '""')}"` : s;
					})
					.join(delimiter),
			)
			.join('\n') + '\n'
	);
}
