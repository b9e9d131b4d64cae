/**
 * Real n8n 2.41.1 with the packed package (test level c): one workflow per resource (org,
 * workspace, document), each chaining several operations on the emulator, plus a document export
 * workflow and a bad-input case as n8n shows it.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { mapper, rl } from '../harness/builders';
import {
	gristNode,
	manualWorkflow,
	useN8nDemoSite,
	type CredentialRef,
	type N8n,
} from '../harness/e2e';
import { emulatorOnly, workspaceName } from '../harness/target';

const fx = useN8nDemoSite({ credential: 'Grist home', emulator: { serviceAccounts: true } });
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));

emulatorOnly(
	'the demo team site by its chosen domain and name (demo.getgrist.com, "Demo Team"), its members with chosen emails (the editor has no real account) and holding only the demo documents',
).test(
	'org: get by URL → update access → workspaces per document; then access one item per user',
	async () => {
		const run = await n8n.runWorkflow(
			manualWorkflow([
				gristNode(
					{ resource: 'org', operation: 'get', org: rl('url', 'https://demo.getgrist.com/') },
					cred,
					{ name: 'Get Org' },
				),
				gristNode(
					{
						resource: 'org',
						operation: 'updateAccess',
						org: rl('id', '={{ $json.domain }}'),
						users: { user: [{ email: 'member@example.com', role: 'members' }] },
					},
					cred,
					{ name: 'Share Org' },
				),
				gristNode(
					{ resource: 'org', operation: 'getWorkspaces', org: rl('list', ''), output: 'document' },
					cred,
					{
						name: 'Org Docs',
					},
				),
			]),
		);
		expect(run.error).toBeUndefined();
		expect(run.status).toBe('success');
		expect(run.output('Get Org')).toEqual([
			expect.objectContaining({ id: demo.orgId, domain: 'demo', name: 'Demo Team' }),
		]);
		expect(run.output('Share Org')).toEqual([
			{ updated: true, users: { 'member@example.com': 'members' } },
		]);
		// Grist lists an org's workspaces by name: Projects (Tasks) before Sales (CRM)
		expect((run.output('Org Docs') as Array<{ name: string }>).map((d) => d.name)).toEqual([
			'Tasks',
			'CRM',
		]);

		const accessRun = await n8n.runWorkflow(
			manualWorkflow([
				gristNode({ resource: 'org', operation: 'getAccess', org: rl('id', 'demo') }, cred, {
					name: 'Org Access',
				}),
			]),
		);
		expect(accessRun.status).toBe('success');
		const access = accessRun.output('Org Access') as Array<{ email: string; access: string }>;
		expect(access.map((u) => [u.email, u.access]).sort()).toEqual(
			[
				[demo.email, 'owners'],
				[demo.editorEmail, 'editors'],
				[demo.viewerEmail, 'viewers'],
				['member@example.com', 'members'],
			].sort(),
		);
		expect(
			accessRun.items('Org Access').every((i) => (i.pairedItem as { item: number }).item === 0),
		).toBe(true);
	},
);

test('workspace: create → rename → restrict access → get access; then delete', async () => {
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'workspace',
					operation: 'create',
					org: rl('id', String(demo.orgId)),
					name: 'E2E',
				},
				cred,
				{
					name: 'Create Workspace',
				},
			),
			gristNode(
				{
					resource: 'workspace',
					operation: 'update',
					workspace: rl('id', '={{ $json.id }}'),
					name: 'E2E renamed',
				},
				cred,
				{ name: 'Rename Workspace' },
			),
			gristNode(
				{
					resource: 'workspace',
					operation: 'updateAccess',
					workspace: rl('id', '={{ $json.id }}'),
					users: { user: [{ email: 'partner@example.com', role: 'viewers' }] },
					options: { maxInheritedRole: 'none' },
				},
				cred,
				{ name: 'Restrict Workspace' },
			),
			gristNode(
				{
					resource: 'workspace',
					operation: 'getAccess',
					workspace: rl('id', "={{ $('Create Workspace').item.json.id }}"),
				},
				cred,
				{ name: 'Workspace Access' },
			),
		]),
	);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');
	const [created] = run.output('Create Workspace') as Array<{ id: number; name: string }>;
	expect(created).toMatchObject({ name: 'E2E', docs: [] });
	expect(run.output('Rename Workspace')).toEqual([
		expect.objectContaining({ id: created.id, name: 'E2E renamed' }),
	]);
	expect(run.output('Restrict Workspace')).toEqual([
		{ updated: true, users: { 'partner@example.com': 'viewers' }, maxInheritedRole: null },
	]);
	const access = run.output('Workspace Access') as Array<{
		email: string;
		access: string;
		maxInheritedRole: unknown;
	}>;
	expect(access.find((u) => u.email === 'partner@example.com')).toMatchObject({
		access: 'viewers',
		maxInheritedRole: null,
	});

	const deleteRun = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{ resource: 'workspace', operation: 'delete', workspace: rl('id', String(created.id)) },
				cred,
				{
					name: 'Delete Workspace',
				},
			),
		]),
	);
	expect(deleteRun.status).toBe('success');
	expect(deleteRun.output('Delete Workspace')).toEqual([{ deleted: true }]);
	expect(emu.log.filter((e) => e.method === 'DELETE').map((e) => e.path)).toEqual([
		`/o/demo/api/workspaces/${created.id}`,
	]);
});

test('document: create → update → move → share → delete', async () => {
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'document',
					operation: 'create',
					workspace: rl('id', String(demo.workspaceId)),
					name: 'E2E doc',
					options: { isPinned: false },
				},
				cred,
				{ name: 'Create Doc' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'update',
					document: rl('id', '={{ $json.id }}'),
					updateFields: { name: 'E2E doc v2', isPinned: true },
				},
				cred,
				{ name: 'Update Doc' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'move',
					document: rl('id', '={{ $json.id }}'),
					destinationWorkspace: rl('url', `https://demo.getgrist.com/ws/${demo.workspace2Id}/`),
				},
				cred,
				{ name: 'Move Doc' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'updateAccess',
					document: rl('id', '={{ $json.id }}'),
					users: { user: [{ email: 'client@example.com', role: 'editors' }] },
				},
				cred,
				{ name: 'Share Doc' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'getAll',
					scope: 'workspace',
					workspace: rl('id', String(demo.workspace2Id)),
					returnAll: true,
					filters: { nameContains: 'e2e' },
				},
				cred,
				{ name: 'Find Doc' },
			),
			gristNode(
				{ resource: 'document', operation: 'delete', document: rl('id', '={{ $json.id }}') },
				cred,
				{ name: 'Delete Doc' },
			),
		]),
	);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');
	const [created] = run.output('Create Doc') as Array<{ id: string }>;
	expect(created).toMatchObject({
		name: 'E2E doc',
		isPinned: false,
		workspace: { id: demo.workspaceId },
	});
	expect(run.output('Update Doc')).toEqual([
		expect.objectContaining({ id: created.id, name: 'E2E doc v2', isPinned: true }),
	]);
	expect(run.output('Move Doc')).toEqual([
		expect.objectContaining({
			id: created.id,
			workspace: expect.objectContaining({ id: demo.workspace2Id }),
		}),
	]);
	expect(run.output('Share Doc')).toEqual([
		{ updated: true, users: { 'client@example.com': 'editors' } },
	]);
	// the workspace's name as the server has it (a real Grist's carries the run's prefix)
	const projects = await fetch(`${emu.url}/api/workspaces/${demo.workspace2Id}`, {
		headers: { Authorization: `Bearer ${demo.apiKey}` },
	});
	const projectsName = ((await projects.json()) as { name: string }).name;
	expect(projectsName).toMatch(/(^| )Projects$/);
	expect(run.output('Find Doc')).toEqual([
		expect.objectContaining({
			id: created.id,
			workspace: { id: demo.workspace2Id, name: projectsName },
		}),
	]);
	expect(run.output('Delete Doc')).toEqual([{ deleted: true }]);
});

test('document exports: workbook and CSV into binary properties', async () => {
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'document',
					operation: 'exportTable',
					document: rl('url', `https://demo.getgrist.com/${demo.docId}/CRM`),
					table: rl('id', 'Customers'),
				},
				cred,
				{ name: 'CSV' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'exportWorkbook',
					document: rl('id', demo.docId),
					tables: 'all',
					binaryPropertyName: 'workbook',
					options: { header: 'colId' },
				},
				cred,
				{ name: 'XLSX' },
			),
		]),
	);
	expect(run.error).toBeUndefined();
	expect(run.output('CSV')).toEqual([
		expect.objectContaining({
			documentId: demo.docId,
			tableId: 'Customers',
			fileName: 'CRM-Customers.csv',
			mimeType: 'text/csv',
		}),
	]);
	const csv = (await run.binary('CSV', 0, 'data')).toString('utf8');
	expect(csv.split(/\r?\n/)[0]).toBe('Name,Email,Country,Since');
	expect(run.items('XLSX')[0].binary?.workbook).toMatchObject({
		fileName: 'CRM.xlsx',
		mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	});
	expect((await run.binary('XLSX', 0, 'workbook')).subarray(0, 2).toString('latin1')).toBe('PK');
});

test("bad input: moving a document to its own workspace fails with Grist's message and a hint", async () => {
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'document',
					operation: 'move',
					document: rl('id', demo.docId),
					destinationWorkspace: rl('id', String(demo.workspaceId)),
				},
				cred,
			),
		]),
	);
	expect(run.status).toBe('error');
	expect(run.error?.message).toBe('Bad request: doc is already in destination workspace');
	expect(run.error?.description).toContain('is the workspace the document is already in');
});

test('service account: create → share a document → its key in a credential reads it → revoke → delete', async () => {
	const label = workspaceName('e2e reader');
	const made = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'serviceAccount',
					operation: 'create',
					label,
					expiresAt: '2099-12-31T00:00:00Z',
					additionalFields: { description: 'reads the CRM' },
				},
				cred,
				{ name: 'Create Account' },
			),
			gristNode(
				{
					resource: 'document',
					operation: 'updateAccess',
					document: rl('id', demo.docId),
					users: { user: [{ email: '={{ $json.login }}', role: 'viewers' }] },
				},
				cred,
				{ name: 'Share Doc' },
			),
		]),
	);
	expect(made.error).toBeUndefined();
	const [account] = made.output('Create Account') as Array<{
		id: number;
		login: string;
		key: string;
	}>;
	expect(account).toMatchObject({ label, description: 'reads the CRM', hasValidKey: true });
	expect(account.key).toMatch(/^[0-9a-f]{40}$/);
	// the key is in the output the user asked for, never in n8n's log
	expect(n8n.logs()).not.toContain(account.key);

	const keyCred = await n8n.createCredential({
		name: 'Grist service account',
		type: 'gristRecordsApi',
		data: { apiKey: account.key, url: `${emu.url}/o/${demo.orgDomain}` },
	});
	expect(await n8n.testCredential(keyCred.id)).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	const read = manualWorkflow([
		gristNode(
			{
				resource: 'record',
				operation: 'getAll',
				document: rl('id', demo.docId),
				table: rl('id', 'Customers'),
				returnAll: true,
			},
			keyCred,
			{ name: 'Read As Account' },
		),
	]);
	const allowed = await n8n.runWorkflow(read);
	expect(allowed.error).toBeUndefined();
	expect((allowed.output('Read As Account') as unknown[]).length).toBeGreaterThan(0);

	const revoked = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'serviceAccount',
					operation: 'revokeKey',
					serviceAccount: rl('id', String(account.id)),
				},
				cred,
				{ name: 'Revoke Key' },
			),
		]),
	);
	expect(revoked.output('Revoke Key')).toEqual([
		expect.objectContaining({ id: account.id, hasValidKey: false }),
	]);
	const refused = await n8n.runWorkflow(read);
	expect(refused.status).toBe('error');
	expect(refused.error?.message).toBe('Bad request: invalid API key');
	expect(JSON.stringify(refused.raw)).not.toContain(account.key);

	const gone = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'serviceAccount',
					operation: 'delete',
					serviceAccount: rl('id', String(account.id)),
				},
				cred,
				{ name: 'Delete Account' },
			),
			gristNode({ resource: 'serviceAccount', operation: 'getAll', returnAll: true }, cred, {
				name: 'List Accounts',
			}),
		]),
	);
	expect(gone.error).toBeUndefined();
	expect(gone.output('Delete Account')).toEqual([{ id: account.id, deleted: true }]);
	const left = gone.output('List Accounts') as Array<{ id?: number }>;
	expect(left.some((a) => a.id === account.id)).toBe(false);
	expect(n8n.logs()).not.toContain(account.key);
});

test('org usage; document formula timing: start → get → a write → stop, one item per formula column', async () => {
	const doc = rl('id', demo.docId);
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode({ resource: 'org', operation: 'getUsage', org: rl('list', '') }, cred, {
				name: 'Usage',
			}),
			gristNode({ resource: 'document', operation: 'startTiming', document: doc }, cred, {
				name: 'Start Timing',
			}),
			gristNode({ resource: 'document', operation: 'getTiming', document: doc }, cred, {
				name: 'Get Timing',
			}),
			gristNode(
				{
					resource: 'record',
					operation: 'update',
					document: doc,
					table: rl('id', 'Orders'),
					rowId: '1',
					columns: mapper({ Amount: 99 }),
				},
				cred,
				{ name: 'Write' },
			),
			gristNode({ resource: 'document', operation: 'stopTiming', document: doc }, cred, {
				name: 'Stop Timing',
			}),
		]),
	);
	expect(run.error).toBeUndefined();
	expect(run.output('Usage')).toEqual([
		{
			countsByDataLimitStatus: { approachingLimit: 0, gracePeriod: 0, deleteOnly: 0 },
			attachments: { totalBytes: expect.any(Number) },
		},
	]);
	expect(run.output('Start Timing')).toEqual([{ documentId: demo.docId, status: 'active' }]);
	expect(run.output('Get Timing')).toEqual([{ documentId: demo.docId, status: 'active' }]);
	const stopped = run.output('Stop Timing') as Array<Record<string, unknown>>;
	expect(stopped.find((t) => t.colId === 'Total')).toEqual({
		documentId: demo.docId,
		status: 'stopped',
		tableId: 'Orders',
		colId: 'Total',
		count: expect.any(Number),
		totalMs: expect.any(Number),
		averageMs: expect.any(Number),
		maxMs: expect.any(Number),
	});
	const totals = stopped.map((t) => t.totalMs as number);
	expect(totals).toEqual([...totals].sort((a, b) => b - a));
});
