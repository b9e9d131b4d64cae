/**
 * Service accounts (grist-core ApiServer.ts under GRIST_ENABLE_SERVICE_ACCOUNTS,
 * ServiceAccountsManager.ts; measured on 1.7.17): `/api/service-accounts` — list, create, get,
 * patch, delete, `POST|DELETE …/{id}/apikey`. Off unless the emulator's `serviceAccounts` option
 * is set: then every such path is Grist's unknown route, 404 `not found: <path>`.
 *
 * - A service account is a user of its own (`<uuid>@serviceaccounts.invalid`, name "", a
 *   personal site) with an API key of 40 hex characters; only its owner (the user who created
 *   it) lists and manages it (403 `Cannot access non-owned service account`); a service account
 *   cannot create one (403).
 * - Its key: 401 `Service Account has expired` once `expiresAt` has passed (the clock is the
 *   emulator's); after a delete grist-core fails on the key with 500 `Cannot read properties of
 *   null (reading 'owner')` (measured), and so does the emulator.
 * - Bodies are checked as ts-interface-checker's strictCheck does (texts measured, see
 *   `postErrors` / `patchErrors`); then `new Date(expiresAt)` must be valid (400 `Invalid
 *   expiresAt`). An update ignores an empty label or description (grist-core keeps only truthy
 *   ones). An id that is not a number reaches SQLite: 500 `SQLITE_ERROR: no such column: NaN`.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import type { Ctx, Route } from './context';
import { ApiError } from './http';
import type { Store, User } from './model';

interface ServiceAccount {
	id: number;
	ownerId: number;
	userId: number;
	label: string;
	description: string;
	expiresAt: Date;
}

interface State {
	accounts: Map<number, ServiceAccount>;
	nextId: number;
	/** Users of service accounts (deleted ones included), by user id. */
	serviceUsers: Set<number>;
}

const states = new WeakMap<Store, State>();

function stateOf(store: Store): State {
	let s = states.get(store);
	if (!s) {
		s = { accounts: new Map(), nextId: 1, serviceUsers: new Set() };
		states.set(store, s);
	}
	return s;
}

/**
 * Grist's check of a service account's key (Authorizer.getApiKeyUser), for the emulator's
 * authentication: an expired account is 401; a deleted one fails as grist-core does.
 */
export function checkServiceAccountKey(store: Store, user: User): void {
	const s = states.get(store);
	if (!s?.serviceUsers.has(user.id)) return;
	const account = [...s.accounts.values()].find((a) => a.userId === user.id);
	if (!account) throw new ApiError(500, "Cannot read properties of null (reading 'owner')");
	if (account.expiresAt.getTime() <= store.clock())
		throw new ApiError(401, 'Service Account has expired');
}

/** Whether a user is a service account's (for the emulator's tests). */
export function isServiceUser(store: Store, userId: number): boolean {
	return states.get(store)?.serviceUsers.has(userId) ?? false;
}

const PROPS = ['label', 'description', 'expiresAt'] as const;

function propErrors(body: Record<string, unknown>): string[] {
	return PROPS.filter((k) => body[k] !== undefined && typeof body[k] !== 'string').map(
		(k) => `body.${k} is none of string, undefined`,
	);
}

function extraneous(body: Record<string, unknown>): string[] {
	return Object.keys(body)
		.filter((k) => !(PROPS as readonly string[]).includes(k))
		.map((k) => `body.${k} is extraneous`);
}

/**
 * PostServiceAccount (ServiceAccountAllOptional with `expiresAt: string`): the base interface's
 * errors and extraneous keys, then the derived one's, one per line (measured).
 */
function postErrors(body: Record<string, unknown>): string[] {
	const derived =
		body.expiresAt === undefined
			? ['body.expiresAt is missing']
			: typeof body.expiresAt !== 'string'
				? ['body.expiresAt is not a string']
				: [];
	return [...propErrors(body), ...extraneous(body), ...derived, ...extraneous(body)];
}

/** PatchServiceAccount (the alias ServiceAccountAllOptional): one error after `;`, several indented. */
function patchError(body: Record<string, unknown>): string | undefined {
	const errs = [...propErrors(body), ...extraneous(body)];
	if (errs.length === 0) return undefined;
	const head = 'body is not a ServiceAccountAllOptional';
	return errs.length === 1 ? `${head}; ${errs[0]}` : `${head}\n    ${errs.join('\n    ')}`;
}

function invalidPayload(userError: string): ApiError {
	return new ApiError(400, 'Invalid payload', { userError: `Error: ${userError}` });
}

/** The caller, signed in (`getAuthorizedUserId`): else 401. */
function caller(c: Ctx): User {
	if (c.isAnon) throw new ApiError(401, 'user not authorized');
	return c.user;
}

function enabled(c: Ctx): void {
	if (!c.opts.serviceAccounts) throw new ApiError(404, `not found: ${c.apiPath}`);
}

function body(c: Ctx): Record<string, unknown> {
	const b = c.body.json;
	return b !== null && typeof b === 'object' ? (b as Record<string, unknown>) : {};
}

/** The account `raw` (parseInt, as ApiServer), owned by the caller. */
function owned(c: Ctx, raw: string): ServiceAccount {
	const user = caller(c);
	const id = parseInt(decodeURIComponent(raw), 10);
	if (Number.isNaN(id)) throw new ApiError(500, 'SQLITE_ERROR: no such column: NaN');
	const account = stateOf(c.store).accounts.get(id);
	if (!account) throw new ApiError(404, 'This Service Account does not exist');
	if (account.ownerId !== user.id)
		throw new ApiError(403, 'Cannot access non-owned service account');
	return account;
}

function date(text: string): Date {
	const d = new Date(text);
	if (Number.isNaN(d.getTime())) throw new ApiError(400, 'Invalid expiresAt');
	return d;
}

function listed(c: Ctx, a: ServiceAccount) {
	const user = c.store.users.get(a.userId)!;
	return {
		id: a.id,
		login: user.email,
		label: a.label,
		description: a.description,
		expiresAt: a.expiresAt.toISOString(),
		hasValidKey: user.apiKey !== null,
	};
}

/** The answer of create and of a new key: the account with its key. */
function withKey(c: Ctx, a: ServiceAccount) {
	const { id, login, ...rest } = listed(c, a);
	return { id, login, key: c.store.users.get(a.userId)!.apiKey, ...rest };
}

const SA = '^\\/api\\/service-accounts';

export const serviceAccountsRoutes: Route[] = [
	{
		method: 'POST',
		re: new RegExp(`${SA}$`),
		handler: (c) => {
			enabled(c);
			const b = body(c);
			const errs = postErrors(b);
			if (errs.length) throw invalidPayload(errs.join('\n'));
			const owner = caller(c);
			const s = stateOf(c.store);
			if (s.serviceUsers.has(owner.id))
				throw new ApiError(
					403,
					'Only regular users (of type "login") are allowed to create service accounts',
				);
			const expiresAt = date(b.expiresAt as string);
			const user = c.store.ensureUser(`${randomUUID()}@serviceaccounts.invalid`, '');
			user.name = '';
			user.apiKey = randomBytes(20).toString('hex');
			s.serviceUsers.add(user.id);
			const account: ServiceAccount = {
				id: s.nextId++,
				ownerId: owner.id,
				userId: user.id,
				label: typeof b.label === 'string' ? b.label : '',
				description: typeof b.description === 'string' ? b.description : '',
				expiresAt,
			};
			s.accounts.set(account.id, account);
			return withKey(c, account);
		},
	},
	{
		method: 'GET',
		re: new RegExp(`${SA}$`),
		handler: (c) => {
			enabled(c);
			const user = caller(c);
			return [...stateOf(c.store).accounts.values()]
				.filter((a) => a.ownerId === user.id)
				.map((a) => listed(c, a));
		},
	},
	{
		method: 'GET',
		re: new RegExp(`${SA}\\/([^/]+)$`),
		handler: (c, m) => {
			enabled(c);
			return listed(c, owned(c, m[1]));
		},
	},
	{
		method: 'PATCH',
		re: new RegExp(`${SA}\\/([^/]+)$`),
		handler: (c, m) => {
			enabled(c);
			const b = body(c);
			const err = patchError(b);
			if (err) throw invalidPayload(err);
			const account = owned(c, m[1]);
			const expiresAt = b.expiresAt !== undefined ? date(b.expiresAt as string) : undefined;
			if (b.label) account.label = b.label as string;
			if (b.description) account.description = b.description as string;
			if (expiresAt) account.expiresAt = expiresAt;
			return null;
		},
	},
	{
		method: 'DELETE',
		re: new RegExp(`${SA}\\/([^/]+)$`),
		handler: (c, m) => {
			enabled(c);
			const account = owned(c, m[1]);
			stateOf(c.store).accounts.delete(account.id);
			return null;
		},
	},
	{
		method: 'POST',
		re: new RegExp(`${SA}\\/([^/]+)\\/apikey$`),
		handler: (c, m) => {
			enabled(c);
			const account = owned(c, m[1]);
			c.store.users.get(account.userId)!.apiKey = randomBytes(20).toString('hex');
			return withKey(c, account);
		},
	},
	{
		method: 'DELETE',
		re: new RegExp(`${SA}\\/([^/]+)\\/apikey$`),
		handler: (c, m) => {
			enabled(c);
			const account = owned(c, m[1]);
			c.store.users.get(account.userId)!.apiKey = null;
			return null;
		},
	},
];
