/**
 * The one place every HTTP request to Grist passes.
 *
 * - Requests go through `httpRequestWithAuthentication` (n8n's proxies, auth and logging).
 * - Paths come from the API layer (the other files of api/, through ./paths.ts), built from
 *   encoded segments, so ids can never change the endpoint.
 * - Grist errors become NodeApiError with Grist's own text, the status and a hint
 *   (./requestErrors.ts).
 * - 429 / 503 answers and broken connections are retried with jittered exponential backoff
 *   (writes only where the failure proves nothing was applied). The 429 of a plan's API limit is
 *   not retried, and once a document answered it, this client sends it nothing more that would
 *   spend its limit (the error says so instead). Shortly after a restore from the
 *   trash, a 404 `Document is deleted` is retried too, until Grist's cache lets go (restored()).
 *   A write whose answer was lost (connection broken after sending, timeout, a proxy's 502 /
 *   504) is never repeated and its error is marked uncertain (`isUncertainWrite`): Grist may or
 *   may not have applied it.
 * - With a time budget (`RetryPolicy.budgetMs`, e.g. a poll's), every request's timeout ends
 *   with the budget, retries stop where they would pass it, and no request starts after it.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	NodeApiError,
	IHookFunctions,
	IHttpRequestMethods,
	ICredentialsDecrypted,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { toNodeError } from '../errors/nodeErrors';
import { authenticationOf } from '../parameters/authentication';
import { gristErrorText, isHtmlBody } from '../errors/gristAnswers';
import {
	grantedScopes,
	missingScopes,
	oauthRefusedMessage,
	oauthRule,
	oauthScopeMessage,
} from './oauthScope';
import {
	DEFAULT_RETRY,
	RESTORE_SETTLE_MS,
	RecentRestores,
	backoffDelay,
	isDeletedAnswer,
	retryFits,
	settleDelay,
	shouldRetry,
	type RetryPolicy,
} from './retry';
import { credentialServerUrl, normalizeServerUrl, type GristServer } from './url';
import {
	errorAnswer,
	fileInfo,
	isStream,
	readStream,
	type BinaryResponse,
	type FullResponse,
	type StreamResponse,
} from './httpAnswer';
import {
	answerError,
	connectionError,
	isApiLimitError,
	limitedDocument,
	networkErrorCode,
	notSentError,
	type Sender,
} from './requestErrors';

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
	 * loads the credential from its database and decrypts it again for each request (its cost:
	 * docs/PERFORMANCE.md). Not for OAuth2, whose requests n8n signs (and refreshes) from the
	 * stored token.
	 */
	decrypted?: ICredentialsDecrypted;
	/** The API key, or the OAuth access and refresh tokens. */
	secrets: string[];
	/** The OAuth token's granted scopes, when the token answer stated them. */
	scopes?: string[];
}

export interface GristRequest {
	method: IHttpRequestMethods;
	/** A path built by the API layer (./paths.ts), starting with `/api/`. */
	path: string;
	qs?: IDataObject;
	body?: unknown;
	/** What the request is about, for error hints: `document "abc"`. */
	what?: string;
	/** Item index for error messages of per-item requests. */
	itemIndex?: number;
}

export class GristClient {
	/** When the client was made: its retry policy's budget counts from here. */
	private readonly startedAt = Date.now();
	/** The last failed attempt's text, for the error of a run whose budget is spent. */
	private lastFailure = '';
	/**
	 * The documents whose plan's API limit Grist said is reached, with its refusal: this client's
	 * later requests that would spend their limit are not sent (see `limitedDocument`).
	 */
	private readonly limited = new Map<string, NodeApiError>();

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
				'The API Key of the Grist credential is empty. Paste the key from Account settings → Developer → API Key in Grist.',
			);
		}
		const server = credentialServer(ctx, credentials, 'Grist credential');
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
		const server = credentialServer(ctx, credentials, 'Grist OAuth2 credential');
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

	/**
	 * Hides `secret` (a key Grist answered, e.g. a new service account's) in the texts of every
	 * later error of this client, as the credential's own key is.
	 */
	hideSecret(secret: string): void {
		if (secret !== '' && !this.auth.secrets.includes(secret)) this.auth.secrets.push(secret);
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
		const limitedDoc = limitedDocument(req.method, req.path);
		const refusal = limitedDoc !== undefined ? this.limited.get(limitedDoc) : undefined;
		if (refusal) throw notSentError(this.sender(), refusal, limitedDoc!, req);
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
			const left = this.timeLeft();
			if (left <= 0) throw this.outOfTime(req);
			try {
				res = (await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx,
					this.auth.credentialName,
					Number.isFinite(left) ? { ...options, timeout: Math.ceil(left) } : { ...options },
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
					const failure = connectionError(this.sender(), error, code, req, retries + settleWaits);
					this.lastFailure = failure.message;
					const delay = backoffDelay(retries, this.retry);
					if (
						shouldRetry(req.method, { kind: 'network', code }, retries, this.retry) &&
						retryFits(delay, this.timeLeft())
					) {
						await sleep(delay);
						retries++;
						continue;
					}
					throw failure;
				}
			}
			if (res.statusCode >= 200 && res.statusCode < 300) {
				// A JSON endpoint answered with a web page: the Server URL is not a Grist API.
				if (extra.json && isHtmlBody(res.body))
					throw answerError(this.sender(), res, req, retries + settleWaits);
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
			const refused = answerError(this.sender(), res, req, retries + settleWaits);
			this.lastFailure = refused.message;
			const text = gristErrorText(res.body, res.statusCode);
			const delay = backoffDelay(retries, this.retry);
			if (
				shouldRetry(
					req.method,
					{ kind: 'status', status: res.statusCode, text },
					retries,
					this.retry,
				) &&
				retryFits(delay, this.timeLeft())
			) {
				await sleep(delay);
				retries++;
				continue;
			}
			if (limitedDoc !== undefined && isApiLimitError(refused))
				this.limited.set(limitedDoc, refused);
			throw refused;
		}
	}

	/** Ms left of the retry policy's budget; Infinity without one. */
	private timeLeft(): number {
		const { budgetMs } = this.retry;
		return budgetMs === undefined ? Infinity : this.startedAt + budgetMs - Date.now();
	}

	/** The error of a request not sent because the budget is spent (earlier requests took it). */
	private outOfTime(req: GristRequest): NodeOperationError {
		const seconds = Math.round((this.retry.budgetMs ?? 0) / 100) / 10;
		const last = this.lastFailure ? ` The last failure: ${this.lastFailure}` : '';
		return new NodeOperationError(
			this.ctx.getNode(),
			`The Grist server at ${this.server.origin} did not answer in time: the ${seconds} s this run may wait for Grist are over`,
			{
				description: `Earlier requests were slow or failed and were retried, so ${req.method} ${req.path.split('?')[0]} was not sent. Check that the server is up and not overloaded.${last}`,
				itemIndex: req.itemIndex,
			},
		);
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

	/** The node, server and secrets an error of this client names (or hides). */
	private sender(): Sender {
		const { oauth, secrets } = this.auth;
		return { node: this.ctx.getNode(), origin: this.server.origin, oauth, secrets };
	}
}

/** The credential's Server URL, normalised; a bad one fails naming the credential's field. */
function credentialServer(
	ctx: GristContext,
	credentials: { url?: unknown },
	credential: string,
): GristServer {
	try {
		return normalizeServerUrl(credentialServerUrl(credentials));
	} catch (error) {
		throw toNodeError(ctx.getNode(), error, {
			hint: `Fix the Server URL field of the ${credential}.`,
		});
	}
}
