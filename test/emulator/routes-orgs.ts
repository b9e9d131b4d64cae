/**
 * §2 Orgs: GET /api/orgs, GET/PATCH /api/orgs/{orgId}, GET/PATCH /orgs/{orgId}/access,
 * GET /orgs/{orgId}/workspaces (workspaces and their docs; `current` on the merged personal
 * site lists the personal org and the orgs shared with the caller).
 */
import type { Ctx, Route } from './context';
import { json, orgAccessOrDeny, ownerOrDeny, resolveOrg } from './context';
import { orgAccessList, patchAccess } from './access';
import {
	checkKeys,
	docJson,
	orgJson,
	userOwner,
	visibleDocs,
	wsAccess,
	wsBase,
	wsListed,
} from './home';
import { ApiError } from './http';
import type { Org } from './model';

/**
 * GET /api/orgs/{id} also carries the org's billing account (HomeDBManager.getOrg). The keys are
 * grist-core's (test/gen-server/ApiServer.ts "POST /api/orgs is operational"); the values are a
 * guess for a self-hosted server with GRIST_DEFAULT_PRODUCT=Free: one account per org, product
 * "Free", the org's owners are its managers.
 */
export function billingAccountJson(c: Ctx, org: Org) {
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
		product: { id: 1, name: 'Free', features: { workspaces: true, vanityDomain: true } }, // measured
		isManager: org.acl.get(c.user.id) === 'owners',
	};
}

function orgWorkspaces(c: Ctx, orgs: Org[]) {
	const out: unknown[] = [];
	for (const org of orgs) {
		const owner = org.personalOwner ? c.store.users.get(org.personalOwner) : undefined;
		// HomeDBManager._orgWorkspaces orders an org's workspaces by name (SQLite's binary order of
		// the home database), their documents by creation
		const byName = [...c.store.workspaces.values()].sort((a, b) =>
			a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
		);
		for (const ws of byName) {
			if (ws.orgId !== org.id || !wsAccess(c, ws) || !wsListed(c, ws)) continue;
			const item: Record<string, unknown> = { ...wsBase(c, ws), orgDomain: org.domain };
			// measured: here the personal org's owner also has its email and `anonymous`
			if (owner) item.owner = { ...userOwner(owner), email: owner.email, anonymous: false };
			// signed-in callers also get each doc's forks (none are emulated)
			item.docs = visibleDocs(c, ws).map((d) =>
				c.isAnon ? docJson(c, d) : { ...docJson(c, d), forks: [] },
			);
			out.push(item);
		}
	}
	return out;
}

const DOMAIN_RE = /^[a-z0-9][a-z0-9-]*[a-z0-9]$|^[a-z0-9]$/;

export const orgsRoutes: Route[] = [
	{
		method: 'GET',
		re: /^\/api\/orgs\/?$/,
		handler: (c) =>
			[...c.store.orgs.values()]
				.filter((o) => c.store.orgListRole(c.user.id, o))
				.map((o) => orgJson(c, o)),
	},
	{
		method: 'GET',
		re: /^\/api\/orgs\/([^/]+)$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			orgAccessOrDeny(c, org);
			const out: Record<string, unknown> = {
				...orgJson(c, org),
				billingAccount: billingAccountJson(c, org),
			};
			// HomeDBManager.getOrg: the merged personal site (`docs`) is the personal org with id 0
			// and domain `docs`
			const merged =
				org.personalOwner === c.user.id &&
				((m[1] === 'docs' && !c.store.orgByKey('docs')) ||
					(m[1] === 'current' && c.scope.kind === 'merged'));
			if (merged) Object.assign(out, { id: 0, domain: 'docs' });
			// UsersManager makes a personal org with the owner's pref { showGristTour: true }
			if (org.personalOwner === c.user.id) out.userOrgPrefs = { showGristTour: true };
			return out;
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
			if (('name' in body || 'domain' in body) && role !== 'owners')
				throw new ApiError(403, 'access denied');
			if ('domain' in body) {
				// a personal org's domain is set too: HomeDBManager.updateOrg's "Cannot set a domain for
				// a personal organization" tests `org.owner`, which its query does not load (measured on
				// 1.7.17: 200, and the site is then named by the new domain)
				const dom = String(body.domain);
				if (!DOMAIN_RE.test(dom) || dom.startsWith('docs') || dom.length > 63)
					throw new ApiError(400, `Domain is not permitted: ${dom}`);
				for (const o of c.store.orgs.values())
					if (o.domain === dom && o.id !== org.id)
						throw new ApiError(500, 'SQLITE_CONSTRAINT: UNIQUE constraint failed: orgs.domain');
				org.domain = dom;
			}
			if ('name' in body) {
				if (typeof body.name !== 'string' || !body.name.trim())
					throw new ApiError(400, 'Bad request: name required');
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
		// HomeDBManager.getOrgUsageSummary (owners only): a self-hosted Free plan has no data limits,
		// so no document is counted under a limit status; the attachments' size is added up at once
		// (Grist adds what each document last reported). No `limitExceeded` (no per-org limit).
		method: 'GET',
		re: /^\/api\/orgs\/([^/]+)\/usage$/,
		handler: (c, m) => {
			const org = resolveOrg(c, m[1]);
			ownerOrDeny(c.store.orgRole(c.user.id, org));
			let totalBytes = 0;
			for (const doc of c.store.docs.values()) {
				const ws = c.store.workspaces.get(doc.workspaceId);
				if (ws?.orgId !== org.id || ws.removedAt || doc.removedAt) continue;
				for (const a of doc.attachments.values()) totalBytes += a.fileSize;
			}
			return {
				countsByDataLimitStatus: { approachingLimit: 0, gracePeriod: 0, deleteOnly: 0 },
				attachments: { totalBytes },
			};
		},
	},
];
