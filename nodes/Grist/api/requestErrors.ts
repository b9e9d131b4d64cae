/**
 * What a failed request becomes: Grist's answer, or the broken connection, as a NodeApiError with
 * Grist's own text (secrets redacted), the status and a hint that says what to do, and how many
 * times it was tried. A write whose outcome is unknown (a proxy's 502 / 504, a connection broken
 * after sending) is marked uncertain (`isUncertainWrite`).
 */
import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { headline } from '../errors/nodeErrors';
import {
	errorHint,
	gristErrorText,
	isApiLimitAnswer,
	notGristAnswer,
	pathObjects,
	redact,
} from '../errors/gristAnswers';
import type { FullResponse } from './httpAnswer';
import { OAUTH_FORBIDDEN_HINT } from './oauthScope';
import { markUncertain, networkFailureText, triedNote, writeMayHaveApplied } from './retry';

/** Who sent the request: the node the error names, the server, and what must never be shown. */
export interface Sender {
	node: INode;
	origin: string;
	oauth: boolean;
	/** The API key, or the OAuth access and refresh tokens. */
	secrets: string[];
}

/** The request that failed, as far as the error says. */
export interface FailedRequest {
	method: IHttpRequestMethods;
	path: string;
	itemIndex?: number;
}

function redactSecrets(sender: Sender, text: string): string {
	return sender.secrets.reduce((t, secret) => redact(t, secret), text);
}

/**
 * The error for an answer that is not a success (or a web page where JSON was expected).
 * `repeats`: how many times the request was sent again (for the "Tried n times" note).
 */
export function answerError(
	sender: Sender,
	res: FullResponse,
	req: FailedRequest,
	repeats: number,
): NodeApiError {
	const body = res.body;
	const notGrist = notGristAnswer(res.statusCode, body, sender.origin);
	const text = notGrist?.message ?? redactSecrets(sender, gristErrorText(body, res.statusCode));
	let hint =
		notGrist?.hint ??
		(sender.oauth && res.statusCode === 403
			? OAUTH_FORBIDDEN_HINT
			: errorHint(res.statusCode, text, { method: req.method, path: req.path }));
	const uncertain = writeMayHaveApplied(req.method, { kind: 'status', status: res.statusCode });
	if (uncertain) {
		hint +=
			' This answer came from a proxy in front of Grist, not from Grist, so whether the write was applied is uncertain: check in Grist before running again.';
	}
	hint += triedNote(repeats + 1);
	const response: JsonObject = { error: text, status: res.statusCode };
	const error = new NodeApiError(sender.node, response, {
		message: headline(text),
		description: hint,
		httpCode: String(res.statusCode),
		itemIndex: req.itemIndex,
	});
	// NodeApiError may replace a message it considers generic; Grist's own text must stay.
	error.message = headline(text);
	error.description = hint;
	if (uncertain) markUncertain(error);
	if (isApiLimitAnswer(res.statusCode, text)) markApiLimit(error);
	return error;
}

function markApiLimit(error: NodeApiError): void {
	if (error.context) error.context.apiLimit = true;
}

/** Whether an error is Grist's refusal past the API limit of the plan (sent, or not sent because of one). */
export function isApiLimitError(error: unknown): boolean {
	const context = (error as { context?: Record<string, unknown> } | null)?.context;
	return !!context && context.apiLimit === true;
}

/**
 * The document whose API limit a request spends: grist-core counts the requests of its doc
 * worker routes (`/api/docs/{doc}/…` but `…/access` and `…/move`, and DELETE `/api/docs/{doc}`),
 * not those its home server answers (GET `/api/docs/{doc}`, the sites, the workspaces).
 */
export function limitedDocument(method: string, path: string): string | undefined {
	const doc = pathObjects(path).document;
	if (doc === undefined) return undefined;
	const rest = path.split(/[?#]/)[0].replace(/^.*?\/api\/docs\/[^/]+/, '');
	if (rest === '' || rest === '/') return method.toUpperCase() === 'DELETE' ? doc : undefined;
	return /^\/(access|move)\/?$/.test(rest) ? undefined : doc;
}

/**
 * The error of a request not sent because Grist refused an earlier one to the same document in
 * this run at the plan's API limit (`refusal`): every further request would meet the limit too,
 * or spend the little that still gets through.
 */
export function notSentError(
	sender: Sender,
	refusal: NodeApiError,
	docId: string,
	req: FailedRequest,
): NodeApiError {
	const description =
		`Not sent: Grist refused an earlier request to document "${docId}" in this run because the API limit is reached, and each further request would meet it too. ${refusal.description ?? ''}`.trim();
	const error = new NodeApiError(
		sender.node,
		{ error: refusal.message, status: 429 } as JsonObject,
		{ message: refusal.message, description, httpCode: '429', itemIndex: req.itemIndex },
	);
	error.message = refusal.message;
	error.description = description;
	markApiLimit(error);
	if (error.context) error.context.notSent = true;
	return error;
}

/** The error for a request that got no answer (`code`: the network error code, if any). */
export function connectionError(
	sender: Sender,
	error: unknown,
	code: string | undefined,
	req: FailedRequest,
	repeats: number,
): NodeApiError {
	const text = redactSecrets(sender, networkErrorMessage(error));
	const failure = networkFailureText({
		origin: sender.origin,
		method: req.method,
		code,
		text,
		tries: repeats + 1,
	});
	const apiError = new NodeApiError(
		sender.node,
		{ error: text, code: code ?? null } as JsonObject,
		{ message: failure.message, description: failure.description, itemIndex: req.itemIndex },
	);
	// NodeApiError may replace a message it considers generic.
	apiError.message = failure.message;
	apiError.description = failure.description;
	if (failure.uncertain) markUncertain(apiError);
	return apiError;
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
