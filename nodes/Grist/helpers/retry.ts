/**
 * Retry policy of the transport (pure, so tests can call it directly).
 * Grist sends no Retry-After, so we back off exponentially with jitter.
 */

export interface RetryPolicy {
	maxRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 250, maxDelayMs: 8000 };

/** Error codes that mean the connection broke. */
const CONNECTION_RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_SOCKET']);
/** Error codes that mean no connection was made, so nothing reached the server. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EAI_AGAIN']);

export type Attempt =
	| { kind: 'status'; status: number }
	| { kind: 'network'; code?: string };

export function isIdempotent(method: string): boolean {
	return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/**
 * Whether a failed attempt may be repeated. 429 and 503 answers prove that Grist applied nothing,
 * so every method retries them. A broken connection is retried only for reads, or where no
 * connection was ever made: a write may have been applied before the connection dropped.
 */
export function shouldRetry(method: string, attempt: Attempt, retriesDone: number, policy: RetryPolicy = DEFAULT_RETRY): boolean {
	if (retriesDone >= policy.maxRetries) return false;
	if (attempt.kind === 'status') return attempt.status === 429 || attempt.status === 503;
	const code = attempt.code ?? '';
	if (NOT_CONNECTED.has(code)) return true;
	return isIdempotent(method) && CONNECTION_RESET.has(code);
}

/** Delay before retry number `retry` (0-based): exponential with "equal jitter". */
export function backoffDelay(retry: number, policy: RetryPolicy = DEFAULT_RETRY, random: () => number = Math.random): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
