/**
 * Pure helpers for Grist access management (orgs, workspaces, documents): the roles each target
 * accepts, validation of the email + role rows a user enters, and the permission delta sent to
 * `PATCH /api/{orgs|workspaces|docs}/{id}/access`.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { InputError } from '../errors/gristAnswers';

export type AccessTarget = 'org' | 'workspace' | 'document';

/** Roles Grist stores; `null` removes a user's direct access. */
export type GristRole = 'owners' | 'editors' | 'viewers' | 'members';

/** The value of the "Remove Access" choice (n8n options cannot hold `null`). */
export const REMOVE_ACCESS = 'remove';

/** The value of the "None" choice of Max Inherited Role. */
export const NO_INHERITANCE = 'none';

const TARGET_LABEL: Record<AccessTarget, string> = {
	org: 'an organization',
	workspace: 'a workspace',
	document: 'a document',
};

/** Roles a target accepts in a delta (`members` is for orgs only). */
export function rolesFor(target: AccessTarget): GristRole[] {
	return target === 'org'
		? ['owners', 'editors', 'viewers', 'members']
		: ['owners', 'editors', 'viewers'];
}

const ROLE_OPTION: Record<GristRole, INodePropertyOptions> = {
	owners: { name: 'Owner', value: 'owners', description: 'Full rights, including sharing' },
	editors: { name: 'Editor', value: 'editors', description: 'View, add, change and remove data' },
	viewers: { name: 'Viewer', value: 'viewers', description: 'View only' },
	members: {
		name: 'Member',
		value: 'members',
		description: 'Belongs to the site without inheriting access to its workspaces and documents',
	},
};

/** The Role options offered for a target: only the roles it accepts, plus "Remove Access". */
export function roleOptions(target: AccessTarget): INodePropertyOptions[] {
	return [
		...rolesFor(target).map((r) => ROLE_OPTION[r]),
		{
			name: 'Remove Access',
			value: REMOVE_ACCESS,
			description: 'Remove the direct access of the user',
		},
	];
}

/** The options of "Max Inherited Role" (workspaces and documents). */
export const MAX_INHERITED_ROLE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Owners (Full Inheritance)', value: 'owners' },
	{ name: 'Editors', value: 'editors' },
	{ name: 'Viewers', value: 'viewers' },
	{ name: 'None (Only Users Listed Here)', value: NO_INHERITANCE },
];

export interface AccessRow {
	email?: unknown;
	role?: unknown;
}

const EMAIL_PATTERN = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+\.[^\s@,;<>()".]+$/;

export function isValidEmail(email: string): boolean {
	return email.length <= 254 && EMAIL_PATTERN.test(email);
}

const ROLE_ALIASES: Record<string, GristRole | null> = {
	owner: 'owners',
	owners: 'owners',
	editor: 'editors',
	editors: 'editors',
	viewer: 'viewers',
	viewers: 'viewers',
	member: 'members',
	members: 'members',
	remove: null,
	'remove access': null,
};

/**
 * Reads a role as entered (the option values, or via an expression `Editor`, `viewers`,
 * `Remove Access`…) and checks the target accepts it.
 */
export function parseRole(target: AccessTarget, raw: unknown, field = 'Role'): GristRole | null {
	const text = typeof raw === 'string' ? raw.trim().toLowerCase() : raw === null ? 'remove' : '';
	const allowed = rolesFor(target);
	const list = `${allowed.map((r) => ROLE_OPTION[r].name).join(', ')} or Remove Access`;
	if (text === '') {
		throw new InputError(`The ${field} is empty`, field, `Choose ${list}.`);
	}
	if (!(text in ROLE_ALIASES)) {
		throw new InputError(
			`The ${field} "${String(raw)}" is not a Grist role`,
			field,
			`Choose ${list}.`,
		);
	}
	const role = ROLE_ALIASES[text];
	if (role !== null && !allowed.includes(role)) {
		throw new InputError(
			`The ${field} "${ROLE_OPTION[role].name}" cannot be given on ${TARGET_LABEL[target]}`,
			field,
			`The Member role exists for organizations only. Choose ${list}.`,
		);
	}
	return role;
}

/** Reads a Max Inherited Role value (`none` → `null`). */
export function parseMaxInheritedRole(raw: unknown): Exclude<GristRole, 'members'> | null {
	const text =
		typeof raw === 'string' ? raw.trim().toLowerCase() : raw === null ? NO_INHERITANCE : '';
	if (text === NO_INHERITANCE || text === 'null') return null;
	const role = ROLE_ALIASES[text];
	if (role === 'owners' || role === 'editors' || role === 'viewers') return role;
	throw new InputError(
		`The Max Inherited Role "${String(raw)}" is not valid`,
		'Max Inherited Role',
		'Choose Owners, Editors, Viewers or None.',
	);
}

/**
 * Validates email + role rows and returns the `users` part of a delta. Emails are trimmed; the
 * same email twice with different roles is an error (with the same role it is kept once).
 */
export function usersDelta(
	target: AccessTarget,
	rows: AccessRow[],
): Record<string, GristRole | null> {
	const users: Record<string, GristRole | null> = {};
	const seen = new Map<string, string>();
	rows.forEach((row, index) => {
		const n = index + 1;
		const email = typeof row.email === 'string' ? row.email.trim() : '';
		if (email === '') {
			throw new InputError(
				`The Email of user ${n} is empty`,
				'Email',
				'Enter the email address of the user, or remove the row.',
			);
		}
		if (!isValidEmail(email)) {
			throw new InputError(
				`The Email "${email}" of user ${n} is not a valid email address`,
				'Email',
				'Enter one address per row, like name@example.com.',
			);
		}
		const role = parseRole(target, row.role, `Role of ${email}`);
		const key = email.toLowerCase();
		const previous = seen.get(key);
		if (previous !== undefined) {
			if (users[previous] !== role) {
				throw new InputError(
					`The Email "${email}" is listed twice with different roles`,
					'Email',
					'Keep one row per user.',
				);
			}
			return;
		}
		seen.set(key, email);
		users[email] = role;
	});
	return users;
}

export interface AccessDelta {
	users?: Record<string, GristRole | null>;
	maxInheritedRole?: Exclude<GristRole, 'members'> | null;
}

/**
 * The body of `PATCH …/access`: `{ delta: { users?, maxInheritedRole? } }`. Orgs must have users
 * and never a maxInheritedRole; workspaces and documents need at least one of the two.
 */
export function buildAccessDelta(
	target: AccessTarget,
	rows: AccessRow[],
	maxInheritedRole?: unknown,
): { delta: AccessDelta } {
	const delta: AccessDelta = {};
	if (rows.length > 0) delta.users = usersDelta(target, rows);
	if (maxInheritedRole !== undefined && maxInheritedRole !== '') {
		if (target === 'org') {
			throw new InputError(
				'Organizations have no Max Inherited Role',
				'Max Inherited Role',
				'Remove the option; it applies to workspaces and documents only.',
			);
		}
		delta.maxInheritedRole = parseMaxInheritedRole(maxInheritedRole);
	}
	if (delta.users === undefined && !('maxInheritedRole' in delta)) {
		throw new InputError(
			'No access change was given',
			'Users',
			target === 'org'
				? 'Add at least one user with a role.'
				: 'Add at least one user with a role, or set the Max Inherited Role option.',
		);
	}
	return { delta };
}

export interface AccessListing {
	maxInheritedRole?: string | null;
	users?: IDataObject[];
}

/** One item per user of an access listing; workspaces and documents add `maxInheritedRole`. */
export function accessItems(target: AccessTarget, listing: AccessListing): IDataObject[] {
	const users = Array.isArray(listing?.users) ? listing.users : [];
	if (target === 'org') return users.map((u) => ({ ...u }));
	if (listing.maxInheritedRole === undefined) return users.map((u) => ({ ...u }));
	return users.map((u) => ({ ...u, maxInheritedRole: listing.maxInheritedRole }));
}
