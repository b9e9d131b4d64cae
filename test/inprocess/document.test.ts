/**
 * Document operations run through n8n-core (test harness level b) against the emulator.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { workspaceName } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const run = resourceRunner(fx, 'document');

describe('document create', () => {
	it('creates a pinned document in a workspace and returns it', async () => {
		const { items, error } = await run({
			operation: 'create',
			workspace: rl('id', String(demo.workspace2Id)),
			name: 'Roadmap',
			options: { isPinned: true },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const doc = items[0].json;
		expect(doc).toMatchObject({
			name: 'Roadmap',
			isPinned: true,
			workspace: { id: demo.workspace2Id },
		});
		expect(String(doc.id)).toHaveLength(22);
		expect(requests()).toEqual([
			`POST /o/demo/api/workspaces/${demo.workspace2Id}/docs`,
			`GET /o/demo/api/docs/${doc.id}`,
		]);
		expect(emu.log[0].body).toEqual({ name: 'Roadmap', isPinned: true });
	});

	it("a viewer cannot create: Grist's message", async () => {
		const { error } = await run(
			{ operation: 'create', workspace: rl('id', String(demo.workspaceId)), name: 'X' },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
		expect(requests()).toEqual([`POST /o/demo/api/workspaces/${demo.workspaceId}/docs`]);
	});

	it('a non-integer workspace ID is refused before the request', async () => {
		const { error } = await run({
			operation: 'create',
			workspace: rl('id', '={{ "Sales" }}'),
			name: 'X',
		});
		expect(error?.message).toBe('The Workspace ID "Sales" is not a whole number');
		expect(emu.log).toHaveLength(0);
	});
});

describe('document getAll', () => {
	it('lists the documents of a workspace', async () => {
		const { items, error } = await run({
			operation: 'getAll',
			scope: 'workspace',
			workspace: rl('id', String(demo.workspaceId)),
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual([demo.docId]);
		expect(items[0].json.workspace).toEqual({
			id: demo.workspaceId,
			name: workspaceName('Sales'),
		});
		expect(requests()).toEqual([`GET /o/demo/api/workspaces/${demo.workspaceId}`]);
	});

	it('lists the documents of the site, searchable by name, with a limit', async () => {
		emu.addDoc(demo.workspaceId, { name: 'Task archive' });
		const all = await run({
			operation: 'getAll',
			scope: 'org',
			org: rl('list', ''),
			returnAll: true,
		});
		expect(all.error).toBeUndefined();
		expect(all.items.length).toBeGreaterThanOrEqual(3);
		expect(requests()).toEqual(['GET /o/demo/api/orgs/demo/workspaces']);
		const tasks = await run({
			operation: 'getAll',
			scope: 'org',
			org: rl('id', 'demo'),
			returnAll: true,
			filters: { nameContains: 'TASK' },
		});
		// (a real Grist's site may hold other documents: those of this run's workspaces)
		const ours = tasks.items.filter((i) =>
			String((i.json.workspace as { name: string }).name).startsWith(workspaceName('')),
		);
		expect(ours.map((i) => i.json.name).sort()).toEqual(['Task archive', 'Tasks']);
		const limited = await run({
			operation: 'getAll',
			scope: 'org',
			org: rl('id', 'demo'),
			returnAll: false,
			limit: 1,
			filters: { nameContains: 'task' },
		});
		expect(limited.items).toHaveLength(1);
		expect(limited.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('document get', () => {
	it.each([
		['a docs.getgrist.com URL', (id: string) => `https://docs.getgrist.com/${id}/CRM`],
		['a team URL', (id: string) => `https://demo.getgrist.com/${id}/CRM/p/2`],
		['an /o/<team>/doc URL', (id: string) => `https://grist.example.com/o/demo/doc/${id}`],
	])('gets a document from %s', async (_label, url) => {
		const { items, error } = await run({ operation: 'get', document: rl('url', url(demo.docId)) });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: demo.docId,
			name: 'CRM',
			workspace: { id: demo.workspaceId },
		});
		expect(requests()).toEqual([`GET /o/demo/api/docs/${demo.docId}`]);
	});

	it("an unknown document gives Grist's message", async () => {
		const { error } = await run({ operation: 'get', document: rl('id', 'NoSuchDocumentId12345') });
		expect(error?.message).toBe('Document not found');
		expect(error?.httpCode).toBe('404');
	});
});

describe('document update', () => {
	it('renames and pins, returns the document', async () => {
		const doc = emu.addDoc(demo.workspaceId, { name: 'Draft' });
		const { items, error } = await run({
			operation: 'update',
			document: rl('id', doc.id),
			updateFields: { name: 'Final', isPinned: true },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: doc.id, name: 'Final', isPinned: true });
		expect(requests()).toEqual([
			`PATCH /o/demo/api/docs/${doc.id}`,
			`GET /o/demo/api/docs/${doc.id}`,
		]);
		expect(emu.log[0].body).toEqual({ name: 'Final', isPinned: true });
	});

	it('nothing to update is refused before the request', async () => {
		const { error } = await run({
			operation: 'update',
			document: rl('id', demo.docId),
			updateFields: {},
		});
		expect(error?.message).toBe('No field to update was given');
		expect(emu.log).toHaveLength(0);
	});

	it("a viewer trying to rename gets Grist's message and a hint", async () => {
		const { error } = await run(
			{ operation: 'update', document: rl('id', demo.docId), updateFields: { name: 'Mine' } },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.description).toContain(`document "${demo.docId}"`);
		expect(requests()).toEqual([`PATCH /o/demo/api/docs/${demo.docId}`]);
	});
});

describe('document move', () => {
	it('moves to another workspace and returns the document there', async () => {
		const doc = emu.addDoc(demo.workspaceId, { name: 'Mover' });
		const { items, error } = await run({
			operation: 'move',
			document: rl('id', doc.id),
			destinationWorkspace: rl('id', String(demo.workspace2Id)),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: doc.id,
			workspace: { id: demo.workspace2Id, name: workspaceName('Projects') },
		});
		expect(requests()).toEqual([
			`PATCH /o/demo/api/docs/${doc.id}/move`,
			`GET /o/demo/api/docs/${doc.id}`,
		]);
		expect(emu.log[0].body).toEqual({ workspace: demo.workspace2Id });
	});

	it("moving to the workspace it is in gives Grist's message and names the field", async () => {
		const { error } = await run({
			operation: 'move',
			document: rl('id', demo.docId),
			destinationWorkspace: rl('id', String(demo.workspaceId)),
		});
		expect(error?.message).toBe('Bad request: doc is already in destination workspace');
		expect(error?.description).toBe(
			`The Destination Workspace (${demo.workspaceId}) is the workspace the document is already in. Pick another workspace.`,
		);
	});

	it('a non-integer destination is refused before the request', async () => {
		const { error } = await run({
			operation: 'move',
			document: rl('id', demo.docId),
			destinationWorkspace: rl('id', '={{ "1.5" }}'),
		});
		expect(error?.message).toBe('The Destination Workspace ID "1.5" is not a whole number');
		expect(emu.log).toHaveLength(0);
	});
});

describe('document delete', () => {
	it('deletes and returns { deleted: true }; Continue On Fail reports the second (now missing) one', async () => {
		const doc = emu.addDoc(demo.workspaceId, { name: 'Trash' });
		const { items, error } = await run(
			{ operation: 'delete', document: rl('id', '={{ $json.id }}') },
			{ continueOnFail: true, input: [{ json: { id: doc.id } }, { json: { id: doc.id } }] },
		);
		expect(error).toBeUndefined();
		expect(items[0]).toEqual({ json: { deleted: true }, pairedItem: { item: 0 } });
		expect(items[1].json).toMatchObject({ error: 'Document not found', httpCode: '404' });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(requests()).toEqual([
			`DELETE /o/demo/api/docs/${doc.id}`,
			`DELETE /o/demo/api/docs/${doc.id}`,
		]);
	});

	it('a viewer cannot delete', async () => {
		const { error } = await run(
			{ operation: 'delete', document: rl('id', demo.docId) },
			{ apiKey: demo.viewerApiKey },
		);
		expect(error?.httpCode).toBe('403');
	});
});

describe('document access', () => {
	it('getAccess: one item per user with the ceiling', async () => {
		const doc = emu.addDoc(demo.workspaceId, { name: 'Shared doc' });
		emu.setAccess('doc', doc.id, 'reader@example.com', 'viewers');
		const { items, error } = await run({ operation: 'getAccess', document: rl('id', doc.id) });
		expect(error).toBeUndefined();
		expect(items.find((i) => i.json.email === 'reader@example.com')?.json).toMatchObject({
			access: 'viewers',
			maxInheritedRole: 'owners',
		});
		expect(requests()).toEqual([`GET /o/demo/api/docs/${doc.id}/access`]);
	});

	it('updateAccess: share publicly as viewer, cap inheritance at editors', async () => {
		const doc = emu.addDoc(demo.workspaceId, { name: 'Public' });
		const { items, error } = await run({
			operation: 'updateAccess',
			document: rl('id', doc.id),
			users: { user: [{ email: 'everyone@getgrist.com', role: 'viewers' }] },
			options: { maxInheritedRole: 'editors' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			updated: true,
			users: { 'everyone@getgrist.com': 'viewers' },
			maxInheritedRole: 'editors',
		});
		expect(emu.log[0].body).toEqual({
			delta: { users: { 'everyone@getgrist.com': 'viewers' }, maxInheritedRole: 'editors' },
		});
	});

	it("removing one's own access alone is allowed by Grist", async () => {
		// the site's viewer, an editor of this document (a real Grist's second account). Not an
		// owner: grist-core 1.7.17 refuses any change of one's own access, removal included, to a
		// user who may edit the document's sharing (_failIfPowerfulAndChangingSelf)
		const doc = emu.addDoc(demo.workspaceId, { name: 'Leave me' });
		emu.setAccess('doc', doc.id, demo.viewerEmail, 'editors');
		const { error } = await run(
			{
				operation: 'updateAccess',
				document: rl('id', doc.id),
				users: { user: [{ email: demo.viewerEmail, role: 'remove' }] },
			},
			{ apiKey: demo.viewerApiKey },
		);
		expect(error).toBeUndefined();
		expect(emu.log[0].body).toEqual({ delta: { users: { [demo.viewerEmail]: null } } });
	});

	it('an invalid email is refused before the request', async () => {
		const { error } = await run({
			operation: 'updateAccess',
			document: rl('id', demo.docId),
			users: { user: [{ email: 'a@b', role: 'viewers' }] },
		});
		expect(error?.message).toBe('The Email "a@b" of user 1 is not a valid email address');
		expect(emu.log).toHaveLength(0);
	});
});

describe('document exports', () => {
	it("exportWorkbook: the whole document as xlsx with Grist's file name and MIME type", async () => {
		const result = await run({
			operation: 'exportWorkbook',
			document: rl('id', demo.docId),
			tables: 'all',
		});
		expect(result.error).toBeUndefined();
		const item = result.items[0];
		const mime = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
		expect(item.json).toMatchObject({
			documentId: demo.docId,
			fileName: 'CRM.xlsx',
			mimeType: mime,
		});
		expect(item.binary?.data).toMatchObject({
			fileName: 'CRM.xlsx',
			mimeType: mime,
			fileExtension: 'xlsx',
		});
		const bytes = await result.binary(0, 'data');
		expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
		expect(item.json.fileSize).toBe(bytes.length);
		expect(emu.log[0].path).toBe(`/o/demo/api/docs/${demo.docId}/download/xlsx`);
		expect(emu.log[0].query).toEqual({});
	});

	it('exportWorkbook: one table, column IDs as header, own file name, own binary field', async () => {
		const result = await run({
			operation: 'exportWorkbook',
			document: rl('id', demo.docId),
			tables: 'one',
			table: rl('id', 'Orders'),
			binaryPropertyName: 'sheet',
			options: { header: 'colId', fileName: 'orders.xlsx' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ tableId: 'Orders', fileName: 'orders.xlsx' });
		expect(result.items[0].binary?.sheet?.fileName).toBe('orders.xlsx');
		expect(emu.log[0].query).toEqual({ tableId: 'Orders', header: 'colId', title: 'orders' });
	});

	it('exportTable: csv of one table', async () => {
		const result = await run({
			operation: 'exportTable',
			document: rl('id', demo.docId),
			table: rl('id', 'Customers'),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			fileName: 'CRM-Customers.csv',
			mimeType: 'text/csv',
			tableId: 'Customers',
		});
		const csv = (await result.binary(0, 'data')).toString('utf8');
		const lines = csv.trim().split(/\r?\n/);
		expect(lines[0]).toBe('Name,Email,Country,Since');
		expect(lines).toHaveLength(4);
		expect(lines[1]).toContain('Alice Martin,alice@example.com,France');
		expect(emu.log[0].path).toBe(`/o/demo/api/docs/${demo.docId}/download/csv`);
		expect(emu.log[0].query).toEqual({ tableId: 'Customers' });
	});

	it("exportTable: an unknown table gives Grist's message", async () => {
		const result = await run({
			operation: 'exportTable',
			document: rl('id', demo.docId),
			table: rl('id', 'Nope'),
		});
		expect(result.error?.message).toBe('Table Nope not found.');
		expect(result.error?.httpCode).toBe('404');
	});
});
