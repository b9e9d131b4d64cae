/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test fixture (an HTTP server emulating Grist), not node code */
/** Per-request context shared by the route modules. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParsedBody } from './http';
import { ApiError } from './http';
import type { Doc, Grant, Org, Store, User, Workspace } from './model';
import { atLeast } from './model';
import { docAuth } from './doc-auth';

export type Scope = { kind: 'none' } | { kind: 'merged' } | { kind: 'org'; key: string };

export interface Ctx {
	req: IncomingMessage;
	res: ServerResponse;
	method: string;
	apiPath: string;
	query: Record<string, string>;
	scope: Scope;
	user: User;
	isAnon: boolean;
	body: ParsedBody;
	store: Store;
	/** This request's entry in the emulator's log (cost model: `rowsScanned`). */
	log?: { rowsScanned?: number };
	opts: Required<
		Omit<
			import('./index').EmulatorOptions,
			| 'singleOrg'
			| 'allowedWebhookDomains'
			| 'webhookRetryDelaysMs'
			| 'activeDocTimeoutMs'
			| 'redisWebhookQueue'
			| 'dailyApiLimit'
		>
	> & { singleOrg?: string };
}

export const RAW = Symbol('raw');
export type Handler = (c: Ctx, m: RegExpMatchArray) => unknown;
export interface Route {
	method: string;
	re: RegExp;
	handler: Handler;
}

/**
 * Cost model: counts rows a request reads. A records or /data read evaluates, filters and sorts
 * the whole table in the data engine (the document loaded); /sql counts per SQLite's query plan.
 */
export function scanned(c: Ctx, rows: number): void {
	if (c.log) c.log.rowsScanned = (c.log.rowsScanned ?? 0) + rows;
}

export function json(c: Ctx): unknown {
	return c.body.json;
}

/** The org selected by the request's host or /o/ prefix, when it is one org. */
export function scopeOrg(c: Ctx): Org | undefined {
	return c.scope.kind === 'org' ? c.store.orgByKey(c.scope.key) : undefined;
}

export function resolveOrg(c: Ctx, key: string): Org {
	let org: Org | undefined;
	if (key === 'current') {
		if (c.scope.kind === 'none') throw new ApiError(400, 'No organization chosen');
		if (c.scope.kind === 'merged') org = c.isAnon ? undefined : c.store.personalOrg(c.user.id);
		else org = c.store.orgByKey(c.scope.key);
	} else if (key === 'docs' && !c.store.orgByKey('docs')) {
		// the merged personal org's domain stands for the caller's personal org
		org = c.isAnon ? undefined : c.store.personalOrg(c.user.id);
	} else {
		org = c.store.orgByKey(decodeURIComponent(key));
	}
	if (!org) throw new ApiError(404, 'organization not found');
	return org;
}

/** 403 `access denied` (the home DB's refusal) unless the caller's role is `owners`. */
export function ownerOrDeny(role: Grant): void {
	if (role !== 'owners') throw new ApiError(403, 'access denied');
}

export function orgAccessOrDeny(c: Ctx, org: Org): void {
	if (!c.store.orgListRole(c.user.id, org)) throw new ApiError(403, 'access denied');
}

/** Grist's `integerParam`: parseInt semantics ("12abc" is 12), else 400 naming the parameter. */
export function integerParam(raw: string, name: string): number {
	const n = parseInt(decodeURIComponent(raw), 10);
	if (Number.isNaN(n))
		throw new ApiError(
			400,
			`${name} parameter cannot be understood as an integer: ${decodeURIComponent(raw)}`,
		);
	return n;
}

export function resolveWorkspace(c: Ctx, raw: string): Workspace {
	const ws = c.store.workspaces.get(integerParam(raw, 'wid'));
	if (!ws) throw new ApiError(404, 'workspace not found');
	const so = scopeOrg(c);
	if (c.scope.kind === 'org' && (!so || so.id !== ws.orgId))
		throw new ApiError(404, 'workspace not found');
	return ws;
}

/** Finds a doc by id or urlId, respecting the request's org. Throws 404 `document not found`. */
export function resolveDoc(c: Ctx, raw: string): Doc {
	const key = decodeURIComponent(raw);
	const doc = c.store.docByKey(key);
	if (!doc) throw new ApiError(404, 'document not found');
	if (c.scope.kind === 'org') {
		const so = scopeOrg(c);
		if (!so || so.id !== c.store.workspaces.get(doc.workspaceId)!.orgId)
			throw new ApiError(404, 'document not found');
	}
	return doc;
}

/**
 * Doc-worker access check: `No view access` / `No write access` / `No owner access`; a doc in
 * the trash is 404 `Document is deleted` (Authorizer.assertAccess) unless `allowRemoved`. Both
 * as the home server's doc-auth cache has them when the emulator has one (doc-auth.ts).
 */
export function docWorkerAccess(
	c: Ctx,
	raw: string,
	needed: 'viewers' | 'editors' | 'owners',
	allowRemoved = false,
): Doc {
	const key = decodeURIComponent(raw);
	// the home server knows a fork ID by its trunk; the doc worker finds no such fork (routes-forks.ts)
	if (key.includes('~') && !c.store.docByKey(key) && c.store.docByKey(key.split('~')[0]))
		throw new ApiError(404, 'Document fork not found');
	const doc = resolveDoc(c, raw);
	const { role, removed } = docAuth(c, doc);
	if (!atLeast(role, 'viewers')) throw new ApiError(403, 'No view access');
	if (!allowRemoved && removed) throw new ApiError(404, 'Document is deleted');
	if (needed === 'editors' && !atLeast(role, 'editors')) throw new ApiError(403, 'No write access');
	if (needed === 'owners' && !atLeast(role, 'owners')) throw new ApiError(403, 'No owner access');
	return doc;
}
