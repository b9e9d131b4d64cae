/**
 * §4 Docs (metadata in the home DB): GET/PATCH/DELETE /api/docs/{docId}, PATCH /docs/{docId}/move,
 * GET/PATCH /docs/{docId}/access, PATCH /docs/{docId}/pin and /unpin. The doc's downloads are
 * in routes-downloads.ts, POST /apply in routes-apply.ts.
 */
import type { Route } from './context';
import { docWorkerAccess, json, ownerOrDeny, resolveDoc } from './context';
import { flushDocAuth, refreshDocAuth } from './doc-auth';
import { childAccessList, patchAccess } from './access';
import {
	checkKeys,
	checkUrlId,
	docForHome,
	docJson,
	orgJson,
	requireName,
	userOwner,
	wsBase,
} from './home';
import { billingAccountJson } from './routes-orgs';
import { forksOf } from './routes-forks';
import { ApiError } from './http';
import { atLeast } from './model';

/** The billing account of a document's org: the org's, without `paid` and `isManager` (measured). */
function docBillingAccount(
	c: Parameters<typeof billingAccountJson>[0],
	org: Parameters<typeof billingAccountJson>[1],
) {
	const account: Record<string, unknown> = { ...billingAccountJson(c, org) };
	delete account.paid;
	delete account.isManager;
	return account;
}

export const docsRoutes: Route[] = [
	{
		method: 'GET',
		re: /^\/api\/docs\/([^/]+)$/,
		handler: (c, m) => {
			// HomeDBManager.getDoc caches what it read, before the showRemoved filter
			const found = resolveDoc(c, m[1]);
			if (c.store.docRole(c.user.id, found)) refreshDocAuth(c, found);
			const doc = docForHome(c, m[1]);
			const ws = c.store.workspaces.get(doc.workspaceId)!;
			const org = c.store.orgs.get(ws.orgId)!;
			// aliases: the trunk's urlId (grist-core's Alias rows); forks: the caller's forks of the trunk
			const trunk = doc.fork ? c.store.docs.get(doc.fork.trunkId)! : doc;
			const aliases = trunk.urlId
				? [{ orgId: org.id, urlId: trunk.urlId, docId: trunk.id, createdAt: trunk.createdAt }]
				: [];
			const out: Record<string, unknown> = { ...docJson(c, doc), aliases };
			if (!c.isAnon) out.forks = forksOf(c, trunk);
			if (doc.fork) out.trunkAccess = c.store.docRole(c.user.id, trunk);
			// measured: the workspace of a personal org names its owner, and the org its billing account
			const owner = org.personalOwner ? c.store.users.get(org.personalOwner) : undefined;
			out.workspace = {
				...wsBase(c, ws),
				...(owner ? { owner: userOwner(owner) } : {}),
				org: { ...orgJson(c, org), billingAccount: docBillingAccount(c, org) },
			};
			return out;
		},
	},
	{
		method: 'PATCH',
		re: /^\/api\/docs\/([^/]+)$/,
		handler: (c, m) => {
			const raw = (json(c) ?? {}) as Record<string, unknown>;
			// checked first, before the doc is even looked up (ApiServer)
			if (
				typeof raw === 'object' &&
				'type' in raw &&
				raw.type !== null &&
				raw.type !== 'template' &&
				raw.type !== 'tutorial'
			)
				throw new ApiError(
					400,
					"Bad Request. 'type' key authorized values : 'template', 'tutorial' or null",
				);
			const doc = docForHome(c, m[1]);
			const body = checkKeys(raw, ['name', 'isPinned', 'urlId', 'type', 'options']);
			ownerOrDeny(c.store.docRole(c.user.id, doc));
			if ('name' in body) doc.name = requireName(body);
			if ('isPinned' in body) doc.isPinned = Boolean(body.isPinned);
			if ('urlId' in body) {
				if (body.urlId === null || body.urlId === '') doc.urlId = null;
				else doc.urlId = checkUrlId(c, String(body.urlId), doc);
			}
			if ('type' in body) doc.type = body.type as string | null;
			if ('options' in body) {
				const o = body.options;
				doc.options =
					o && typeof o === 'object' ? { ...(doc.options ?? {}), ...(o as object) } : null;
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
				throw new ApiError(
					400,
					`workspace parameter cannot be understood as an integer: ${w === undefined ? 'undefined' : String(w)}`,
				);
			ownerOrDeny(c.store.docRole(c.user.id, doc));
			const target = c.store.workspaces.get(Number(w));
			if (!target) throw new ApiError(404, 'workspace not found');
			if (target.id === doc.workspaceId)
				throw new ApiError(400, 'Bad request: doc is already in destination workspace');
			if (!atLeast(c.store.wsRole(c.user.id, target), 'editors'))
				throw new ApiError(403, 'access denied');
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
			const doc = docWorkerAccess(c, m[1], 'editors', true); // also from the trash
			ownerOrDeny(c.store.docRole(c.user.id, doc));
			c.store.docs.delete(doc.id);
			flushDocAuth(c, doc);
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
	...(
		[
			['pin', true],
			['unpin', false],
		] as const
	).map(
		([suffix, pinned]): Route => ({
			method: 'PATCH',
			re: new RegExp(`^\\/api\\/docs\\/([^/]+)\\/${suffix}$`),
			handler: (c, m) => {
				const doc = docForHome(c, m[1]);
				// HomeDBManager.pinDoc: edit rights on the doc's org (an org editor pins; measured on 1.7.17)
				const orgRole = c.store.orgRole(c.user.id, c.store.docOrg(doc));
				if (orgRole !== 'owners' && orgRole !== 'editors') throw new ApiError(403, 'access denied');
				doc.isPinned = pinned;
				return null;
			},
		}),
	),
];
