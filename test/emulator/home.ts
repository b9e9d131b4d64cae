/**
 * What the home-DB route sections (orgs, workspaces, docs: §2–§4) share: the JSON of orgs,
 * workspaces and docs as listed, what a caller can see, and body checks.
 */
import type { Ctx } from './context';
import { resolveDoc, resolveWorkspace } from './context';
import { ApiError } from './http';
import type { Doc, Grant, Org, User, Workspace } from './model';
import { isAffirmative } from './query';

/** `?showRemoved=1`: listings and GET /docs/{id} show the trash instead (grist-core's scope.showRemoved). */
export function showRemoved(c: Ctx): boolean {
	return isAffirmative(c.query.showRemoved);
}

export function userOwner(u: User) {
	return {
		id: u.id,
		name: u.name,
		picture: null,
		ref: u.ref,
		createdAt: u.createdAt,
		type: 'login',
	};
}

/**
 * The `access` an org or workspace is listed with: grist-core names it from the permission bits
 * (GroupsManager.getRoleFromPermissions), and its guests and members groups have VIEW, so a guest
 * (or member) is listed as a viewer (measured on 1.7.17: a site's guest, its workspace, a site's member).
 */
function listedRole(role: Grant): Grant {
	return role === 'guests' || role === 'members' ? 'viewers' : role;
}

/** An org as listed (GET /api/orgs, workspaces' `org`); `withAccess: false` for the `org` inside GET /api/workspaces/{id}. */
export function orgJson(c: Ctx, org: Org, withAccess = true) {
	const owner = org.personalOwner ? c.store.users.get(org.personalOwner) : undefined;
	const out: Record<string, unknown> = {
		id: org.id,
		name: org.name,
		domain: org.domain,
		host: org.host,
		owner: owner ? userOwner(owner) : null,
	};
	if (withAccess) out.access = listedRole(c.store.orgListRole(c.user.id, org));
	out.createdAt = org.createdAt;
	out.updatedAt = org.updatedAt;
	return out;
}

export function docJson(c: Ctx, doc: Doc) {
	const out: Record<string, unknown> = {
		id: doc.id,
		name: doc.name,
		access: c.store.docRole(c.user.id, doc),
		isPinned: doc.isPinned,
		urlId: doc.urlId,
		trunkId: doc.fork?.trunkId ?? null,
		type: doc.type,
		createdAt: doc.createdAt,
		updatedAt: doc.updatedAt,
	};
	if (doc.options) out.options = doc.options;
	if (doc.removedAt) out.removedAt = doc.removedAt;
	return out;
}

export function visibleDocs(c: Ctx, ws: Workspace): Doc[] {
	const out: Doc[] = [];
	for (const d of c.store.docs.values())
		if (
			d.workspaceId === ws.id &&
			c.store.docRole(c.user.id, d) &&
			c.store.isRemoved(d) === showRemoved(c)
		)
			out.push(d);
	return out;
}

/**
 * Whether a workspace is listed (grist-core's `workspaces_filtered_out`): one that shows docs,
 * else one in the trash only with `showRemoved`, one not in the trash only without it.
 */
export function wsListed(c: Ctx, ws: Workspace): boolean {
	return visibleDocs(c, ws).length > 0 || Boolean(ws.removedAt) === showRemoved(c);
}

export function wsAccess(c: Ctx, ws: Workspace): Grant {
	const r = c.store.wsRole(c.user.id, ws);
	if (r) return r;
	return visibleDocs(c, ws).length ? 'guests' : null;
}

export function wsBase(c: Ctx, ws: Workspace) {
	return {
		id: ws.id,
		name: ws.name,
		access: listedRole(wsAccess(c, ws)),
		createdAt: ws.createdAt,
		updatedAt: ws.updatedAt,
		isSupportWorkspace: false,
		...(ws.removedAt ? { removedAt: ws.removedAt } : {}),
	};
}

export function checkKeys(body: unknown, allowed: string[]): Record<string, unknown> {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
	for (const k of Object.keys(body))
		if (!allowed.includes(k)) throw new ApiError(400, `unrecognized property ${k}`);
	return body as Record<string, unknown>;
}

export function wsForRead(c: Ctx, raw: string): Workspace {
	const ws = resolveWorkspace(c, raw);
	if (!wsAccess(c, ws)) throw new ApiError(403, 'access denied');
	return ws;
}

export function docForHome(c: Ctx, raw: string): Doc {
	const doc = resolveDoc(c, raw);
	if (!c.store.docRole(c.user.id, doc)) throw new ApiError(403, 'access denied');
	// HomeDBManager.getDoc: a doc in the trash is not found, unless showRemoved (then only those)
	if (c.store.isRemoved(doc) !== showRemoved(c)) throw new ApiError(404, 'document not found');
	return doc;
}

export function requireName(body: Record<string, unknown>): string {
	if (typeof body.name !== 'string' || body.name.trim() === '')
		throw new ApiError(400, 'Bad request: name required');
	return body.name;
}

export function checkUrlId(c: Ctx, urlId: string, self: Doc | undefined): string {
	if (!/^[A-Za-z0-9][-A-Za-z0-9_]*$/.test(urlId) || urlId.length > 200)
		throw new ApiError(400, 'invalid urlId');
	for (const d of c.store.docs.values())
		if ((d.urlId === urlId || d.id === urlId) && d !== self)
			throw new ApiError(400, 'urlId already in use');
	return urlId;
}
