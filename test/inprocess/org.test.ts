/**
 * Organization operations run through n8n-core (test harness level b) against the emulator:
 * exact requests from the request log, outputs, paired items, bad input and Continue On Fail.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { emulatorOnly, realGrist } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const run = resourceRunner(fx, 'org');

describe('org getAll', () => {
	emulatorOnly(
		'the key’s sites are the emulator’s demo team and personal site; a real key has its own',
	).it('lists the orgs of the key, limited', async () => {
		const all = await run({ operation: 'getAll', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.domain).sort()).toEqual(['demo', `docs-${demo.userId}`]);
		const one = await run({ operation: 'getAll', returnAll: false, limit: 1 });
		expect(one.items).toHaveLength(1);
		expect(one.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('org get', () => {
	emulatorOnly(
		'the demo team’s name and domain: a real site (GRIST_ORG, which the facade puts in its place) has its own',
	).it('gets the org picked by ID', async () => {
		const { items, error } = await run({ operation: 'get', org: rl('id', String(demo.orgId)) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: demo.orgId,
			name: 'Demo Team',
			domain: 'demo',
			access: 'owners',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(requests()).toEqual([`GET /o/demo/api/orgs/${demo.orgId}`]);
	});

	it('gets the org of a pasted team URL', async () => {
		const { items, error } = await run(
			{ operation: 'get', org: rl('url', 'https://demo.getgrist.com/ws/3/') },
			{ serverUrl: emu.url },
		);
		expect(error).toBeUndefined();
		// the org by the id seeding gave (its domain is the real site's against a real Grist)
		expect(items[0].json).toMatchObject({ id: demo.orgId });
		expect(requests()).toEqual(['GET /api/orgs/demo']);
	});

	it('uses the /o/<team> site of the Server URL when no org is picked', async () => {
		const { items, error } = await run({ operation: 'get', org: rl('list', '') });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: demo.orgId });
		expect(requests()).toEqual(['GET /o/demo/api/orgs/demo']);
	});

	it('on a self-hosted URL without /o/ and several orgs, asks to pick one', async () => {
		// the viewer: its personal site and the demo site (as a member, or a guest of its workspaces)
		const { error } = await run(
			{ operation: 'get', org: rl('list', '') },
			{ serverUrl: emu.url, apiKey: demo.viewerApiKey },
		);
		expect(error?.message).toBe(
			'This Grist server has 2 organizations and the Server URL does not say which one to use',
		);
		expect(requests()).toEqual(['GET /api/orgs']);
	});

	it("an unknown org gives Grist's 404 message", async () => {
		const { error } = await run({ operation: 'get', org: rl('id', 'nosuchteam') });
		expect(error?.message).toBe('Organization not found');
		expect(error?.httpCode).toBe('404');
	});
});

describe('org update', () => {
	it('renames and returns the org as it is now', async () => {
		const { items, error } = await run({
			operation: 'update',
			org: rl('id', 'demo'),
			name: 'Demo Renamed',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: demo.orgId, name: 'Demo Renamed' });
		expect(requests()).toEqual(['PATCH /o/demo/api/orgs/demo', 'GET /o/demo/api/orgs/demo']);
		expect(emu.log[0].body).toEqual({ name: 'Demo Renamed' });
		await run({ operation: 'update', org: rl('id', 'demo'), name: 'Demo Team' });
	});

	it('an empty name is refused before any request', async () => {
		const { error } = await run({
			operation: 'update',
			org: rl('id', 'demo'),
			name: '={{ "  " }}',
		});
		expect(error?.message).toBe('The Name is empty');
		expect(emu.log).toHaveLength(0);
	});

	it("a viewer trying to rename gets Grist's message; Continue On Fail keeps going per item", async () => {
		const { items, error } = await run(
			{ operation: 'update', org: rl('id', '={{ $json.org }}'), name: 'Nope' },
			{
				apiKey: demo.viewerApiKey,
				continueOnFail: true,
				input: [{ json: { org: 'demo' } }, { json: { org: 'nosuchteam' } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe('Access denied');
		expect(items[0].json.httpCode).toBe('403');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.error).toBe('Organization not found');
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});
});

describe('org access', () => {
	emulatorOnly(
		'the demo team’s three members with their roles: a real run has two accounts, the viewer a guest of shared workspaces',
	).it('getAccess gives one item per user', async () => {
		const { items, error } = await run({
			operation: 'getAccess',
			org: rl('id', String(demo.orgId)),
		});
		expect(error).toBeUndefined();
		const byEmail = Object.fromEntries(items.map((i) => [i.json.email, i.json.access]));
		expect(byEmail).toEqual({
			[demo.email]: 'owners',
			[demo.editorEmail]: 'editors',
			[demo.viewerEmail]: 'viewers',
		});
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(requests()).toEqual([`GET /o/demo/api/orgs/${demo.orgId}/access`]);
	});

	it('updateAccess adds a member and removes access in one delta', async () => {
		const { items, error } = await run({
			operation: 'updateAccess',
			org: rl('id', 'demo'),
			users: {
				user: [
					{ email: 'new.member@example.com', role: 'members' },
					{ email: demo.viewerEmail, role: 'remove' },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: {
					updated: true,
					users: { 'new.member@example.com': 'members', [demo.viewerEmail]: null },
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(requests()).toEqual(['PATCH /o/demo/api/orgs/demo/access']);
		expect(emu.log[0].body).toEqual({
			delta: { users: { 'new.member@example.com': 'members', [demo.viewerEmail]: null } },
		});
		const after = await run({ operation: 'getAccess', org: rl('id', 'demo') });
		const byEmail = Object.fromEntries(after.items.map((i) => [i.json.email, i.json.access]));
		expect(byEmail['new.member@example.com']).toBe('members');
		expect(byEmail[demo.viewerEmail]).toBeUndefined();
		emu.setAccess('org', 'demo', demo.viewerEmail, 'viewers');
	});

	it('an invalid email is refused before the request, naming the field', async () => {
		const { error } = await run({
			operation: 'updateAccess',
			org: rl('id', 'demo'),
			users: { user: [{ email: 'not-an-email', role: 'viewers' }] },
		});
		expect(error?.message).toBe('The Email "not-an-email" of user 1 is not a valid email address');
		expect(error?.description).toBe('Enter one address per row, like name@example.com.');
		expect(emu.log).toHaveLength(0);
	});

	it('an unknown role (from an expression) is refused before the request', async () => {
		const { error } = await run({
			operation: 'updateAccess',
			org: rl('id', 'demo'),
			users: { user: [{ email: 'x@example.com', role: '={{ "admin" }}' }] },
		});
		expect(error?.message).toBe('The Role of x@example.com "admin" is not a Grist role');
		expect(emu.log).toHaveLength(0);
	});

	it('no user rows is refused before the request', async () => {
		const { error } = await run({ operation: 'updateAccess', org: rl('id', 'demo'), users: {} });
		expect(error?.message).toBe('No access change was given');
		expect(emu.log).toHaveLength(0);
	});

	it("changing one's own role gives Grist's message with a hint", async () => {
		const { error } = await run({
			operation: 'updateAccess',
			org: rl('id', 'demo'),
			users: {
				user: [
					{ email: demo.email, role: 'viewers' },
					{ email: 'x@example.com', role: 'viewers' },
				],
			},
		});
		expect(error?.message).toBe('Bad request: cannot update own permissions');
		expect(error?.description).toContain('does not let an owner change or remove their own access');
		expect(requests()).toEqual(['PATCH /o/demo/api/orgs/demo/access']);
	});
});

emulatorOnly(
	'the demo team site holds the two demo workspaces only; a real site (GRIST_ORG) holds others (Home, other runs’)',
).describe('org getWorkspaces', () => {
	it('one item per workspace, with its documents', async () => {
		const { items, error } = await run({
			operation: 'getWorkspaces',
			org: rl('id', 'demo'),
			output: 'workspace',
		});
		expect(error).toBeUndefined();
		// Grist lists an org's workspaces by name
		expect(items.map((i) => i.json.name)).toEqual(['Projects', 'Sales']);
		expect((items[1].json.docs as Array<{ id: string }>).map((d) => d.id)).toEqual([demo.docId]);
		expect(requests()).toEqual(['GET /o/demo/api/orgs/demo/workspaces']);
	});

	it('one item per document, with its workspace', async () => {
		const { items } = await run({
			operation: 'getWorkspaces',
			org: rl('id', 'demo'),
			output: 'document',
		});
		expect(
			items.map((i) => [i.json.id, i.json.name, (i.json.workspace as { id: number }).id]),
		).toEqual([
			[demo.doc2Id, 'Tasks', demo.workspace2Id],
			[demo.docId, 'CRM', demo.workspaceId],
		]);
		expect(items[0].json.workspace).toEqual({
			id: demo.workspace2Id,
			name: 'Projects',
			orgDomain: 'demo',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].pairedItem).toEqual({ item: 0 });
	});
});

describe('org key rules of every operation with an Organization field (self-hosted URL without /o/<team>)', () => {
	// Such a server cannot resolve `current` (400 "No organization chosen"): an empty Organization
	// field must become the only org the key can see, or an error asking to pick one.
	const ops: Array<[string, Record<string, unknown>, (org: number) => string[]]> = [
		['org get', { operation: 'get' }, (o) => [`GET /api/orgs/${o}`]],
		[
			'org update',
			{ operation: 'update', name: 'Renamed' },
			(o) => [`PATCH /api/orgs/${o}`, `GET /api/orgs/${o}`],
		],
		['org getAccess', { operation: 'getAccess' }, (o) => [`GET /api/orgs/${o}/access`]],
		[
			'org updateAccess',
			{
				operation: 'updateAccess',
				users: { user: [{ email: 'friend@example.com', role: 'viewers' }] },
			},
			(o) => [`PATCH /api/orgs/${o}/access`],
		],
		[
			'org getWorkspaces',
			{ operation: 'getWorkspaces', output: 'workspace' },
			(o) => [`GET /api/orgs/${o}/workspaces`],
		],
		[
			'document getAll (site)',
			{ resource: 'document', operation: 'getAll', scope: 'org', returnAll: true },
			(o) => [`GET /api/orgs/${o}/workspaces`],
		],
		[
			'workspace create',
			{ resource: 'workspace', operation: 'create', name: 'New' },
			(o) => [`POST /api/orgs/${o}/workspaces`],
		],
	];

	it.each(ops)(
		'%s: uses the only org of the key, never "current"',
		async (_name, params, expected) => {
			// a key with one site: a fresh user of the emulator; against a real Grist the owner's key,
			// whose only site is GRIST_ORG (its rename, sharing and new workspace are undone on close)
			const solo = realGrist
				? { apiKey: demo.apiKey }
				: emu.addUser({
						email: `solo-${String(params.resource ?? 'org')}-${String(params.operation)}@example.com`,
					});
			const listed = await run(
				{ operation: 'getAll', returnAll: true },
				{ serverUrl: emu.url, apiKey: solo.apiKey },
			);
			expect(listed.items).toHaveLength(1);
			const only = listed.items[0].json.id as number;
			emu.clearLog();
			const { error } = await run(
				{ org: rl('list', ''), ...params },
				{ serverUrl: emu.url, apiKey: solo.apiKey },
			);
			expect(error).toBeUndefined();
			const made = requests();
			expect(made.slice(0, 1 + expected(only).length)).toEqual([
				'GET /api/orgs',
				...expected(only),
			]);
			expect(made.join(' ')).not.toContain('current');
		},
	);

	it.each(ops)(
		'%s: with several orgs and none picked, asks to pick one and sends nothing else',
		async (_name, params) => {
			const { error } = await run(
				{ org: rl('list', ''), ...params },
				{ serverUrl: emu.url, apiKey: demo.viewerApiKey },
			);
			expect(error?.message).toBe(
				'This Grist server has 2 organizations and the Server URL does not say which one to use',
			);
			expect(error?.description).toMatch(
				/Pick an organization in the Organization field, or add \/o\/TEAM/,
			);
			expect(requests()).toEqual(['GET /api/orgs']);
		},
	);
});
