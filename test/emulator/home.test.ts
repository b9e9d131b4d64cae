/** Emulator: orgs, workspaces, docs (home DB) and access control. */
import { startEmulator, type DemoSite, type GristEmulator } from './index';
import {
	client,
	type AccessBody,
	type DocInfo,
	type ErrorBody,
	type Org,
	type TablesBody,
	type Workspace,
} from './testutil';
import { emulatorOnly } from '../harness/target';

// Every test here reads the demo team site: its name and domain, its three members by name and
// email (owner, editor, viewer), a personal site beside it. A real run has one site and two accounts.
const teamSite = emulatorOnly(
	'the demo team site with three chosen members (owner, editor, viewer) besides the personal site',
);

let emu: GristEmulator;
let demo: DemoSite;
let owner: ReturnType<typeof client>;
let editor: ReturnType<typeof client>;
let viewer: ReturnType<typeof client>;

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
	owner = client(emu, demo.apiKey);
	editor = client(emu, demo.editorApiKey);
	viewer = client(emu, demo.viewerApiKey);
});
afterAll(() => emu.close());

teamSite.describe('orgs', () => {
	it('lists visible orgs with owner/personal shapes', async () => {
		const r = await owner.get<Org[]>('/api/orgs');
		expect(r.json).toHaveLength(2);
		const [personal, team] = r.json;
		expect(personal).toMatchObject({
			name: 'Personal',
			domain: expect.stringMatching(/^docs-\d+$/),
			access: 'owners',
		});
		expect(personal.owner).toEqual({
			id: demo.userId,
			name: 'Demo Owner',
			picture: null,
			ref: expect.any(String),
			createdAt: expect.any(String),
			type: 'login',
		});
		expect(Object.keys(team).sort()).toEqual([
			'access',
			'createdAt',
			'domain',
			'host',
			'id',
			'name',
			'owner',
			'updatedAt',
		]);
		expect(team).toMatchObject({
			id: demo.orgId,
			domain: 'demo',
			owner: null,
			host: null,
			access: 'owners',
		});
		expect(
			(await viewer.get<Org[]>('/api/orgs')).json.find((o) => o.id === demo.orgId)?.access,
		).toBe('viewers');
	});

	it('describe: 404 / 403', async () => {
		const stranger = emu.addUser({ email: 'stranger@example.com' });
		const r = await client(emu, stranger.apiKey).get(`/api/orgs/${demo.orgId}`);
		expect(r.status).toBe(403);
		expect(r.json).toEqual({ error: 'access denied' });
		expect((await owner.get('/api/orgs/nosuch')).status).toBe(404);
	});

	it('PATCH: owners only, unknown key, domain rules', async () => {
		const unknown = await owner.patch(`/api/orgs/${demo.orgId}`, { nme: 'x' });
		expect(unknown.status).toBe(400);
		expect(unknown.json).toEqual({ error: 'unrecognized property nme' });
		const denied = await editor.patch(`/api/orgs/${demo.orgId}`, { name: 'Hacked' });
		expect(denied.status).toBe(403);
		expect(denied.json).toEqual({ error: 'access denied' });
		const bad = await owner.patch<ErrorBody>(`/api/orgs/${demo.orgId}`, { domain: 'Bad Domain!' });
		expect(bad.status).toBe(400);
		expect(bad.json.error).toMatch(/^Domain is not permitted/);
		const ok = await owner.patch(`/api/orgs/${demo.orgId}`, { name: 'Demo Team 2' });
		expect(ok.status).toBe(200);
		expect(ok.json).toBeNull();
		expect((await owner.get<Org>(`/api/orgs/${demo.orgId}`)).json.name).toBe('Demo Team 2');
		const personal = (await owner.get<Org[]>('/api/orgs')).json[0];
		expect((await owner.patch(`/api/orgs/${personal.id}`, { domain: 'mine' })).status).toBe(400);
	});

	it('GET /orgs/{org}/workspaces lists workspaces with docs and orgDomain', async () => {
		const r = await owner.get<Workspace[]>('/api/orgs/demo/workspaces');
		// HomeDBManager._orgWorkspaces orders them by name
		expect(r.json.map((w) => w.name)).toEqual(['Projects', 'Sales']);
		expect(r.json[1]).toMatchObject({
			id: demo.workspaceId,
			access: 'owners',
			orgDomain: 'demo',
			isSupportWorkspace: false,
		});
		expect(r.json[1].docs).toEqual([
			{
				id: demo.docId,
				name: 'CRM',
				access: 'owners',
				isPinned: false,
				urlId: demo.docId.slice(0, 12), // HomeDBManager.addDocument: a 12-character prefix of the id
				trunkId: null,
				type: null,
				forks: [],
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
			},
		]);
	});
});

teamSite.describe('workspaces', () => {
	it('create (integer id), describe, patch, delete with its docs', async () => {
		const noName = await owner.post('/api/orgs/demo/workspaces', {});
		expect(noName.status).toBe(400);
		expect(noName.json).toEqual({ error: 'Bad request: name required' });
		expect((await viewer.post('/api/orgs/demo/workspaces', { name: 'V' })).status).toBe(403);
		const created = await editor.post<number>('/api/orgs/demo/workspaces', { name: 'Scratch' });
		expect(typeof created.json).toBe('number');
		const wid = created.json;
		const d = await owner.get(`/api/workspaces/${wid}`);
		expect(d.json).toMatchObject({
			id: wid,
			name: 'Scratch',
			docs: [],
			org: { id: demo.orgId, domain: 'demo' },
		});
		expect((await owner.get('/api/workspaces/abc')).json).toEqual({
			error: 'wid parameter cannot be understood as an integer: abc',
		});
		expect((await owner.get<Workspace>(`/api/workspaces/${wid}abc`)).json.id).toBe(wid); // parseInt semantics
		expect((await owner.get('/api/workspaces/9999')).json).toEqual({
			error: 'workspace not found',
		});
		expect((await viewer.patch(`/api/workspaces/${wid}`, { name: 'x' })).status).toBe(403);
		expect((await owner.patch(`/api/workspaces/${wid}`, { name: 'Renamed' })).json).toBe(wid);
		const doc = await owner.post(`/api/workspaces/${wid}/docs`, { name: 'Temp' });
		expect(doc.json).toMatch(/^[A-Za-z0-9]{22}$/);
		expect((await owner.del(`/api/workspaces/${wid}`)).json).toBe(wid);
		expect((await owner.get(`/api/docs/${doc.json}`)).status).toBe(404);
	});
});

teamSite.describe('docs', () => {
	it('create: name required, viewers 403; describe includes workspace and org', async () => {
		expect((await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, {})).json).toEqual({
			error: 'Bad request: name required',
		});
		expect(
			(await viewer.post(`/api/workspaces/${demo.workspaceId}/docs`, { name: 'x' })).status,
		).toBe(403);
		const id = (
			await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, {
				name: 'New Doc',
				isPinned: true,
			})
		).json;
		const d = await owner.get(`/api/docs/${id}`);
		expect(d.json).toMatchObject({
			id,
			name: 'New Doc',
			isPinned: true,
			access: 'owners',
			workspace: { id: demo.workspaceId, name: 'Sales', org: { id: demo.orgId, domain: 'demo' } },
		});
	});

	it('PATCH: owners only, unknown key, urlId rules; urlId lookups', async () => {
		const id = (await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, { name: 'P' })).json;
		expect((await owner.patch(`/api/docs/${id}`, { color: 'red' })).json).toEqual({
			error: 'unrecognized property color',
		});
		expect((await editor.patch(`/api/docs/${id}`, { name: 'x' })).status).toBe(403);
		expect((await owner.patch(`/api/docs/${id}`, { type: 'bogus' })).status).toBe(400);
		expect(
			(
				await owner.patch(`/api/docs/${id}`, {
					name: 'P2',
					urlId: 'my-doc',
					options: { description: 'd' },
				})
			).json,
		).toBe(id);
		const byUrl = await owner.get('/api/docs/my-doc');
		expect(byUrl.json).toMatchObject({
			id,
			name: 'P2',
			urlId: 'my-doc',
			options: { description: 'd' },
		});
		expect(
			(await owner.get<TablesBody>('/api/docs/my-doc/tables')).json.tables.map((t) => t.id),
		).toEqual(['Table1']);
		const id2 = (await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, { name: 'Q' })).json;
		const dup = await owner.patch(`/api/docs/${id2}`, { urlId: 'my-doc' });
		expect(dup.json).toEqual({ error: 'urlId already in use' });
	});

	it('move: same workspace, bad workspace, cross-org clears urlId', async () => {
		const id = (
			await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, { name: 'M', urlId: 'movable' })
		).json;
		expect((await owner.patch(`/api/docs/${id}/move`, {})).json).toEqual({
			error: 'workspace parameter cannot be understood as an integer: undefined',
		});
		expect(
			(await owner.patch(`/api/docs/${id}/move`, { workspace: demo.workspaceId })).json,
		).toEqual({
			error: 'Bad request: doc is already in destination workspace',
		});
		expect((await owner.patch(`/api/docs/${id}/move`, { workspace: demo.workspace2Id })).json).toBe(
			id,
		);
		const personalWs = (
			await owner.get<Workspace[]>(
				`/api/orgs/${(await owner.get<Org[]>('/api/orgs')).json[0].id}/workspaces`,
			)
		).json[0].id;
		expect((await owner.patch(`/api/docs/${id}/move`, { workspace: personalWs })).status).toBe(200);
		expect((await owner.get(`/api/docs/${id}`)).json).toMatchObject({
			urlId: null,
			workspace: { id: personalWs },
		});
	});

	it('pin/unpin (owners) and GET /api/profile/user', async () => {
		const id = (await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, { name: 'Pin' })).json;
		expect((await editor.patch(`/api/docs/${id}/pin`)).status).toBe(403);
		expect((await owner.patch(`/api/docs/${id}/pin`)).json).toBeNull();
		expect((await owner.get<DocInfo>(`/api/docs/${id}`)).json.isPinned).toBe(true);
		await owner.patch(`/api/docs/${id}/unpin`);
		expect((await owner.get<DocInfo>(`/api/docs/${id}`)).json.isPinned).toBe(false);
		expect((await viewer.get('/api/profile/user')).json).toMatchObject({
			email: 'viewer@example.com',
			name: 'Vera Viewer',
		});
	});

	it('DELETE: viewers No write access, editors access denied, owners ok', async () => {
		const id = (await owner.post(`/api/workspaces/${demo.workspaceId}/docs`, { name: 'Del' })).json;
		expect((await viewer.del(`/api/docs/${id}`)).json).toEqual({ error: 'No write access' });
		expect((await editor.del(`/api/docs/${id}`)).json).toEqual({ error: 'access denied' });
		expect((await owner.del(`/api/docs/${id}`)).json).toBe(id);
		expect((await owner.get(`/api/docs/${id}`)).json).toEqual({ error: 'document not found' });
	});
});

teamSite.describe('access', () => {
	it('org access listing and delta validation', async () => {
		const list = await owner.get<AccessBody>(`/api/orgs/${demo.orgId}/access`);
		const byEmail = Object.fromEntries(list.json.users.map((u) => [u.email, u]));
		expect(byEmail['demo@example.com']).toMatchObject({
			access: 'owners',
			isMember: true,
			name: 'Demo Owner',
		});
		expect(byEmail['viewer@example.com']).toMatchObject({ access: 'viewers', isMember: true });
		expect(
			(await viewer.get<AccessBody>(`/api/orgs/${demo.orgId}/access`)).json.users.map(
				(u) => u.email,
			),
		).toEqual(['viewer@example.com']);

		const p = (body: unknown, c = owner) => c.patch(`/api/orgs/${demo.orgId}/access`, body);
		expect((await p({})).json).toEqual({ error: 'Bad request: missing permission delta' });
		expect((await p({ delta: { maxInheritedRole: 'owners' } })).json).toEqual({
			error: 'Bad request: invalid permission delta',
		});
		expect((await p({ delta: { users: { 'a@x.com': 'boss' } } })).json).toEqual({
			error: 'Invalid user role boss',
		});
		expect((await p({ delta: { users: { 'not-an-email': 'editors' } } })).json).toEqual({
			error: 'Invalid email address included',
		});
		expect((await p({ delta: { users: { 'demo@example.com': 'viewers' } } })).json).toEqual({
			error: 'Bad request: cannot update own permissions',
		});
		expect((await p({ delta: { users: { 'a@x.com': 'editors' } } }, editor)).status).toBe(403);
		expect(
			(await p({ delta: { users: { 'new.person@example.com': 'members' } } })).json,
		).toBeNull();
		const after = (await owner.get<AccessBody>(`/api/orgs/${demo.orgId}/access`)).json.users;
		expect(after.find((u) => u.email === 'new.person@example.com')).toMatchObject({
			access: 'members',
			isMember: true,
		});
	});

	it('workspace/doc deltas: members rejected, maxInheritedRole, inheritance, self-removal', async () => {
		const wid = (await owner.post<number>('/api/orgs/demo/workspaces', { name: 'Acl' })).json;
		const docId = (await owner.post<string>(`/api/workspaces/${wid}/docs`, { name: 'AclDoc' }))
			.json;
		const dp = (body: unknown, c = owner) => c.patch(`/api/docs/${docId}/access`, body);
		expect((await dp({ delta: { users: { 'x@example.com': 'members' } } })).json).toEqual({
			error: 'Invalid user role members',
		});
		expect((await dp({ delta: { maxInheritedRole: 'bosses' } })).json).toEqual({
			error: 'Invalid maxInheritedRole bosses',
		});
		expect((await dp({ delta: {} })).json).toEqual({
			error: 'Bad request: invalid permission delta',
		});
		// the org viewer inherits view access
		expect((await viewer.get<DocInfo>(`/api/docs/${docId}`)).json.access).toBe('viewers');
		// maxInheritedRole null cuts inheritance and keeps the caller as a direct owner
		expect((await dp({ delta: { maxInheritedRole: null } })).json).toBeNull();
		expect((await viewer.get(`/api/docs/${docId}`)).status).toBe(403);
		expect((await viewer.get(`/api/docs/${docId}/tables`)).json).toEqual({
			error: 'No view access',
		});
		const acl = await owner.get<AccessBody>(`/api/docs/${docId}/access`);
		expect(acl.json.maxInheritedRole).toBeNull();
		expect(acl.json.users.find((u) => u.email === 'demo@example.com')).toMatchObject({
			access: 'owners',
			parentAccess: 'owners',
		});
		// a direct grant works again; non-owners see only themselves plus personal/public
		expect((await dp({ delta: { users: { 'viewer@example.com': 'editors' } } })).json).toBeNull();
		const mine = await viewer.get(`/api/docs/${docId}/access`);
		expect(mine.json).toEqual({
			maxInheritedRole: null,
			users: [
				expect.objectContaining({
					email: 'viewer@example.com',
					access: 'editors',
					parentAccess: 'viewers',
				}),
			],
			personal: true,
			public: false,
		});
		expect(
			(await viewer.post(`/api/docs/${docId}/tables/Nope/records`, { records: [{}] })).status,
		).toBe(404);
		// an owner may not remove itself (grist-core: cannot update own permissions); a non-owner
		// may remove only itself
		expect((await dp({ delta: { users: { 'demo@example.com': null } } })).json).toEqual({
			error: 'Bad request: cannot update own permissions',
		});
		expect(
			(await dp({ delta: { users: { 'viewer@example.com': null } } }, viewer)).json,
		).toBeNull();
		expect((await viewer.get(`/api/docs/${docId}`)).status).toBe(403);
		// workspace-level maxInheritedRole caps org owners
		const wp = await owner.patch(`/api/workspaces/${wid}/access`, {
			delta: { maxInheritedRole: 'viewers' },
		});
		expect(wp.json).toBeNull();
		expect((await editor.get<Workspace>(`/api/workspaces/${wid}`)).json.access).toBe('viewers');
	});

	it('setting null on the org removes the user everywhere in the org', async () => {
		const u = emu.addUser({ email: 'temp@example.com' });
		emu.setAccess('org', demo.orgId, u.email, 'viewers');
		emu.setAccess('doc', demo.docId, u.email, 'editors');
		const c = client(emu, u.apiKey);
		expect((await c.get<DocInfo>(`/api/docs/${demo.docId}`)).json.access).toBe('editors');
		expect(
			(
				await owner.patch(`/api/orgs/${demo.orgId}/access`, {
					delta: { users: { [u.email]: null } },
				})
			).json,
		).toBeNull();
		expect((await c.get(`/api/docs/${demo.docId}`)).status).toBe(403);
		expect((await c.get<Org[]>('/api/orgs')).json.find((o) => o.id === demo.orgId)).toBeUndefined();
	});

	it('guests: access to a doc only shows the org as guests', async () => {
		const u = emu.addUser({ email: 'guest@example.com' });
		emu.setAccess('doc', demo.doc2Id, u.email, 'viewers');
		const c = client(emu, u.apiKey);
		expect((await c.get<Org[]>('/api/orgs')).json.find((o) => o.id === demo.orgId)?.access).toBe(
			'guests',
		);
		const ws = (await c.get<Workspace[]>('/api/orgs/demo/workspaces')).json;
		expect(ws.map((w) => [w.name, w.access, w.docs.map((d) => d.name)])).toEqual([
			['Projects', 'guests', ['Tasks']],
		]);
		expect((await c.post('/api/orgs/demo/workspaces', { name: 'nope' })).status).toBe(403);
	});
});
