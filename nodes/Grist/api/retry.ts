/**
 * Retry policy of the client (client.ts; pure, so tests can call it directly).
 * Grist sends no Retry-After, so we back off exponentially with jitter.
 */
import { isApiLimitAnswer } from '../errors/gristAnswers';

export interface RetryPolicy {
	maxRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/**
	 * How long after a restore from the trash a 404 `Document is deleted` is waited out (ms; see
	 * `isDeletedAnswer`). Default `RESTORE_SETTLE_MS`.
	 */
	restoreSettleMs?: number;
	/**
	 * The most time (ms, from the client's creation) that its requests and their retries may
	 * take: each request's timeout ends there, no retry starts whose delay would reach it, and
	 * no request starts after it. Undefined: no such bound (n8n's own request timeout applies).
	 */
	budgetMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 250, maxDelayMs: 8000 };

/**
 * Grist's home server caches each user's access to a document, including whether it is in the
 * trash, for 5 s (HomeDBManager's doc-auth cache, GRIST_TEST_DOC_AUTH_CACHE_TTL), and restoring
 * a document or a workspace does not clear it (/unremove; removing does). So a document that was
 * read while in the trash can still answer 404 `Document is deleted` for up to 5 s after its
 * restore, on every request that opens it. For this long after a restore through this package,
 * such an answer is retried: 6 s, the cache's 5 s and a margin.
 */
export const RESTORE_SETTLE_MS = 6000;

/** Whether an answer is Grist's for a document in the trash (Authorizer.assertAccess). */
export function isDeletedAnswer(status: number, text: string): boolean {
	return status === 404 && text.trim() === 'Document is deleted';
}

/** Pause before the next try while a restore settles: short, growing (200, 400, 800 ms), at most 1 s. */
export function settleDelay(wait: number): number {
	return Math.min(1000, 200 * 2 ** wait);
}

/**
 * When documents were last restored from the trash, by Grist server (its origin). Restoring a
 * workspace restores its documents without naming them, so a restore counts for every document
 * of the server: a 404 `Document is deleted` from it is retried until the settle time after its
 * last restore has passed, and not after.
 */
export class RecentRestores {
	private readonly restoredAt = new Map<string, number>();

	constructor(private readonly now: () => number = Date.now) {}

	/** Notes a restore on `server` (done now). */
	note(server: string): void {
		const now = this.now();
		// forget restores whose settle time has long passed, so the map stays small
		for (const [key, at] of this.restoredAt)
			if (now - at > 10 * RESTORE_SETTLE_MS) this.restoredAt.delete(key);
		this.restoredAt.set(server, now);
	}

	/** How many ms of `settleMs` after the last restore on `server` are left (0: none). */
	settleLeft(server: string, settleMs: number): number {
		const at = this.restoredAt.get(server);
		if (at === undefined) return 0;
		return Math.max(0, at + settleMs - this.now());
	}
}

/** Error codes that mean the connection broke. */
const CONNECTION_RESET = new Set([
	'ECONNRESET',
	'EPIPE',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'UND_ERR_SOCKET',
]);
/** Error codes that mean no connection was made, so nothing reached the server; worth retrying. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EAI_AGAIN']);
/** Also no connection (unknown host, no route, TLS refused): nothing was sent, but retrying will not help. */
const NOT_CONNECTED_FINAL = new Set([
	'ENOTFOUND',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);
/** Error codes of a request that got no answer in time. */
const TIMED_OUT = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED']);

export type Attempt =
	/** `text`: Grist's error text, which tells its two 429 answers apart. */
	{ kind: 'status'; status: number; text?: string } | { kind: 'network'; code?: string };

export function isIdempotent(method: string): boolean {
	return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/**
 * Whether a failed attempt may be repeated. 429 and 503 answers prove that Grist applied nothing,
 * so every method retries them, except the 429 of a plan's API limit (`isApiLimitAnswer`), which
 * lasts until the day's allowance is back: retries only meet it again, and those that get through
 * count. A broken connection is retried only for reads, or where no connection was ever made: a
 * write may have been applied before the connection dropped.
 */
export function shouldRetry(
	method: string,
	attempt: Attempt,
	retriesDone: number,
	policy: RetryPolicy = DEFAULT_RETRY,
): boolean {
	if (retriesDone >= policy.maxRetries) return false;
	if (attempt.kind === 'status') {
		if (attempt.status === 429) return !isApiLimitAnswer(attempt.status, attempt.text ?? '');
		return attempt.status === 503;
	}
	const code = attempt.code ?? '';
	if (NOT_CONNECTED.has(code)) return true;
	return isIdempotent(method) && CONNECTION_RESET.has(code);
}

/** Delay before retry number `retry` (0-based): exponential with "equal jitter". */
export function backoffDelay(
	retry: number,
	policy: RetryPolicy = DEFAULT_RETRY,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Whether a retry after `delayMs` fits in what is left of the policy's budget (`leftMs`; Infinity
 * without a budget): the retried request must still have some time for its answer.
 */
export function retryFits(delayMs: number, leftMs: number): boolean {
	return delayMs < leftMs;
}

/** Whether a network error code proves that the request never reached the server. */
export function neverSent(code: string | undefined): boolean {
	return code !== undefined && (NOT_CONNECTED.has(code) || NOT_CONNECTED_FINAL.has(code));
}

/**
 * Whether a failed write may have been applied. Only an answer from Grist (a status) or a
 * connection that was never made proves that nothing was written. A broken connection or a
 * timeout after the request was sent does not, and neither do 502 / 504, the answers of a proxy
 * in front of Grist that lost Grist's answer (Grist itself never sends them).
 */
export function writeMayHaveApplied(method: string, attempt: Attempt): boolean {
	if (isIdempotent(method)) return false;
	if (attempt.kind === 'status') return attempt.status === 502 || attempt.status === 504;
	return !neverSent(attempt.code);
}

/** ` (Tried 3 times.)` after a request that was sent more than once, else ''. */
export function triedNote(tries: number): string {
	return tries > 1 ? ` (Tried ${tries} times.)` : '';
}

export interface NetworkFailure {
	/** The server's address as shown to the user (never with the key). */
	origin: string;
	method: string;
	code?: string;
	/** The error's own text, already redacted. */
	text: string;
	/** How many times the request was sent (or tried to be). */
	tries: number;
}

/**
 * Message and description of a request that got no answer, matching what happened: no
 * connection (nothing reached Grist), or a connection that broke or timed out after the request
 * was sent (for a write: it may or may not have been applied, and was not repeated).
 */
export function networkFailureText(f: NetworkFailure): {
	message: string;
	description: string;
	uncertain: boolean;
} {
	const tried = triedNote(f.tries);
	const detail = f.code && !f.text.includes(f.code) ? `${f.code}: ${f.text}` : f.text;
	if (neverSent(f.code)) {
		const write = isIdempotent(f.method) ? '' : ' Nothing reached Grist, so nothing was written.';
		return {
			message: `Could not reach the Grist server at ${f.origin}: ${detail}`,
			description: `Check the Server URL of the credential and that the server is up.${write}${tried}`,
			uncertain: false,
		};
	}
	const timedOut = f.code !== undefined && TIMED_OUT.has(f.code);
	const server = `the Grist server at ${f.origin}`;
	if (isIdempotent(f.method)) {
		const what = timedOut
			? `The Grist server at ${f.origin} did not answer in time`
			: f.code
				? `The connection to ${server} broke before its answer arrived`
				: `The request to ${server} failed without an answer`;
		return {
			message: `${what}: ${detail}`,
			description: `Check that the server is up and not overloaded, and any proxy between n8n and Grist.${tried}`,
			uncertain: false,
		};
	}
	const what = timedOut
		? `The Grist server at ${f.origin} did not answer in time after the request was sent`
		: f.code
			? `The connection to ${server} broke after the request was sent`
			: `The request to ${server} failed without an answer`;
	return {
		message: `${what} (${detail}): the write may or may not have been applied`,
		description:
			'Whether Grist applied it is uncertain. It was not repeated, since repeating an applied write ' +
			`would apply it twice: check in Grist whether it was applied before running again.${tried}`,
		uncertain: true,
	};
}

/** Marks an error (NodeApiError…) as one of a write that may have been applied. */
export function markUncertain(error: { context?: Record<string, unknown> }): void {
	if (error.context) error.context.writeUncertain = true;
}

/** Whether an error is one of a write that may have been applied (see `writeMayHaveApplied`). */
export function isUncertainWrite(error: unknown): boolean {
	const context = (error as { context?: Record<string, unknown> } | null)?.context;
	return !!context && context.writeUncertain === true;
}
