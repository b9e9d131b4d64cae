/** Home-DB routes: orgs, workspaces, doc metadata, access (§1–§4 of the reference). */
import type { Ctx, Route } from './context';
import { docWorkerAccess, resolveDoc, resolveOrg, resolveWorkspace, orgAccessOrDeny, json } from './context';
import { ApiError } from './http';
import type { Doc, Grant, Org, Role, User, Workspace } from './model';
import { EVERYONE_EMAIL, ANON_EMAIL, atLeast } from './model';

function userOwner(u: User) {
	return { id: u.id, name: u.name, picture: null, ref: u.ref, type: 'login' };
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
	if (withAccess) out.access = c.store.orgListRole(c.user.id, org);
	out.createdAt = org.createdAt;
	out.updatedAt = org.updatedAt;
	return out;
}

/**
 * GET /api/orgs/{id} also carries the org's billing account (HomeDBManager.getOrg). The keys are
 * grist-core's (test/gen-server/ApiServer.ts "POST /api/orgs is operational"); the values are a
 * guess for a self-hosted server with GRIST_DEFAULT_PRODUCT=Free: one account per org, product
 * "Free", the org's owners are its managers.
 */
function billingAccountJson(c: Ctx, org: Org) {
	return {
		id: org.id,
		features: null,
		individual: org.personalOwner !== null,
		inGoodStanding: true,
		status: null,
		stripePlanId: null,
		paymentLink: null,
		externalId: null,
		externalOptions: null,
		paid: false,
		product: { id: 1, name: 'Free', features: {} },
		isManager: org.acl.get(c.user.id) === 'owners',
	};
}

export function docJson(c: Ctx, doc: Doc) {
	const out: Record<string, unknown> = {
		id: doc.id,
		name: doc.name,
		access: c.store.docRole(c.user.id, doc),
		isPinned: doc.isPinned,
		urlId: doc.urlId,
		trunkId: null,
		type: doc.type,
		createdAt: doc.createdAt,
		updatedAt: doc.updatedAt,
	};
	if (doc.options) out.options = doc.options;
	return out;
}

function visibleDocs(c: Ctx, ws: Workspace): Doc[] {
	const out: Doc[] = [];
	for (const d of c.store.docs.values()) if (d.workspaceId === ws.id && c.store.docRole(c.user.id, d)) out.push(d);
	return out;
}

function wsAccess(c: Ctx, ws: Workspace): Grant {
	const r = c.store.wsRole(c.user.id, ws);
	if (r) return r;
	return visibleDocs(c, ws).length ? 'guests' : null;
}

function wsBase(c: Ctx, ws: Workspace) {
	return {
		id: ws.id,
		name: ws.name,
		access: wsAccess(c, ws),
		createdAt: ws.createdAt,
		updatedAt: ws.updatedAt,
		isSupportWorkspace: false,
	};
}

function orgWorkspaces(c: Ctx, orgs: Org[]) {
	const out: unknown[] = [];
	for (const org of orgs) {
		const owner = org.personalOwner ? c.store.users.get(org.personalOwner) : undefined;
		for (const ws of c.store.workspaces.values()) {
			if (ws.orgId !== org.id || !wsAccess(c, ws)) continue;
			const item: Record<string, unknown> = { ...wsBase(c, ws), orgDomain: org.domain };
			if (owner) item.owner = userOwner(owner);
			// signed-in callers also get each doc's forks (none are emulated)
			item.docs = visibleDocs(c, ws).map((d) => (c.isAnon ? docJson(c, d) : { ...docJson(c, d), forks: [] }));
			out.push(item);
		}
	}
	return out;
}

function checkKeys(body: unknown, allowed: string[]): Record<string, unknown> {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
	for (const k of Object.keys(body)) if (!allowed.includes(k)) throw new ApiError(400, `unrecognized property ${k}`);
	return body as Record<string, unknown>;
}

const EMAIL_RE = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/** Validates and applies an access delta (§3). */
function patchAccess(c: Ctx, kind: 'org' | 'workspace' | 'doc', entity: Org | Workspace | Doc, ownerRole: Grant) {
	const body = json(c) as { delta?: unknown } | undefined;
	const delta = body && typeof body === 'object' ? (body as { delta?: unknown }).delta : undefined;
	if (delta === undefined || delta === null) throw new ApiError(400, 'Bad request: missing permission delta');
	if (typeof delta !== 'object' || Array.isArray(delta)) throw new ApiError(400, 'Bad request: invalid permission delta');
	const d = delta as { users?: unknown; maxInheritedRole?: unknown };
	for (const k of Object.keys(d))
		if (k !== 'users' && k !== 'maxInheritedRole') throw new ApiError(400, 'Bad request: invalid permission delta');
	if (kind === 'org' && (d.users === undefined || 'maxInheritedRole' in d))
		throw new ApiError(400, 'Bad request: invalid permission delta');
	if (kind !== 'org' && d.users === undefined && !('maxInheritedRole' in d))
		throw new ApiError(400, 'Bad request: invalid permission delta');
	if (d.users !== undefined && (typeof d.users !== 'object' || d.users === null || Array.isArray(d.users)))
		throw new ApiError(400, 'Bad request: invalid permission delta');
	const users = (d.users ?? {}) as Record<string, unknown>;
	const allowed = kind === 'org' ? ['owners', 'editors', 'viewers', 'members'] : ['owners', 'editors', 'viewers'];
	for (const [email, role] of Object.entries(users)) {
		if (role !== null && (typeof role !== 'string' || !allowed.includes(role)))
			throw new ApiError(400, `Invalid user role ${role}`);
		if (!EMAIL_RE.test(email.trim())) throw new ApiError(400, 'Invalid email address included');
	}
	if ('maxInheritedRole' in d) {
		const m = d.maxInheritedRole;
		if (m !== null && !['owners', 'editors', 'viewers'].includes(m as string))
			throw new ApiError(400, `Invalid maxInheritedRole ${m}`);
	}
	const self = Object.keys(users).find((e) => e.trim().toLowerCase() === c.user.email);
	const selfRemovalOnly = self !== undefined && Object.keys(users).length === 1 && users[self] === null && !('maxInheritedRole' in d);
	if (self !== undefined && !selfRemovalOnly) throw new ApiError(400, 'Bad request: cannot update own permissions');
	if (c.isAnon) throw new ApiError(403, 'access denied');
	if (!selfRemovalOnly && ownerRole !== 'owners') throw new ApiError(403, 'access denied');
	if (selfRemovalOnly && !ownerRole) throw new ApiError(403, 'access denied');
	if (kind === 'org' && Object.keys(users).some((e) => e.trim().toLowerCase() === EVERYONE_EMAIL))
		throw new ApiError(403, 'Cannot share publicly at org level');
	// apply
	for (const [email, role] of Object.entries(users)) {
		const e = email.trim().toLowerCase();
		if (role === null) {
			const u = c.store.userByEmail(e);
			if (!u) continue;
			entity.acl.delete(u.id);
			if (kind === 'org') {
				for (const ws of c.store.workspaces.values()) {
					if (ws.orgId !== (entity as Org).id) continue;
					ws.acl.delete(u.id);
					for (const doc of c.store.docs.values()) if (doc.workspaceId === ws.id) doc.acl.delete(u.id);
				}
			}
		} else {
			const u = c.store.ensureUser(e, '', e !== EVERYONE_EMAIL && e !== ANON_EMAIL);
			entity.acl.set(u.id, role as Role);
		}
	}
	if (kind !== 'org' && 'maxInheritedRole' in d) {
		const e = entity as Workspace | Doc;
		e.maxInherited = d.maxInheritedRole as Grant;
		if (d.maxInheritedRole !== 'owners') e.acl.set(c.user.id, 'owners');
	}
	return null;
}

function accessUser(u: User) {
	return { id: u.id, name: u.name, email: u.email, ref: u.ref, picture: null };
}

function orgAccessList(c: Ctx, org: Org) {
	const users: unknown[] = [];
	const seen = new Set<number>();
	for (const [uid, role] of org.acl) {
		const u = c.store.users.get(uid)!;
		seen.add(uid);
		users.push({ ...accessUser(u), access: role, isMember: true });
	}
	for (const ws of c.store.workspaces.values()) {
		if (ws.orgId !== org.id) continue;
		const ids = [...ws.acl.keys()];
		for (const doc of c.store.docs.values()) if (doc.workspaceId === ws.id) ids.push(...doc.acl.keys());
		for (const uid of ids) {
			const u = c.store.users.get(uid)!;
			if (seen.has(uid) || u.email === EVERYONE_EMAIL || u.email === ANON_EMAIL) continue;
			seen.add(uid);
			users.push({ ...accessUser(u), access: 'guests', isMember: false });
		}
	}
	const isOwner = c.store.orgRole(c.user.id, org) === 'owners';
	return { users: isOwner ? users : users.filter((u) => (u as { id: number }).id === c.user.id) };
}

function childAccessList(c: Ctx, kind: 'workspace' | 'doc', entity: Workspace | Doc) {
	const ws = kind === 'workspace' ? (entity as Workspace) : c.store.workspaces.get((entity as Doc).workspaceId)!;
	const org = c.store.orgs.get(ws.orgId)!;
	const parentOf = (uid: number): Grant =>
		kind === 'workspace' ? c.store.orgRole(uid, org) : c.store.wsRole(uid, ws);
	const ids = new Set<number>([...entity.acl.keys()]);
	for (const uid of org.acl.keys()) ids.add(uid);
	if (kind === 'doc') for (const uid of ws.acl.keys()) ids.add(uid);
	const users = [...ids].map((uid) => {
		const u = c.store.users.get(uid)!;
		return {
			...accessUser(u),
			access: entity.acl.get(uid) ?? null,
			parentAccess: parentOf(uid),
			isMember: org.acl.has(uid),
		};
	});
	const everyone = c.store.everyone.id;
	const role = kind === 'workspace' ? c.store.wsRole(c.user.id, ws) : c.store.docRole(c.user.id, entity as Doc);
	if (role === 'owners') return { maxInheritedRole: entity.maxInherited, users };
	return {
		maxInheritedRole: entity.maxInherited,
		users: users.filter((u) => u.id === c.user.id),
		personal: true,
		public: entity.acl.has(everyone),
	};
}

function wsForRead(c: Ctx, raw: string): Workspace {
	const ws = resolveWorkspace(c, raw);
	if (!wsAccess(c, ws)) throw new ApiError(403, 'access denied');
	return ws;
}

function docForHome(c: Ctx, raw: string): Doc {
	const doc = resolveDoc(c, raw);
	if (!c.store.docRole(c.user.id, doc)) throw new ApiError(403, 'access denied');
	return doc;
}

function requireName(body: Record<string, unknown>): string {
	if (typeof body.name !== 'string' || body.name.trim() === '') throw new ApiError(400, 'Bad request: name required');
	return body.name;
}

const DOMAIN_RE = /^[a-z0-9][a-z0-9-]*[a-z0-9]$|^[a-z0-9]$/;

export const homeRoutes: Route[] = [
	{
		method: 'GET',
		re: /^\/api\/orgs\/?$/,
		handler: (c) => [...c.store.orgs.values()].filter((o) => c.store.orgListRole(c.user.id, o)).map((o) => orgJson(c, o)),
	},
	{
		method: 'GET',
		re: /^\/api\/orgs\/([^/]+)$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			orgAccessOrDeny(c, org);
			return { ...orgJson(c, org), billingAccount: billingAccountJson(c, org) };
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/orgs\/([^/]+)$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			const body = checkKeys(json(c), ['name', 'domain', 'orgPrefs', 'userPrefs', 'userOrgPrefs']);
			const role = c.store.orgListRole(c.user.id, org);
			if (!role) throw new ApiError(403, 'access denied');
			if (('name' in body || 'domain' in body) && role !== 'owners') throw new ApiError(403, 'access denied');
			if ('domain' in body) {
				if (org.personalOwner) throw new ApiError(400, 'Bad request: cannot set domain for personal organization');
				const dom = String(body.domain);
				if (!DOMAIN_RE.test(dom) || dom.startsWith('docs') || dom.length > 63)
					throw new ApiError(400, `Domain is not permitted: ${dom}`);
				for (const o of c.store.orgs.values())
					if (o.domain === dom && o.id !== org.id)
						throw new ApiError(500, 'SQLITE_CONSTRAINT: UNIQUE constraint failed: orgs.domain');
				org.domain = dom;
			}
			if ('name' in body) {
				if (typeof body.name !== 'string' || !body.name.trim()) throw new ApiError(400, 'Bad request: name required');
				org.name = body.name;
			}
			org.updatedAt = c.store.now();
			return null;
		},
	},
	{
		method: 'GET',
		re: /^\/api\/orgs\/([^/]+)\/access$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			orgAccessOrDeny(c, org);
			return orgAccessList(c, org);
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/orgs\/([^/]+)\/access$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			return patchAccess(c, 'org', org, c.store.orgRole(c.user.id, org));
		},
	},
	{
		method: 'GET',
		re: /^\/api\/orgs\/([^/]+)\/workspaces$/,
		handler: (c, m) => {
			if (m[1] === 'current' && c.scope.kind === 'merged' && !c.isAnon) {
				const personal = c.store.personalOrg(c.user.id);
				const others = [...c.store.orgs.values()].filter(
					(o) => o !== personal && c.store.orgListRole(c.user.id, o) === 'guests',
				);
				return orgWorkspaces(c, personal ? [personal, ...others] : others);
			}
			const org = resolveOrg(c, m[1]);
			orgAccessOrDeny(c, org);
			return orgWorkspaces(c, [org]);
		},
	},
	{
		method: 'POST',
		re: /^\/api\/orgs\/([^/]+)\/workspaces$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			const body = checkKeys(json(c), ['name']);
			const role = c.store.orgListRole(c.user.id, org);
			if (!role) throw new ApiError(403, 'access denied');
			const name = requireName(body);
			if (!atLeast(role, 'editors')) throw new ApiError(403, 'access denied');
			const ws = c.store.createWorkspace(org.id, name);
			if (!c.isAnon) ws.acl.set(c.user.id, 'owners');
			return ws.id;
		},
	},
	{
		method: 'GET',
		re: /^\/api\/workspaces\/([^/]+)$/,
		handler: (c, m) => {
			const ws = wsForRead(c, m[1]);
			const org = c.store.orgs.get(ws.orgId)!;
			return { ...wsBase(c, ws), docs: visibleDocs(c, ws).map((d) => docJson(c, d)), org: orgJson(c, org, false) };
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/workspaces\/([^/]+)$/,
		handler: (c, m) => {
			const ws = wsForRead(c, m[1]);
			const body = checkKeys(json(c), ['name']);
			if (c.store.wsRole(c.user.id, ws) !== 'owners') throw new ApiError(403, 'access denied');
			if ('name' in body) ws.name = requireName(body);
			ws.updatedAt = c.store.now();
			return ws.id;
		},
	},
	{
		method: 'DELETE',
		re: /^\/api\/workspaces\/([^/]+)$/,
		handler: (c, m) => {
			const ws = wsForRead(c, m[1]);
			if (c.store.wsRole(c.user.id, ws) !== 'owners') throw new ApiError(403, 'access denied');
			c.store.deleteWorkspace(ws);
			return ws.id;
		},
	},
	{
		method: 'GET',
		re: /^\/api\/workspaces\/([^/]+)\/access$/,
		handler: (c, m) => childAccessList(c, 'workspace', wsForRead(c, m[1])),
	},
	{
		method: 'PATCH',
		re: /^\/api\/workspaces\/([^/]+)\/access$/,
		handler: (c, m) => {
			const ws = resolveWorkspace(c, m[1]);
			return patchAccess(c, 'workspace', ws, c.store.wsRole(c.user.id, ws));
		},
	},
	{
		method: 'POST',
		re: /^\/api\/workspaces\/([^/]+)\/docs$/,
		handler: (c, m) => {
			const ws = wsForRead(c, m[1]);
			const body = checkKeys(json(c), ['name', 'isPinned', 'urlId', 'options']);
			const name = requireName(body);
			if (!atLeast(c.store.wsRole(c.user.id, ws), 'editors')) throw new ApiError(403, 'access denied');
			if (body.urlId !== undefined && body.urlId !== null) checkUrlId(c, String(body.urlId), undefined);
			const doc = c.store.createDoc(ws.id, {
				name,
				isPinned: Boolean(body.isPinned),
				urlId: (body.urlId as string | undefined) ?? null,
			});
			if (body.options && typeof body.options === 'object') doc.options = body.options as Record<string, unknown>;
			if (!c.isAnon) doc.acl.set(c.user.id, 'owners');
			c.store.addEmptyTable(doc); // a new Grist document starts with Table1 (A, B, C)
			return doc.id;
		},
	},
	{
		method: 'GET',
		re: /^\/api\/docs\/([^/]+)$/,
		handler: (c, m) => {
			const doc = docForHome(c, m[1]);
			const ws = c.store.workspaces.get(doc.workspaceId)!;
			const org = c.store.orgs.get(ws.orgId)!;
			// aliases: the doc's urlId (grist-core's Alias rows); forks (signed-in callers): none are emulated
			const aliases = doc.urlId ? [{ orgId: org.id, urlId: doc.urlId, docId: doc.id, createdAt: doc.updatedAt }] : [];
			const out: Record<string, unknown> = { ...docJson(c, doc), aliases };
			if (!c.isAnon) out.forks = [];
			out.workspace = { ...wsBase(c, ws), org: orgJson(c, org) };
			return out;
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/docs\/([^/]+)$/,
		handler: (c, m) => {
			const raw = (json(c) ?? {}) as Record<string, unknown>;
			// checked first, before the doc is even looked up (ApiServer)
			if (typeof raw === 'object' && 'type' in raw && raw.type !== null && raw.type !== 'template' && raw.type !== 'tutorial')
				throw new ApiError(400, "Bad Request. 'type' key authorized values : 'template', 'tutorial' or null");
			const doc = docForHome(c, m[1]);
			const body = checkKeys(raw, ['name', 'isPinned', 'urlId', 'type', 'options']);
			if (c.store.docRole(c.user.id, doc) !== 'owners') throw new ApiError(403, 'access denied');
			if ('name' in body) doc.name = requireName(body);
			if ('isPinned' in body) doc.isPinned = Boolean(body.isPinned);
			if ('urlId' in body) {
				if (body.urlId === null || body.urlId === '') doc.urlId = null;
				else doc.urlId = checkUrlId(c, String(body.urlId), doc);
			}
			if ('type' in body) doc.type = body.type as string | null;
			if ('options' in body) {
				const o = body.options;
				doc.options = o && typeof o === 'object' ? { ...(doc.options ?? {}), ...(o as object) } : null;
			}
			doc.updatedAt = c.store.now();
			return doc.id;
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/docs\/([^/]+)\/move$/,
		handler: (c, m) => {
			const doc = docForHome(c, m[1]);
			const body = (json(c) ?? {}) as Record<string, unknown>;
			const w = body.workspace;
			if (typeof w !== 'number' && !(typeof w === 'string' && /^\d+$/.test(w)))
				throw new ApiError(400, `workspace parameter cannot be understood as an integer: ${w === undefined ? 'undefined' : String(w)}`);
			if (c.store.docRole(c.user.id, doc) !== 'owners') throw new ApiError(403, 'access denied');
			const target = c.store.workspaces.get(Number(w));
			if (!target) throw new ApiError(404, 'workspace not found');
			if (target.id === doc.workspaceId) throw new ApiError(400, 'Bad request: doc is already in destination workspace');
			if (!atLeast(c.store.wsRole(c.user.id, target), 'editors')) throw new ApiError(403, 'access denied');
			const fromOrg = c.store.workspaces.get(doc.workspaceId)!.orgId;
			if (fromOrg !== target.orgId) doc.urlId = null;
			doc.workspaceId = target.id;
			doc.updatedAt = c.store.now();
			return doc.id;
		},
	},
	{
		method: 'DELETE',
		re: /^\/api\/docs\/([^/]+)$/,
		handler: (c, m) => {
			const doc = docWorkerAccess(c, m[1], 'editors');
			if (c.store.docRole(c.user.id, doc) !== 'owners') throw new ApiError(403, 'access denied');
			c.store.docs.delete(doc.id);
			return doc.id;
		},
	},
	{
		method: 'GET',
		re: /^\/api\/docs\/([^/]+)\/access$/,
		handler: (c, m) => childAccessList(c, 'doc', docForHome(c, m[1])),
	},
	{
		method: 'PATCH',
		re: /^\/api\/docs\/([^/]+)\/access$/,
		handler: (c, m) => {
			const doc = resolveDoc(c, m[1]);
			return patchAccess(c, 'doc', doc, c.store.docRole(c.user.id, doc));
		},
	},
];

for (const [suffix, pinned] of [
	['pin', true],
	['unpin', false],
] as const) {
	homeRoutes.push({
		method: 'PATCH',
		re: new RegExp(`^\\/api\\/docs\\/([^/]+)\\/${suffix}$`),
		handler: (c, m) => {
			const doc = docForHome(c, m[1]);
			// pinning needs owner rights on the org (Grist: PIN permission on the org's docs)
			if (c.store.docRole(c.user.id, doc) !== 'owners') throw new ApiError(403, 'access denied');
			doc.isPinned = pinned;
			return null;
		},
	});
}

homeRoutes.push({
	method: 'GET',
	re: /^\/api\/profile\/user$/,
	handler: (c) => ({
		id: c.user.id,
		email: c.user.email,
		name: c.user.name,
		picture: null,
		ref: c.user.ref,
		...(c.isAnon ? { anonymous: true } : {}),
		allowGoogleLogin: true,
	}),
});

function checkUrlId(c: Ctx, urlId: string, self: Doc | undefined): string {
	if (!/^[A-Za-z0-9][-A-Za-z0-9_]*$/.test(urlId) || urlId.length > 200) throw new ApiError(400, 'invalid urlId');
	for (const d of c.store.docs.values())
		if ((d.urlId === urlId || d.id === urlId) && d !== self) throw new ApiError(400, 'urlId already in use');
	return urlId;
}


