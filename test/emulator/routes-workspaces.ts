/**
 * §3 Workspaces: POST /api/orgs/{orgId}/workspaces (create), GET/PATCH/DELETE
 * /api/workspaces/{wid}, GET/PATCH /workspaces/{wid}/access, POST /workspaces/{wid}/docs
 * (create a doc: it holds Table1 with empty columns A, B, C).
 */
import type { Route } from './context';
import { json, ownerOrDeny, resolveOrg, resolveWorkspace } from './context';
import { childAccessList, patchAccess } from './access';
import {
	checkKeys,
	checkUrlId,
	docJson,
	orgJson,
	requireName,
	visibleDocs,
	wsBase,
	wsForRead,
	wsListed,
} from './home';
import { ApiError } from './http';
import { atLeast } from './model';

export const workspacesRoutes: Route[] = [
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
			// in the trash (or, with showRemoved, not in it and holding no trashed doc): filtered out
			if (!wsListed(c, ws)) throw new ApiError(404, 'workspace not found');
			const org = c.store.orgs.get(ws.orgId)!;
			return {
				...wsBase(c, ws),
				docs: visibleDocs(c, ws).map((d) => docJson(c, d)),
				org: orgJson(c, org, false),
			};
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/workspaces\/([^/]+)$/,
		handler: (c, m) => {
			const ws = wsForRead(c, m[1]);
			const body = checkKeys(json(c), ['name']);
			ownerOrDeny(c.store.wsRole(c.user.id, ws));
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
			ownerOrDeny(c.store.wsRole(c.user.id, ws));
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
			if (!atLeast(c.store.wsRole(c.user.id, ws), 'editors'))
				throw new ApiError(403, 'access denied');
			if (ws.removedAt) throw new ApiError(400, 'Cannot add document to a deleted workspace');
			if (body.urlId !== undefined && body.urlId !== null)
				checkUrlId(c, String(body.urlId), undefined);
			const doc = c.store.createDoc(ws.id, {
				name,
				isPinned: Boolean(body.isPinned),
				urlId: (body.urlId as string | null | undefined) ?? undefined, // none: a prefix of the id
			});
			if (body.options && typeof body.options === 'object')
				doc.options = body.options as Record<string, unknown>;
			if (!c.isAnon) doc.acl.set(c.user.id, 'owners');
			c.store.addEmptyTable(doc); // a new Grist document starts with Table1 (A, B, C)
			return doc.id;
		},
	},
];
