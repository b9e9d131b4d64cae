/**
 * The one place every HTTP request to Grist passes.
 *
 * - Requests go through `httpRequestWithAuthentication` (n8n's proxies, auth and logging).
 * - Paths come from the API layer (./api.ts), built from encoded segments, so ids can never
 *   change the endpoint.
 * - Grist errors become NodeApiError with Grist's own text, the status and a hint.
 * - 429 / 503 answers and broken connections are retried with jittered exponential backoff
 *   (writes only where the failure proves nothing was applied). Shortly after a restore from the
 *   trash, a 404 `Document is deleted` is retried too, until Grist's cache lets go (restored()).
 *   A write whose answer was lost (connection broken after sending, timeout, a proxy's 502 /
 *   504) is never repeated and its error is marked uncertain (`isUncertainWrite`): Grist may or
 *   may not have applied it.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ICredentialsDecrypted,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { headline, toNodeError } from '../errors/nodeErrors';
import { authenticationOf } from '../parameters/authentication';
import {
	errorHint,
	gristErrorText,
	isHtmlBody,
	notGristAnswer,
	redact,
} from '../errors/gristAnswers';
import {
	OAUTH_FORBIDDEN_HINT,
	grantedScopes,
	missingScopes,
	oauthRefusedMessage,
	oauthRule,
	oauthScopeMessage,
} from '../helpers/oauth';
import {
	DEFAULT_RETRY,
	RESTORE_SETTLE_MS,
	RecentRestores,
	backoffDelay,
	isDeletedAnswer,
	markUncertain,
	networkFailureText,
	settleDelay,
	shouldRetry,
	triedNote,
	writeMayHaveApplied,
	type RetryPolicy,
} from '../helpers/retry';
import { credentialServerUrl, normalizeServerUrl, type GristServer } from '../helpers/url';

/**
 * Restores from the trash done in this process, by server: shared by every client, as the next
 * operation on a restored document is often another node of the workflow, with its own client.
 */
const recentRestores = new RecentRestores();

export type GristContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export const CREDENTIAL_NAME = 'gristRecordsApi';
/** The OAuth2 credential (Grist calls OAuth clients "connected apps"). */
export const CONNECTED_APP_CREDENTIAL_NAME = 'gristRecordsOAuth2Api';

/** How the client authenticates: the credential type, and what must never appear in messages. */
interface Auth {
	credentialName: string;
	oauth: boolean;
	/**
	 * The API key credential as read once by `create`, handed to every request: without it n8n
	 * loads the credential from its database and decrypts it again for each request (2–3.5 ms
	 * a request in n8n 2.41.1 here, CPU profile of a create: 21 requests for 10,000 rows).
	 * Not for OAuth2, whose requests n8n signs (and refreshes) from the stored token.
	 */
	decrypted?: ICredentialsDecrypted;
	/** The API key, or the OAuth access and refresh tokens. */
	secrets: string[];
	/** The OAuth token's granted scopes, when the token answer stated them. */
	scopes?: string[];
}

export interface GristRequest {
	method: IHttpRequestMethods;
	/** A path built by the API layer (./api.ts), starting with `/api/`. */
	path: string;
	qs?: IDataObject;
	body?: unknown;
	/** What the request is about, for error hints: `document "abc"`. */
	what?: string;
	/** Item index for error messages of per-item requests. */
	itemIndex?: number;
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

interface FullResponse {
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

export class GristClient {
	private constructor(
		private readonly ctx: GristContext,
		readonly server: GristServer,
		private readonly auth: Auth,
		private readonly retry: RetryPolicy,
	) {}

	/** Whether requests go out with an OAuth2 token (which Grist allows fewer endpoints). */
	get isOAuth(): boolean {
		return this.auth.oauth;
	}

	static async create(ctx: GristContext, retry: RetryPolicy = DEFAULT_RETRY): Promise<GristClient> {
		if (authenticationOf(ctx) === 'oAuth2') return await this.createOAuth(ctx, retry);
		const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
		const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : '';
		if (apiKey === '') {
			throw new NodeOperationError(
				ctx.getNode(),
				'The API Key of the Grist credential is empty. Paste the key from Profile Settings → API in Grist.',
			);
		}
		let server: GristServer;
		try {
			server = normalizeServerUrl(credentialServerUrl(credentials));
		} catch (error) {
			throw toNodeError(ctx.getNode(), error, {
				hint: 'Fix the Server URL field of the Grist credential.',
			});
		}
		const saved = ctx.getNode().credentials?.[CREDENTIAL_NAME];
		const decrypted: ICredentialsDecrypted = {
			id: saved?.id ?? '',
			name: saved?.name ?? CREDENTIAL_NAME,
			type: CREDENTIAL_NAME,
			data: credentials,
		};
		return new GristClient(
			ctx,
			server,
			{ credentialName: CREDENTIAL_NAME, oauth: false, secrets: [apiKey], decrypted },
			retry,
		);
	}

	private static async createOAuth(ctx: GristContext, retry: RetryPolicy): Promise<GristClient> {
		const credentials = await ctx.getCredentials(CONNECTED_APP_CREDENTIAL_NAME);
		const token = (credentials.oauthTokenData ?? {}) as IDataObject;
		const text = (v: unknown) => (typeof v === 'string' ? v : '');
		if (text(token.access_token) === '') {
			throw new NodeOperationError(
				ctx.getNode(),
				'The Grist OAuth2 credential is not connected yet. Open it and click "Connect my account".',
			);
		}
		let server: GristServer;
		try {
			server = normalizeServerUrl(credentialServerUrl(credentials));
		} catch (error) {
			throw toNodeError(ctx.getNode(), error, {
				hint: 'Fix the Server URL field of the Grist OAuth2 credential.',
			});
		}
		const auth: Auth = {
			credentialName: CONNECTED_APP_CREDENTIAL_NAME,
			oauth: true,
			secrets: [text(token.access_token), text(token.refresh_token)].filter((t) => t !== ''),
			scopes: grantedScopes(token.scope),
		};
		return new GristClient(ctx, server, auth, retry);
	}

	/** Refuses, before sending, what Grist never allows an OAuth token or the token's scopes lack. */
	private checkOAuth(req: GristRequest): void {
		const rule = oauthRule(req.method, req.path);
		const refused = !rule.allowed ? oauthRefusedMessage(req.method, req.path) : undefined;
		const missing = this.auth.scopes ? missingScopes(rule, this.auth.scopes) : [];
		const problem = refused ?? (missing.length > 0 ? oauthScopeMessage(missing) : undefined);
		if (!problem) return;
		throw new NodeOperationError(this.ctx.getNode(), problem.message, {
			description: problem.hint,
			itemIndex: req.itemIndex,
		});
	}

	/** The node making the requests (for errors raised around them). */
	getNode(): INode {
		return this.ctx.getNode();
	}

	/** A JSON request; returns the parsed body. */
	async request<T = unknown>(req: GristRequest): Promise<T> {
		const res = await this.send(req, { json: true });
		return res.body as T;
	}

	/** A request whose answer is a file (exports, attachment downloads), kept byte for byte. */
	async binary(req: GristRequest): Promise<BinaryResponse> {
		const res = await this.send(req, { encoding: 'arraybuffer', json: false });
		const body = Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.body as ArrayBuffer);
		return { body, ...fileInfo(res) };
	}

	/**
	 * Like `binary`, but the body stays a stream (large attachment downloads go to n8n's binary
	 * data store without being held in memory). Error answers are read in full, as for `binary`.
	 */
	async binaryStream(req: GristRequest): Promise<StreamResponse> {
		const res = await this.send(req, { encoding: 'stream', json: false });
		return { body: res.body as StreamResponse['body'], ...fileInfo(res) };
	}

	private async send(
		req: GristRequest,
		extra: Pick<IHttpRequestOptions, 'json' | 'encoding'>,
	): Promise<FullResponse> {
		if (this.auth.oauth) this.checkOAuth(req);
		const options: IHttpRequestOptions = {
			method: req.method,
			baseURL: this.server.base,
			url: req.path,
			qs: req.qs,
			returnFullResponse: true,
			// n8n refreshes an OAuth2 token only when the request throws a 401: OAuth requests let
			// error answers throw, and their answer is taken from the error below.
			ignoreHttpStatusErrors: !this.auth.oauth,
			...extra,
		};
		if (req.body !== undefined) {
			options.body = req.body as IHttpRequestOptions['body'];
			if (!(req.body instanceof FormData)) {
				options.headers = { 'Content-Type': 'application/json' };
				options.json = extra.json;
			}
		}
		// repeats while a restore from the trash settles; not counted against maxRetries
		let settleWaits = 0;
		for (let retries = 0; ; ) {
			let res: FullResponse;
			try {
				res = (await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx,
					this.auth.credentialName,
					{ ...options },
					this.auth.decrypted && { credentialsDecrypted: this.auth.decrypted },
				)) as FullResponse;
			} catch (error) {
				const answer = this.auth.oauth ? errorAnswer(error) : undefined;
				if (answer) {
					res = answer;
				} else {
					const code = networkErrorCode(error);
					// n8n's own OAuth2 errors (not connected, refresh refused: reconnect) keep their text.
					if (this.auth.oauth && code === undefined) {
						throw new NodeOperationError(this.ctx.getNode(), error as Error, {
							description: (error as { description?: string }).description,
							itemIndex: req.itemIndex,
						});
					}
					if (shouldRetry(req.method, { kind: 'network', code }, retries, this.retry)) {
						await sleep(backoffDelay(retries, this.retry));
						retries++;
						continue;
					}
					throw this.networkError(error, code, req, retries + settleWaits);
				}
			}
			if (res.statusCode >= 200 && res.statusCode < 300) {
				// A JSON endpoint answered with a web page: the Server URL is not a Grist API.
				if (extra.json && isHtmlBody(res.body))
					throw this.apiError(res, req, retries + settleWaits);
				return res;
			}
			if (isStream(res.body)) res.body = await readStream(res.body);
			const settling = this.restoreSettling(res);
			if (settling > 0) {
				// nothing was applied: Grist refused the request before handling it
				await sleep(Math.min(settleDelay(settleWaits), settling));
				settleWaits++;
				continue;
			}
			if (
				shouldRetry(req.method, { kind: 'status', status: res.statusCode }, retries, this.retry)
			) {
				await sleep(backoffDelay(retries, this.retry));
				retries++;
				continue;
			}
			throw this.apiError(res, req, retries + settleWaits);
		}
	}

	/**
	 * Notes that a document or workspace was restored from the trash (the API layer's
	 * restoreFromTrash calls it once Grist confirmed): for a while the server may still say its
	 * documents are deleted, and such answers are retried (`restoreSettling`).
	 */
	restored(): void {
		recentRestores.note(this.server.origin);
	}

	/**
	 * For a 404 `Document is deleted` shortly after a restore on this server (see
	 * RESTORE_SETTLE_MS): the ms left to wait for Grist's cache to let go; else 0.
	 */
	private restoreSettling(res: FullResponse): number {
		if (res.statusCode !== 404) return 0;
		const left = recentRestores.settleLeft(
			this.server.origin,
			this.retry.restoreSettleMs ?? RESTORE_SETTLE_MS,
		);
		if (left <= 0 || !isDeletedAnswer(res.statusCode, gristErrorText(res.body, res.statusCode)))
			return 0;
		return left;
	}

	private redact(text: string): string {
		return this.auth.secrets.reduce((t, secret) => redact(t, secret), text);
	}

	/** `repeats`: how many times the request was sent again (for the "Tried n times" note). */
	private apiError(res: FullResponse, req: GristRequest, repeats: number): NodeApiError {
		const body = res.body;
		const notGrist = notGristAnswer(res.statusCode, body, this.server.origin);
		const text = notGrist?.message ?? this.redact(gristErrorText(body, res.statusCode));
		let hint =
			notGrist?.hint ??
			(this.auth.oauth && res.statusCode === 403
				? OAUTH_FORBIDDEN_HINT
				: errorHint(res.statusCode, text, { method: req.method, path: req.path }));
		const uncertain = writeMayHaveApplied(req.method, { kind: 'status', status: res.statusCode });
		if (uncertain) {
			hint +=
				' This answer came from a proxy in front of Grist, not from Grist, so whether the write was applied is uncertain: check in Grist before running again.';
		}
		hint += triedNote(repeats + 1);
		const response: JsonObject = { error: text, status: res.statusCode };
		const error = new NodeApiError(this.ctx.getNode(), response, {
			message: headline(text),
			description: hint,
			httpCode: String(res.statusCode),
			itemIndex: req.itemIndex,
		});
		// NodeApiError may replace a message it considers generic; Grist's own text must stay.
		error.message = headline(text);
		error.description = hint;
		if (uncertain) markUncertain(error);
		return error;
	}

	private networkError(
		error: unknown,
		code: string | undefined,
		req: GristRequest,
		repeats: number,
	): NodeApiError {
		const text = this.redact(networkErrorMessage(error));
		const failure = networkFailureText({
			origin: this.server.origin,
			method: req.method,
			code,
			text,
			tries: repeats + 1,
		});
		const apiError = new NodeApiError(
			this.ctx.getNode(),
			{ error: text, code: code ?? null } as JsonObject,
			{ message: failure.message, description: failure.description, itemIndex: req.itemIndex },
		);
		// NodeApiError may replace a message it considers generic.
		apiError.message = failure.message;
		apiError.description = failure.description;
		if (failure.uncertain) markUncertain(apiError);
		return apiError;
	}
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
function fileInfo(res: FullResponse): Pick<BinaryResponse, 'headers' | 'fileName' | 'mimeType'> {
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

function isStream(body: unknown): body is AsyncIterable<unknown> {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as { pipe?: unknown }).pipe === 'function' &&
		Symbol.asyncIterator in body
	);
}

/** Reads an (error) answer's stream in full, so its text can be shown and the socket freed. */
async function readStream(body: AsyncIterable<unknown>): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of body) {
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	}
	return Buffer.concat(chunks);
}

/** The network error code behind an error thrown by n8n's request helper. */
export function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let e: unknown = error;
	while (e && typeof e === 'object' && !seen.has(e)) {
		seen.add(e);
		const code = (e as { code?: unknown }).code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'ERR_BAD_RESPONSE')
			return code;
		e = (e as { cause?: unknown }).cause;
	}
	return undefined;
}

/**
 * The network error's own text (`socket hang up`, `connect ECONNREFUSED 127.0.0.1:1`): the
 * message of the innermost error carrying the code. n8n's request helper replaces the message
 * of a known code by advice of its own ("…You can retry the request immediately…") that may
 * contradict ours (a broken write must not be repeated blindly).
 */
export function networkErrorMessage(error: unknown): string {
	const seen = new Set<unknown>();
	let found: string | undefined;
	let e: unknown = error;
	while (e && typeof e === 'object' && !seen.has(e)) {
		seen.add(e);
		const { code, message } = e as { code?: unknown; message?: unknown };
		if (typeof code === 'string' && typeof message === 'string' && message !== '') found = message;
		e = (e as { cause?: unknown }).cause;
	}
	return found ?? (error instanceof Error ? error.message : String(error));
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
