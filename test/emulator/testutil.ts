/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test helper: raw HTTP against the emulator; response JSON is loosely typed */
/** Small HTTP helpers for the emulator's own tests (raw node:http so Host and request lines are exact). */
import http from 'node:http';
import net from 'node:net';
import type { GristEmulator } from './index';

export interface RawResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	text: string;
	json: any;
}

export function raw(
	emu: GristEmulator,
	opts: { method?: string; path: string; host?: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
		if (opts.host) headers.Host = opts.host;
		if (opts.body !== undefined) headers['Content-Length'] = Buffer.byteLength(opts.body);
		const req = http.request(
			{ host: '127.0.0.1', port: emu.port, method: opts.method ?? 'GET', path: opts.path, headers, agent: false },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const body = Buffer.concat(chunks);
					const text = body.toString('utf8');
					let json: any;
					try {
						json = JSON.parse(text);
					} catch {
						json = undefined;
					}
					resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json });
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
export function proxyForm(emu: GristEmulator, absoluteUrl: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
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
			let json: any;
			try {
				json = JSON.parse(bodyText);
			} catch {
				json = undefined;
			}
			resolve({ status, json });
		});
	});
}

/** JSON API client bound to one key (or anonymous when key is undefined). */
export function client(emu: GristEmulator, key: string | undefined, prefix = '') {
	const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
		raw(emu, {
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
		get: (p: string, h?: Record<string, string>) => call('GET', p, undefined, h),
		post: (p: string, b?: unknown) => call('POST', p, b ?? {}),
		patch: (p: string, b?: unknown) => call('PATCH', p, b ?? {}),
		put: (p: string, b?: unknown) => call('PUT', p, b ?? {}),
		del: (p: string) => call('DELETE', p),
		call,
	};
}
