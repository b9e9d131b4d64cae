/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * HTTP plumbing of the emulator: errors, body reading with limits, a byte-exact multipart parser.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class ApiError extends Error {
	constructor(
		public status: number,
		message: string,
		public details?: Record<string, unknown>,
	) {
		super(message);
	}
}

/** 413 for an upload over GRIST_MAX_UPLOAD_ATTACHMENT_MB (`maxBytes`). */
export function attachmentsTooLarge(maxBytes: number): ApiError {
	return new ApiError(
		413,
		`Attachments must not exceed ${(maxBytes / (1024 * 1024)).toFixed(1)}MB`,
	);
}

export interface UploadedFile {
	field: string;
	fileName: string;
	contentType: string;
	data: Buffer;
}

export interface ParsedBody {
	kind: 'none' | 'json' | 'multipart' | 'other';
	json?: unknown;
	files?: UploadedFile[];
	fields?: Record<string, string>;
	bytes: number;
}

/**
 * Reads the whole body. Stops storing once over `limit` (but drains the stream) and then
 * throws the 413 given by `tooLarge`.
 */
export function readBody(
	req: IncomingMessage,
	limit: number,
): Promise<{ buf: Buffer | null; bytes: number }> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		let over = false;
		req.on('data', (c: Buffer) => {
			bytes += c.length;
			if (bytes > limit) {
				over = true;
				chunks.length = 0;
				return;
			}
			chunks.push(c);
		});
		req.on('end', () => resolve({ buf: over ? null : Buffer.concat(chunks), bytes }));
		req.on('error', reject);
		// an aborted upload never ends: settle so the handler does not hang (nobody reads the answer)
		req.on('close', () => resolve({ buf: over ? null : Buffer.concat(chunks), bytes }));
	});
}

/**
 * JSON.parse's message as the Node that grist-core runs on (22) words it, whatever Node runs the
 * emulator: V8 12 (Node 22) ends a positioned message with ` (line L column C)`, V8 11 (Node 20)
 * stops at `at position N`. Lines break at `\n`, `\r\n` and a lone `\r` (measured with Node
 * 22.23: `{\r bad` → position 3, line 2 column 2).
 */
export function v8JsonMessage(text: string, message: string): string {
	const m = /at position (\d+)$/.exec(message);
	if (!m) return message;
	let line = 1;
	let column = 1;
	for (let i = 0; i < Number(m[1]) && i < text.length; i++) {
		const ch = text[i];
		if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) {
			line++;
			column = 1;
		} else if (ch !== '\r') column++;
	}
	return `${message} (line ${line} column ${column})`;
}

/** JSON.parse as a result value: the parsed value, or the parser's message (Node 22's words). */
export function tryParseJson(
	text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (e) {
		return { ok: false, message: v8JsonMessage(text, (e as Error).message) };
	}
}

export function parseJsonBody(buf: Buffer): unknown {
	const text = buf.toString('utf8');
	if (text.trim() === '') return {};
	const parsed = tryParseJson(text);
	if (!parsed.ok) throw new ApiError(400, parsed.message);
	return parsed.value;
}

function headerParam(header: string, name: string): string | undefined {
	const star = header.match(new RegExp(`;\\s*${name}\\*=([^;]+)`, 'i'));
	if (star) {
		const v = star[1].trim().replace(/^"|"$/g, '');
		const m = v.match(/^[^']*'[^']*'(.*)$/);
		try {
			return decodeURIComponent(m ? m[1] : v);
		} catch {
			return v;
		}
	}
	const quoted = header.match(new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i'));
	if (quoted) return quoted[1].replace(/\\(.)/g, '$1');
	const plain = header.match(new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i'));
	return plain ? plain[1] : undefined;
}

/** Parses multipart/form-data (byte-exact: file bodies are sliced, never decoded). */
export function parseMultipart(
	buf: Buffer,
	contentType: string,
): { files: UploadedFile[]; fields: Record<string, string> } {
	const boundary = headerParam(`x; ${contentType.split(';').slice(1).join(';')}`, 'boundary');
	if (!boundary) throw new ApiError(400, 'Multipart: Boundary not found');
	const delim = Buffer.from(`--${boundary}`);
	const files: UploadedFile[] = [];
	const fields: Record<string, string> = {};
	let pos = buf.indexOf(delim);
	if (pos < 0) throw new ApiError(400, 'Unexpected end of form');
	const sep = Buffer.from(`\r\n--${boundary}`);
	for (;;) {
		pos += delim.length;
		if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) break; // closing "--"
		// skip CRLF after boundary
		if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) pos += 2;
		const headEnd = buf.indexOf('\r\n\r\n', pos);
		if (headEnd < 0) throw new ApiError(400, 'Unexpected end of form');
		const head = buf.subarray(pos, headEnd).toString('utf8');
		const dataStart = headEnd + 4;
		const next = buf.indexOf(sep, dataStart);
		if (next < 0) throw new ApiError(400, 'Unexpected end of form');
		const data = buf.subarray(dataStart, next);
		const headers: Record<string, string> = {};
		for (const line of head.split('\r\n')) {
			const i = line.indexOf(':');
			if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
		}
		const disp = headers['content-disposition'] ?? '';
		const name = headerParam(disp, 'name') ?? '';
		const fileName = headerParam(disp, 'filename');
		if (fileName !== undefined) {
			files.push({
				field: name,
				fileName,
				contentType: headers['content-type'] ?? 'application/octet-stream',
				data: Buffer.from(data),
			});
		} else {
			fields[name] = data.toString('utf8');
		}
		pos = next + 2; // points at "--boundary"
	}
	return { files, fields };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body === undefined ? null : body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

export function sendError(res: ServerResponse, err: ApiError): void {
	const body: Record<string, unknown> = { error: err.message };
	if (err.details) body.details = err.details;
	sendJson(res, err.status, body);
}

export function sendRaw(
	res: ServerResponse,
	status: number,
	headers: Record<string, string | number>,
	data: Buffer | string,
): void {
	const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
	res.writeHead(status, { ...headers, 'Content-Length': buf.length });
	res.end(buf);
}

/** `attachment; filename="..."` with an RFC 5987 fallback for non-ASCII names (like `content-disposition`). */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
	const ascii = fileName.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
	if (/^[\x20-\x7e]*$/.test(fileName)) return `${kind}; filename="${ascii}"`;
	const enc = encodeURIComponent(fileName).replace(
		/['()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
	return `${kind}; filename="${ascii}"; filename*=UTF-8''${enc}`;
}
