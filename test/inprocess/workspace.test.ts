/**
 * Workspace operations run through n8n-core (test harness level b) against the emulator.
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { runNode } from '../harness/inprocess';
import { workspaceName } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let site: string;
beforeAll(() => ({ emu, demo, site } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const run = resourceRunner(fx, 'workspace');

describe('workspace create', () => {
	it('creates in the picked org and returns the new workspace, not a bare number', async () => {
		const { items, error } = await run({
			operation: 'create',
			org: rl('id', String(demo.orgId)),
			name: 'Marketing',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const ws = items[0].json;
		expect(ws).toMatchObject({ name: 'Marketing', access: 'owners', docs: [] });
		expect(typeof ws.id).toBe('number');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(requests()).toEqual([
			`POST /o/demo/api/orgs/${demo.orgId}/workspaces`,
			`GET /o/demo/api/workspaces/${ws.id}`,
		]);
		expect(emu.log[0].body).toEqual({ name: 'Marketing' });
	});

	it('without an org, creates in the /o/<team> site of the Server URL', async () => {
		const { items, error } = await run({ operation: 'create', org: rl('list', ''), name: 'Ops' });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ name: 'Ops', org: { id: demo.orgId } });
		expect(requests()[0]).toBe('POST /o/demo/api/orgs/demo/workspaces');
	});

	it('an empty name is refused before the request (by n8n, or by the node for an expression)', async () => {
		await expect(run({ operation: 'create', org: rl('id', 'demo'), name: '' })).rejects.toThrow(
			'Parameter "Name" is required',
		);
		const expression = await run({
			operation: 'create',
			org: rl('id', 'demo'),
			name: '={{ $json.missing }}',
		});
		expect(expression.error?.message).toBe('The Name is empty');
		expect(expression.error?.description).toBe('Enter the name of the new workspace.');
		expect(emu.log).toHaveLength(0);
	});

	it("a viewer cannot create: Grist's message", async () => {
		const { error } = await run(
			{ operation: 'create', org: rl('id', 'demo'), name: 'X' },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toBe('Access denied');
	});
});

describe('workspace get', () => {
	it('gets a workspace by ID, with its documents', async () => {
		const { items, error } = await run({
			operation: 'get',
			workspace: rl('id', String(demo.workspaceId)),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: demo.workspaceId,
			name: workspaceName('Sales'),
		});
		expect((items[0].json.docs as Array<{ id: string }>).map((d) => d.id)).toEqual([demo.docId]);
		expect(requests()).toEqual([`GET /o/demo/api/workspaces/${demo.workspaceId}`]);
	});

	it('gets a workspace from a pasted URL', async () => {
		const { items, error } = await run({
			operation: 'get',
			workspace: rl('url', `https://demo.getgrist.com/ws/${demo.workspace2Id}/`),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: demo.workspace2Id,
			name: workspaceName('Projects'),
		});
	});

	it('a non-integer workspace ID is refused before the request, naming the field', async () => {
		const { error } = await run({ operation: 'get', workspace: rl('id', '={{ "12abc" }}') });
		expect(error?.message).toBe('The Workspace ID "12abc" is not a whole number');
		expect(emu.log).toHaveLength(0);
	});

	it("an unknown workspace: Grist's 404; Continue On Fail gives one error item per failing item", async () => {
		const { items, error } = await run(
			{ operation: 'get', workspace: rl('id', '={{ $json.ws }}') },
			{
				continueOnFail: true,
				input: [{ json: { ws: 999 } }, { json: { ws: demo.workspaceId } }, { json: { ws: 'x' } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ error: 'Workspace not found', httpCode: '404' });
		expect(items[1].json).toMatchObject({ id: demo.workspaceId });
		expect(items[2].json.error).toBe('The Workspace ID "x" is not a whole number');
		expect(requests()).toEqual([
			`GET /o/demo/api/workspaces/999`,
			`GET /o/demo/api/workspaces/${demo.workspaceId}`,
		]);
	});
});

describe('workspace update', () => {
	it('renames and returns the workspace', async () => {
		const ws = emu.addWorkspace('demo', 'Old Name');
		const { items, error } = await run({
			operation: 'update',
			workspace: rl('id', String(ws.id)),
			name: 'New Name',
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: ws.id, name: 'New Name' });
		expect(requests()).toEqual([
			`PATCH /o/demo/api/workspaces/${ws.id}`,
			`GET /o/demo/api/workspaces/${ws.id}`,
		]);
		expect(emu.log[0].body).toEqual({ name: 'New Name' });
	});

	it("a viewer trying to rename gets Grist's message", async () => {
		const { error } = await run(
			{ operation: 'update', workspace: rl('id', String(demo.workspaceId)), name: 'Hacked' },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toBe('Access denied');
		expect(requests()).toEqual([`PATCH /o/demo/api/workspaces/${demo.workspaceId}`]);
	});
});

describe('workspace delete', () => {
	it('deletes the workspace and its documents, returns { deleted: true }', async () => {
		const ws = emu.addWorkspace('demo', 'Doomed');
		const doc = emu.addDoc(ws.id, { name: 'Inside' });
		const { items, error } = await run({ operation: 'delete', workspace: rl('id', String(ws.id)) });
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { deleted: true }, pairedItem: { item: 0 } }]);
		expect(requests()).toEqual([`DELETE /o/demo/api/workspaces/${ws.id}`]);
		const after = await runNode({
			node: new Grist(),
			parameters: { resource: 'document', operation: 'get', document: rl('id', doc.id) } as never,
			credentials: { apiKey: demo.apiKey, url: site },
		});
		expect(after.error?.message).toBe('Document not found');
	});
});

describe('workspace access', () => {
	it('getAccess: one item per user with the inherited-role ceiling', async () => {
		const ws = emu.addWorkspace('demo', 'Shared');
		emu.setAccess('workspace', ws.id, 'guest@example.com', 'viewers');
		const { items, error } = await run({
			operation: 'getAccess',
			workspace: rl('id', String(ws.id)),
		});
		expect(error).toBeUndefined();
		const guest = items.find((i) => i.json.email === 'guest@example.com');
		expect(guest?.json).toMatchObject({ access: 'viewers', maxInheritedRole: 'owners' });
		expect(items.find((i) => i.json.email === demo.email)?.json).toMatchObject({
			parentAccess: 'owners',
		});
		expect(requests()).toEqual([`GET /o/demo/api/workspaces/${ws.id}/access`]);
	});

	it('updateAccess: users and a ceiling of None', async () => {
		const ws = emu.addWorkspace('demo', 'Private');
		const { items, error } = await run({
			operation: 'updateAccess',
			workspace: rl('id', String(ws.id)),
			users: { user: [{ email: 'friend@example.com', role: 'editors' }] },
			options: { maxInheritedRole: 'none' },
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: { updated: true, users: { 'friend@example.com': 'editors' }, maxInheritedRole: null },
				pairedItem: { item: 0 },
			},
		]);
		expect(requests()).toEqual([`PATCH /o/demo/api/workspaces/${ws.id}/access`]);
		expect(emu.log[0].body).toEqual({
			delta: { users: { 'friend@example.com': 'editors' }, maxInheritedRole: null },
		});
		const after = await run({ operation: 'getAccess', workspace: rl('id', String(ws.id)) });
		expect(after.items.find((i) => i.json.email === 'friend@example.com')?.json).toMatchObject({
			access: 'editors',
			maxInheritedRole: null,
		});
	});

	it('updateAccess: only the ceiling', async () => {
		const ws = emu.addWorkspace('demo', 'Capped');
		const { error } = await run({
			operation: 'updateAccess',
			workspace: rl('id', String(ws.id)),
			options: { maxInheritedRole: 'viewers' },
		});
		expect(error).toBeUndefined();
		expect(emu.log[0].body).toEqual({ delta: { maxInheritedRole: 'viewers' } });
	});

	it('the Member role is refused for a workspace before the request', async () => {
		const { error } = await run({
			operation: 'updateAccess',
			workspace: rl('id', String(demo.workspaceId)),
			users: { user: [{ email: 'm@example.com', role: '={{ "members" }}' }] },
		});
		expect(error?.message).toBe(
			'The Role of m@example.com "Member" cannot be given on a workspace',
		);
		expect(emu.log).toHaveLength(0);
	});

	it('the Role options offer no Member for workspaces', () => {
		const users = new Grist().description.properties.find(
			(p) => p.name === 'users' && p.displayOptions?.show?.resource?.includes('workspace'),
		);
		const values = (
			users?.options?.[0] as { values: Array<{ name: string; options?: Array<{ value: string }> }> }
		).values;
		expect(values.find((v) => v.name === 'role')?.options?.map((o) => o.value)).toEqual([
			'owners',
			'editors',
			'viewers',
			'remove',
		]);
	});
});
