/**
 * Access (§1 roles and `maxInheritedRole`, §3 "Access delta errors"): listing who has access to
 * an org, workspace or doc, and applying a delta. The routes are in the sections' files.
 */
import type { Ctx } from './context';
import { json } from './context';
import { ApiError } from './http';
import type { Doc, Grant, Org, Role, User, Workspace } from './model';
import { ANON_EMAIL, EVERYONE_EMAIL } from './model';

const EMAIL_RE = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/** Validates and applies an access delta (§3). */
export function patchAccess(
	c: Ctx,
	kind: 'org' | 'workspace' | 'doc',
	entity: Org | Workspace | Doc,
	ownerRole: Grant,
) {
	const body = json(c) as { delta?: unknown } | undefined;
	const delta = body && typeof body === 'object' ? (body as { delta?: unknown }).delta : undefined;
	if (delta === undefined || delta === null)
		throw new ApiError(400, 'Bad request: missing permission delta');
	if (typeof delta !== 'object' || Array.isArray(delta))
		throw new ApiError(400, 'Bad request: invalid permission delta');
	const d = delta as { users?: unknown; maxInheritedRole?: unknown };
	for (const k of Object.keys(d))
		if (k !== 'users' && k !== 'maxInheritedRole')
			throw new ApiError(400, 'Bad request: invalid permission delta');
	if (kind === 'org' && (d.users === undefined || 'maxInheritedRole' in d))
		throw new ApiError(400, 'Bad request: invalid permission delta');
	if (kind !== 'org' && d.users === undefined && !('maxInheritedRole' in d))
		throw new ApiError(400, 'Bad request: invalid permission delta');
	if (
		d.users !== undefined &&
		(typeof d.users !== 'object' || d.users === null || Array.isArray(d.users))
	)
		throw new ApiError(400, 'Bad request: invalid permission delta');
	const users = (d.users ?? {}) as Record<string, unknown>;
	const allowed =
		kind === 'org' ? ['owners', 'editors', 'viewers', 'members'] : ['owners', 'editors', 'viewers'];
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
	const selfRemovalOnly =
		self !== undefined &&
		Object.keys(users).length === 1 &&
		users[self] === null &&
		!('maxInheritedRole' in d);
	// HomeDBManager._failIfPowerfulAndChangingSelf: a caller who can edit the resource's access
	// (an owner) may not change its own access at all, removal included; others may only remove
	// themselves
	if (self !== undefined && (!selfRemovalOnly || ownerRole === 'owners'))
		throw new ApiError(400, 'Bad request: cannot update own permissions');
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
					for (const doc of c.store.docs.values())
						if (doc.workspaceId === ws.id) doc.acl.delete(u.id);
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

export function orgAccessList(c: Ctx, org: Org) {
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
		for (const doc of c.store.docs.values())
			if (doc.workspaceId === ws.id) ids.push(...doc.acl.keys());
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

export function childAccessList(c: Ctx, kind: 'workspace' | 'doc', entity: Workspace | Doc) {
	const ws =
		kind === 'workspace'
			? (entity as Workspace)
			: c.store.workspaces.get((entity as Doc).workspaceId)!;
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
	const role =
		kind === 'workspace'
			? c.store.wsRole(c.user.id, ws)
			: c.store.docRole(c.user.id, entity as Doc);
	if (role === 'owners') return { maxInheritedRole: entity.maxInherited, users };
	// HomeDBManager.getDocAccess: a doc's editor (not through a public share) sees every user who
	// can view the doc (measured on 1.7.17: the owner and itself)
	if (kind === 'doc' && role === 'editors' && ids.has(c.user.id))
		return {
			maxInheritedRole: entity.maxInherited,
			users: users.filter((u) => c.store.docRole(u.id, entity as Doc)),
			personal: true,
			public: false,
		};
	return {
		maxInheritedRole: entity.maxInherited,
		users: users.filter((u) => u.id === c.user.id),
		personal: true,
		public: entity.acl.has(everyone),
	};
}
