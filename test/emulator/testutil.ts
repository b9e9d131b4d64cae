/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test helper: raw HTTP against the emulator */
/** Small HTTP helpers for the emulator's own tests (raw node:http so Host and request lines are exact). */
import http from 'node:http';
import net from 'node:net';
import type { GristEmulator } from './index';

/** The parts of Grist's JSON answers that the emulator tests read; a test names the shape it expects. */
export interface ErrorBody {
	error: string;
	details?: { userError?: string };
}
export interface Org {
	id: number;
	name: string;
	domain: string | null;
	access: string;
	owner: { id: number; name: string } | null;
}
export interface DocInfo {
	id: string;
	name: string;
	access: string;
	isPinned: boolean;
}
export interface Workspace {
	id: number;
	name: string;
	access: string;
	docs: DocInfo[];
}
export interface RecordsBody {
	records: Array<{ id: number; fields: Record<string, unknown>; errors?: Record<string, string> }>;
}
/** PUT /records (`recordIds`, or `addRecordIds`/`updateRecordIds` for Grist's newer answer) and /apply. */
export interface ActionBody {
	recordIds?: number[][];
	addRecordIds?: number[];
	updateRecordIds?: number[][];
	retValues: unknown[];
}
export interface TablesBody {
	tables: Array<{ id: string; fields: Record<string, unknown>; columns: Array<{ id: string }> }>;
}
export interface ColumnsBody {
	columns: Array<{ id: string; fields: Record<string, unknown> }>;
}
export interface AccessBody {
	maxInheritedRole: string | null;
	users: Array<{
		id: number;
		email: string;
		access: string | null;
		parentAccess?: string | null;
		isMember?: boolean;
	}>;
}

/** `json` is the parsed body (undefined when it is not JSON), typed as the caller expects it. */
export interface RawResponse<T = unknown> {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	text: string;
	json: T;
}

function parseOrUndefined(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

export function raw<T = unknown>(
	emu: GristEmulator,
	opts: {
		method?: string;
		path: string;
		host?: string;
		headers?: Record<string, string>;
		body?: Buffer | string;
	},
): Promise<RawResponse<T>> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
		if (opts.host) headers.Host = opts.host;
		if (opts.body !== undefined) headers['Content-Length'] = Buffer.byteLength(opts.body);
		const req = http.request(
			{
				host: '127.0.0.1',
				port: emu.port,
				method: opts.method ?? 'GET',
				path: opts.path,
				headers,
				agent: false,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const body = Buffer.concat(chunks);
					const text = body.toString('utf8');
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body,
						text,
						json: parseOrUndefined(text) as T,
					});
				});
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		if (opts.body !== undefined) req.write(opts.body);
		req.end();
	});
}

/** Sends a proxy-form request line (`GET http://host/path HTTP/1.1`) over a plain socket. */
export function proxyForm<T = unknown>(
	emu: GristEmulator,
	absoluteUrl: string,
	headers: Record<string, string> = {},
): Promise<{ status: number; json: T }> {
	return new Promise((resolve, reject) => {
		const u = new URL(absoluteUrl);
		const sock = net.connect(emu.port, '127.0.0.1', () => {
			const lines = [`GET ${absoluteUrl} HTTP/1.1`, `Host: ${u.host}`, 'Connection: close'];
			for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
			sock.write(lines.join('\r\n') + '\r\n\r\n');
		});
		const chunks: Buffer[] = [];
		sock.on('data', (c) => chunks.push(c));
		sock.on('error', reject);
		sock.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			const status = Number(text.split(' ')[1]);
			const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
			resolve({ status, json: parseOrUndefined(bodyText) as T });
		});
	});
}

/**
 * Writes `head` (a request's bytes) to `host:port` and resolves to every byte answered, as text,
 * once the server closes the connection (a reset after its answer included: a server may close
 * before it read all that was sent).
 */
export function rawAnswer(host: string, port: number, head: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const sock = net.connect(port, host, () => sock.write(head));
		sock.on('data', (c: Buffer) => chunks.push(c));
		sock.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
		sock.on('error', (e: NodeJS.ErrnoException) =>
			e.code === 'ECONNRESET' ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(e),
		);
	});
}

/** JSON API client bound to one key (or anonymous when key is undefined). */
export function client(emu: GristEmulator, key: string | undefined, prefix = '') {
	const call = <T = unknown>(
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	) =>
		raw<T>(emu, {
			method,
			path: prefix + path,
			headers: {
				...(key !== undefined ? { Authorization: `Bearer ${key}` } : {}),
				...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	return {
		get: <T = unknown>(p: string, h?: Record<string, string>) => call<T>('GET', p, undefined, h),
		post: <T = unknown>(p: string, b?: unknown) => call<T>('POST', p, b ?? {}),
		patch: <T = unknown>(p: string, b?: unknown) => call<T>('PATCH', p, b ?? {}),
		put: <T = unknown>(p: string, b?: unknown) => call<T>('PUT', p, b ?? {}),
		del: <T = unknown>(p: string) => call<T>('DELETE', p),
		call,
	};
}
