/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: sets HTTP_PROXY/NO_PROXY for the team-host case */
/**
 * "From list" pickers (methods/listSearch.ts) called with a real LoadOptionsContext against the
 * emulator: personal site, `/o/<team>`, self-hosted without a team, and a team host
 * (`http://demo.getgrist.com`) reached through HTTP_PROXY = the emulator.
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { useDemoSite } from '../harness/demo-site';
import { loadOptions } from '../harness/inprocess';
import { emulatorOnly, workspaceName } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
let site: string;
beforeAll(() => ({ emu, demo, site } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.host} ${e.path}`);

interface ListResult {
	results: Array<{ name: string; value: string; url?: string }>;
}

async function search(
	method: string,
	parameters: Record<string, unknown>,
	opts: { filter?: string; serverUrl?: string; apiKey?: string } = {},
): Promise<ListResult> {
	return (await loadOptions({
		node: new Grist(),
		kind: 'listSearch',
		method,
		parameters: parameters as never,
		filter: opts.filter,
		credentials: { apiKey: opts.apiKey ?? demo.apiKey, url: opts.serverUrl ?? site },
	})) as ListResult;
}

describe('searchOrgs', () => {
	emulatorOnly(
		'the key’s sites are the emulator’s demo team and personal site; a real key has its own',
	).it('lists the orgs of the key, searchable by name or domain', async () => {
		const all = await search('searchOrgs', { resource: 'org', operation: 'get' });
		expect(all.results.map((r) => r.name).sort()).toEqual([
			'Demo Team (demo)',
			`Personal (docs-${demo.userId})`,
		]);
		expect(requests()).toEqual([`GET 127.0.0.1:${emu.port} /o/demo/api/orgs`]);
		const team = await search(
			'searchOrgs',
			{ resource: 'org', operation: 'get' },
			{ filter: 'DEMO' },
		);
		expect(team.results).toEqual([
			{ name: 'Demo Team (demo)', value: String(demo.orgId), url: `${emu.url}/o/demo` },
		]);
	});
});

describe('searchWorkspaces', () => {
	emulatorOnly(
		'the emulator’s demo team site holds the two demo workspaces only; a real key’s site (GRIST_ORG) holds others (Home, other runs’) under its own domain',
	).it("on an /o/<team> Server URL lists that team's workspaces", async () => {
		const res = await search('searchWorkspaces', { resource: 'workspace', operation: 'get' });
		expect(res.results).toEqual([
			// Grist lists an org's workspaces by name
			{
				name: 'Projects',
				value: String(demo.workspace2Id),
				url: `${emu.url}/o/demo/ws/${demo.workspace2Id}/`,
			},
			{
				name: 'Sales',
				value: String(demo.workspaceId),
				url: `${emu.url}/o/demo/ws/${demo.workspaceId}/`,
			},
		]);
		expect(requests()).toEqual([`GET 127.0.0.1:${emu.port} /o/demo/api/orgs/demo/workspaces`]);
	});

	emulatorOnly(
		'the emulator’s demo team site holds the two demo workspaces only; a real key’s site (GRIST_ORG) holds others (Home, other runs’) under its own domain',
	).it('uses the picked organization (By URL) and filters by name', async () => {
		const res = await search(
			'searchWorkspaces',
			{
				resource: 'workspace',
				operation: 'create',
				org: rl('url', 'https://grist.example.com/o/demo'),
			},
			{ filter: 'proj', serverUrl: emu.url },
		);
		expect(res.results.map((r) => r.name)).toEqual(['Projects']);
		expect(requests()).toEqual([`GET 127.0.0.1:${emu.port} /api/orgs/demo/workspaces`]);
	});

	emulatorOnly(
		'the emulator’s demo team site holds the two demo workspaces only; a real key’s site (GRIST_ORG) holds others (Home, other runs’) under its own domain',
	).it(
		'self-hosted without /o/: every org the key can see, names qualified by the org',
		async () => {
			const res = await search(
				'searchWorkspaces',
				{ resource: 'workspace', operation: 'get' },
				{ serverUrl: emu.url },
			);
			expect(res.results.map((r) => r.name).sort()).toEqual([
				`Home (docs-${demo.userId})`,
				'Projects (demo)',
				'Sales (demo)',
			]);
			expect(requests()[0]).toBe(`GET 127.0.0.1:${emu.port} /api/orgs`);
		},
	);
});

describe('searchDocuments', () => {
	it('lists documents of the site with their workspace, searchable', async () => {
		const res = await search(
			'searchDocuments',
			{ resource: 'document', operation: 'get' },
			{ filter: 'crm' },
		);
		// the link uses the document's urlId (Grist gives a new document the first 12 characters of
		// its id), as Grist's own document links do
		const urlId = demo.docId.slice(0, 12);
		expect(res.results).toEqual([
			{
				name: `CRM (${workspaceName('Sales')})`,
				value: demo.docId,
				url: `${emu.url}/o/demo/doc/${urlId}`,
			},
		]);
	});

	it('lists the documents of the picked workspace only', async () => {
		const res = await search('searchDocuments', {
			resource: 'document',
			operation: 'create',
			workspace: rl('id', String(demo.workspace2Id)),
		});
		expect(res.results.map((r) => r.name)).toEqual(['Tasks']);
		expect(requests()).toEqual([
			`GET 127.0.0.1:${emu.port} /o/demo/api/workspaces/${demo.workspace2Id}`,
		]);
	});
});

describe('searchTables', () => {
	it('lists the tables of the picked document (By URL)', async () => {
		const res = await search('searchTables', {
			resource: 'document',
			operation: 'exportTable',
			document: rl('url', `https://demo.getgrist.com/${demo.docId}/CRM`),
		});
		expect(res.results.map((r) => r.value)).toEqual(['Customers', 'Orders']);
	});

	it('no document yet: an empty list without a request', async () => {
		const res = await search('searchTables', {
			resource: 'document',
			operation: 'exportTable',
			document: rl('list', ''),
		});
		expect(res.results).toEqual([]);
		expect(emu.log).toHaveLength(0);
	});
});

emulatorOnly(
	'team hosts (demo.getgrist.com, docs.getgrist.com) are the emulator’s: a self-hosted server answers "Domain not recognized"',
).describe('team host through a proxy', () => {
	const saved: Record<string, string | undefined> = {};
	const keys = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
	beforeAll(() => {
		for (const k of keys) saved[k] = process.env[k];
		process.env.HTTP_PROXY = emu.url;
		process.env.http_proxy = emu.url;
		process.env.NO_PROXY = '127.0.0.1,localhost';
		process.env.no_proxy = '127.0.0.1,localhost';
	});
	afterAll(() => {
		for (const k of keys) {
			if (saved[k] === undefined) delete process.env[k];
			else process.env[k] = saved[k];
		}
	});

	it("http://demo.getgrist.com lists the team's workspaces via /api/orgs/current", async () => {
		const res = await search(
			'searchWorkspaces',
			{ resource: 'workspace', operation: 'get' },
			{
				serverUrl: 'http://demo.getgrist.com',
			},
		);
		expect(res.results.map((r) => [r.name, r.url])).toEqual([
			['Projects', `https://demo.getgrist.com/ws/${demo.workspace2Id}/`],
			['Sales', `https://demo.getgrist.com/ws/${demo.workspaceId}/`],
		]);
		expect(requests()).toEqual(['GET demo.getgrist.com /api/orgs/current/workspaces']);
	});

	it('http://docs.getgrist.com (personal site) lists the personal documents', async () => {
		const personal = emu.addDoc(
			(
				await search(
					'searchWorkspaces',
					{ resource: 'workspace', operation: 'get' },
					{ serverUrl: 'http://docs.getgrist.com' },
				)
			).results.map((r) => Number(r.value))[0],
			{ name: 'My notes' },
		);
		emu.clearLog();
		const res = await search(
			'searchDocuments',
			{ resource: 'document', operation: 'get' },
			{
				serverUrl: 'http://docs.getgrist.com',
			},
		);
		expect(res.results.map((r) => r.value)).toEqual([personal.id]);
		expect(requests()).toEqual(['GET docs.getgrist.com /api/orgs/current/workspaces']);
	});
});

describe('Ready Column and Watched Columns pickers', () => {
	const tasks = () => ({ document: rl('id', demo.doc2Id), table: rl('id', 'Tasks') });
	const options = async (node: Grist | GristWebhookTrigger, method: string, params: object) =>
		(await loadOptions({
			node,
			kind: 'loadOptions',
			method,
			parameters: params as never,
			credentials: { apiKey: demo.apiKey, url: site },
		})) as Array<{ name: string; value: string; description: string }>;

	it('list the same columns in the Webhook resource and in the Instant Trigger', async () => {
		const resource = { resource: 'webhook', operation: 'create', ...tasks() };
		const ready = await options(new Grist(), 'getToggleColumns', resource);
		expect(ready).toEqual([{ name: 'Done', value: 'Done', description: 'Bool' }]);
		const watched = await options(new Grist(), 'getWatchColumns', resource);
		expect(watched.map((o) => o.value)).toEqual(['Title', 'Done', 'Due', 'Points', 'UpdatedAt']);

		const trigger = { event: 'add', ...tasks() };
		expect(await options(new GristWebhookTrigger(), 'getReadyColumns', trigger)).toEqual(ready);
		expect(await options(new GristWebhookTrigger(), 'getWatchableColumns', trigger)).toEqual(
			watched,
		);
	});

	it('list nothing before a table is picked', async () => {
		const noTable = { resource: 'webhook', operation: 'create', document: rl('id', demo.doc2Id) };
		expect(await options(new Grist(), 'getToggleColumns', noTable)).toEqual([]);
		expect(
			await options(new GristWebhookTrigger(), 'getReadyColumns', {
				document: rl('id', demo.doc2Id),
			}),
		).toEqual([]);
	});
});
