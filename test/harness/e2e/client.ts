/**
 * The HTTP client of one n8n instance: its REST API (`/rest`, with the owner's session cookie
 * once logged in) and its public API (`/api/v1`, with the API key), binary data and the type
 * lists the editor loads.
 */
import type { BinaryRef } from './results';

type Json = Record<string, unknown>;

export class HttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: string,
	) {
		super(message);
	}
}

export interface N8nClient {
	baseUrl: string;
	/** `/rest` answers unwrapped from `{ data }`; a POST /login keeps the session cookie. */
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	/** `/api/v1` with the API key of `setApiKey`. */
	api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	/** A REST GET that answers undefined on 404. */
	restOrMissing<T = unknown>(path: string): Promise<T | undefined>;
	setApiKey(key: string): void;
	cookie(): string;
	fetchBinary(ref: BinaryRef): Promise<Buffer>;
	/** `/types/<kind>.json`, as the editor loads it. */
	typeList(kind: 'nodes' | 'credentials'): Promise<Json[]>;
}

export function n8nClient(baseUrl: string): N8nClient {
	let cookie = '';
	let apiKey = '';
	async function call<T>(
		kind: 'rest' | 'api',
		method: string,
		path: string,
		body?: unknown,
		missingOk = false,
	): Promise<T | undefined> {
		const headers: Record<string, string> = {};
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (kind === 'rest' && cookie) headers.cookie = cookie;
		if (kind === 'api') headers['x-n8n-api-key'] = apiKey;
		const url = `${baseUrl}${kind === 'rest' ? '/rest' : '/api/v1'}${path}`;
		const res = await fetch(url, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (res.status === 404 && missingOk) return undefined;
		if (!res.ok)
			throw new HttpError(
				`${method} ${url} → ${res.status}: ${text.slice(0, 500)}`,
				res.status,
				text,
			);
		if (kind === 'rest' && path === '/login') {
			cookie = res.headers
				.getSetCookie()
				.map((c) => c.split(';')[0])
				.join('; ');
		}
		const parsed = text ? (JSON.parse(text) as Json) : {};
		return (kind === 'rest' && parsed && 'data' in parsed ? parsed.data : parsed) as T;
	}
	return {
		baseUrl,
		rest: async <T>(m: string, path: string, b?: unknown) =>
			(await call<T>('rest', m, path, b)) as T,
		api: async <T>(m: string, path: string, b?: unknown) => (await call<T>('api', m, path, b)) as T,
		restOrMissing: async <T>(path: string) => await call<T>('rest', 'GET', path, undefined, true),
		setApiKey: (key) => (apiKey = key),
		cookie: () => cookie,
		fetchBinary: async (ref) => {
			if (!ref.id) return Buffer.from(ref.data ?? '', 'base64');
			const res = await fetch(
				`${baseUrl}/rest/binary-data?id=${encodeURIComponent(ref.id)}&action=download`,
				{ headers: { cookie } },
			);
			if (!res.ok) throw new Error(`binary ${ref.id}: HTTP ${res.status}`);
			return Buffer.from(await res.arrayBuffer());
		},
		typeList: async (kind) => {
			const res = await fetch(`${baseUrl}/types/${kind}.json`, { headers: { cookie } });
			if (!res.ok) throw new Error(`/types/${kind}.json → HTTP ${res.status}`);
			return (await res.json()) as Json[];
		},
	};
}
