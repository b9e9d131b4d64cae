/**
 * What a request to Grist answers, as the client reads it: the full answer (status, headers,
 * body), a file answer's bytes with its name and MIME type, and the answer carried inside an
 * error thrown by n8n's request helper.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** An answer as n8n's request helper returns it with `returnFullResponse`. */
export interface FullResponse {
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

export interface BinaryResponse {
	body: Buffer;
	headers: Record<string, string>;
	fileName?: string;
	mimeType?: string;
}

export interface StreamResponse {
	/** A readable stream of the bytes (what `prepareBinaryData` takes). */
	body: Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];
	headers: Record<string, string>;
	fileName?: string;
	mimeType?: string;
}

/**
 * The HTTP answer inside an error thrown by n8n's request helper (OAuth2 requests let error
 * answers throw, so that n8n can refresh on 401): status, body and headers; undefined when the
 * error carries no answer (network errors, n8n's own OAuth2 errors).
 */
export function errorAnswer(error: unknown): FullResponse | undefined {
	const seen = new Set<unknown>();
	let e: unknown = error;
	while (e && typeof e === 'object' && !seen.has(e)) {
		seen.add(e);
		const response = (e as { response?: unknown }).response as
			| { status?: unknown; data?: unknown; headers?: unknown }
			| undefined;
		if (response && typeof response === 'object' && typeof response.status === 'number') {
			return {
				statusCode: response.status,
				body: response.data,
				headers: { ...((response.headers ?? {}) as FullResponse['headers']) },
			};
		}
		e = (e as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Headers (lower-case names), file name and MIME type of a file answer. */
export function fileInfo(
	res: FullResponse,
): Pick<BinaryResponse, 'headers' | 'fileName' | 'mimeType'> {
	const headers: Record<string, string> = {};
	for (const [k, v] of Object.entries(res.headers)) {
		if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
	}
	return {
		headers,
		fileName: fileNameFromDisposition(headers['content-disposition']),
		mimeType: headers['content-type']?.split(';')[0].trim(),
	};
}

export function isStream(body: unknown): body is AsyncIterable<unknown> {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as { pipe?: unknown }).pipe === 'function' &&
		Symbol.asyncIterator in body
	);
}

/** Reads an (error) answer's stream in full, so its text can be shown and the socket freed. */
export async function readStream(body: AsyncIterable<unknown>): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of body) {
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	}
	return Buffer.concat(chunks);
}

/** `attachment; filename="a b.xlsx"; filename*=UTF-8''a%20b.xlsx` → `a b.xlsx`. */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
	if (!header) return undefined;
	const star = /filename\*\s*=\s*([^']*)''([^;]+)/i.exec(header);
	if (star) {
		try {
			return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ''));
		} catch {
			// malformed encoding: fall back to the plain filename parameter
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
	if (!plain) return undefined;
	return (plain[2] ?? plain[1]).trim();
}
