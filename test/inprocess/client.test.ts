/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: a loopback web server that is not Grist; HTTP_PROXY for the "Domain not recognized" host */
/**
 * The Grist client (nodes/Grist/api/client.ts) run for real inside n8n-core against the Grist emulator:
 * retries, error mapping, path encoding, org-key rules and binary answers. A small probe node
 * calls `GristClient` with whatever path segments a test gives it, so these tests exercise the
 * client itself, not an operation built on it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristClient } from '../../nodes/Grist/api/client';
import { buildPath } from '../../nodes/Grist/api/paths';
import { siteOrg } from '../../nodes/Grist/api/orgs';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { runNode } from '../harness/inprocess';
import { HarnessCredentialsHelper } from '../harness/inprocess/credentials';
import { emulatorOnly } from '../harness/target';

/** Calls the client with the parameters of the item: `{ method, parts, qs, body, binary, siteOrg }`. */
class GristProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Grist Probe',
		name: 'gristProbe',
		icon: 'file:grist.svg',
		group: ['transform'],
		version: 1,
		description: 'Test probe for the Grist client',
		defaults: { name: 'Grist Probe' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gristRecordsApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const client = await GristClient.create(this);
		const out: INodeExecutionData[] = [];
		for (const [i, item] of this.getInputData().entries()) {
			const p = item.json as {
				method?: string;
				parts?: Array<string | number>;
				qs?: IDataObject;
				body?: unknown;
				binary?: boolean;
				siteOrg?: boolean;
			};
			if (p.siteOrg) {
				out.push({ json: { org: await siteOrg(client) }, pairedItem: { item: i } });
				continue;
			}
			const req = {
				method: (p.method ?? 'GET') as 'GET',
				path: buildPath(
					client,
					...(p.parts ?? []).map((value) => ({ value, label: 'probe segment' })),
				),
				qs: p.qs,
				body: p.body,
				what: 'the probe target',
				itemIndex: i,
			};
			if (p.binary) {
				const file = await client.binary(req);
				out.push({
					json: {
						fileName: file.fileName,
						mimeType: file.mimeType,
						base64: file.body.toString('base64'),
					},
					pairedItem: { item: i },
				});
			} else {
				out.push({
					json: { body: (await client.request(req)) as IDataObject },
					pairedItem: { item: i },
				});
			}
		}
		return [out];
	}
}

let emulator: GristEmulator;
let demo: DemoSite;

beforeAll(async () => {
	emulator = await startEmulator();
	demo = emulator.seedDemo();
});
afterAll(async () => await emulator.close());
beforeEach(() => {
	emulator.clearFaults();
	emulator.clearLog();
});

const probe = async (input: IDataObject[], serverUrl = emulator.url, apiKey = demo.apiKey) =>
	await runNode({
		node: new GristProbe(),
		parameters: {},
		credentials: { apiKey, url: serverUrl },
		input: input.map((json) => ({ json })),
	});

const tablesPath = () => `/api/docs/${demo.docId}/tables`;

describe('retries', () => {
	it('repeats a GET after two 429 answers and returns the third answer', async () => {
		emulator.fault({ path: tablesPath(), status: 429, times: 2 });
		const res = await probe([{ parts: ['docs', demo.docId, 'tables'] }]);
		expect(res.error).toBeUndefined();
		expect((res.items[0].json.body as { tables: unknown[] }).tables.length).toBeGreaterThan(0);
		expect(emulator.log.map((e) => e.status)).toEqual([429, 429, 200]);
	});

	it('repeats a write after 503 "Document in flux" (Grist applied nothing)', async () => {
		emulator.fault({
			method: 'POST',
			path: `${tablesPath()}/Customers/records`,
			status: 503,
			times: 1,
		});
		const before = emulator.records(demo.docId, 'Customers').length;
		const res = await probe([
			{
				method: 'POST',
				parts: ['docs', demo.docId, 'tables', 'Customers', 'records'],
				body: { records: [{ fields: {} }] },
			},
		]);
		expect(res.error).toBeUndefined();
		expect(emulator.log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 503', 'POST 200']);
		expect(emulator.records(demo.docId, 'Customers').length).toBe(before + 1);
	});

	it("gives up after the retry budget with Grist's message and says how often it tried", async () => {
		emulator.fault({ path: tablesPath(), status: 503, times: 20 });
		const res = await probe([{ parts: ['docs', demo.docId, 'tables'] }]);
		expect(res.error?.message).toBe('Document in flux - try again later');
		expect(res.error?.description).toMatch(/busy or reloading.*Tried 6 times/);
		expect(emulator.log).toHaveLength(6);
	}, 60000);

	it('repeats a read whose connection dropped', async () => {
		emulator.fault({ path: tablesPath(), drop: true, times: 1 });
		const res = await probe([{ parts: ['docs', demo.docId, 'tables'] }]);
		expect(res.error).toBeUndefined();
		expect(emulator.log.filter((e) => e.apiPath === tablesPath())).toHaveLength(2);
	});

	it('never repeats a write whose connection dropped, and says so', async () => {
		emulator.fault({
			method: 'POST',
			path: `${tablesPath()}/Customers/records`,
			drop: true,
			times: 1,
		});
		const res = await probe([
			{
				method: 'POST',
				parts: ['docs', demo.docId, 'tables', 'Customers', 'records'],
				body: { records: [{ fields: {} }] },
			},
		]);
		expect(res.error?.message).toMatch(
			/^The connection to the Grist server at .* broke after the request was sent \(ECONNRESET: socket hang up\): the write may or may not have been applied$/,
		);
		expect(res.error?.description).toMatch(/uncertain.*not repeated.*whether it was applied/);
		expect(emulator.log.filter((e) => e.method === 'POST')).toHaveLength(1);
	});

	it('does not repeat other errors', async () => {
		const res = await probe([{ parts: ['docs', demo.docId, 'tables', 'NoSuchTable', 'records'] }]);
		expect(res.error?.message).toBe('Table not found "NoSuchTable"');
		expect(res.error?.httpCode).toBe('404');
		expect(emulator.log).toHaveLength(1);
	});
});

describe('the API key credential', () => {
	it('is read and decrypted once per run, then handed to every request', async () => {
		const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
		try {
			const parts = ['docs', demo.docId, 'tables'];
			const res = await probe([{ parts }, { parts }, { parts }, { parts }]);
			expect(res.error).toBeUndefined();
			expect(res.items).toHaveLength(4);
			expect(emulator.log.map((e) => [e.status, e.hasAuthorization])).toEqual(
				Array.from({ length: 4 }, () => [200, true]),
			);
			expect(reads.mock.calls.filter((c) => c[2] === 'gristRecordsApi')).toHaveLength(1);
		} finally {
			reads.mockRestore();
		}
	});
});

describe('error mapping', () => {
	it("401: Grist's text, a hint about the key, and never the key itself", async () => {
		const wrong = `wrong-${'x'.repeat(24)}`;
		const res = await probe([{ parts: ['orgs'] }], emulator.url, wrong);
		expect(res.error?.message).toBe('Bad request: invalid API key');
		expect(res.error?.description).toMatch(/Account settings → Developer → API Key/);
		expect(res.error?.httpCode).toBe('401');
		expect(JSON.stringify(res.run)).not.toContain(wrong);
		expect(emulator.log[0].hasAuthorization).toBe(true);
	});

	it('403: names the role needed', async () => {
		const viewer = emulator.addUser({ email: 'viewer@example.com' });
		emulator.setAccess('doc', demo.docId, viewer.email, 'viewers');
		const res = await probe(
			[
				{
					method: 'POST',
					parts: ['docs', demo.docId, 'tables', 'Customers', 'records'],
					body: { records: [{ fields: {} }] },
				},
			],
			emulator.url,
			viewer.apiKey,
		);
		expect(res.error?.message).toBe('No write access');
		// named from the request path (roles are set on the document), not from the caller's `what`
		expect(res.error?.description).toBe(
			`The user of this API key needs the Editor or Owner role on document "${demo.docId}". Ask an owner to share it with that role.`,
		);
		expect(JSON.stringify(res.run)).not.toContain(viewer.apiKey);
	});

	it('413: a body over 1 MB is explained', async () => {
		const big = 'x'.repeat(1024 * 1024 + 10);
		const res = await probe([
			{
				method: 'POST',
				parts: ['docs', demo.docId, 'tables', 'Customers', 'records'],
				body: { records: [{ fields: { Name: big } }] },
			},
		]);
		expect(res.error?.message).toBe('Request entity too large');
		expect(res.error?.description).toMatch(/1 MB/);
	});

	it('a host that is not Grist gives a clear error', async () => {
		const res = await probe([{ parts: ['orgs', 'current'] }], `${emulator.url}/o/nosuchteam`);
		expect(res.error?.httpCode).toBe('404');
		expect(res.error?.description).toMatch(/not found|Server URL/);
	});
});

describe('path encoding', () => {
	it.each(['a/b', 'x?y=1', 'x#y', '100%', 'a b'])('keeps %p inside one segment', async (docId) => {
		const res = await probe([{ parts: ['docs', docId, 'tables'] }]);
		expect(res.error?.message).toBe('Document not found');
		expect(emulator.log).toHaveLength(1);
		expect(emulator.log[0].path).toBe(`/api/docs/${encodeURIComponent(docId)}/tables`);
	});

	it.each(['..', '.', '%2e%2e', ''])('refuses %p before any request', async (docId) => {
		const res = await probe([{ parts: ['docs', docId, 'tables'] }]);
		expect(res.error?.name).toBe('NodeOperationError');
		expect(res.error?.message).toMatch(/probe segment/);
		expect(emulator.log).toHaveLength(0);
	});
});

describe('org key', () => {
	it('uses the /o/<team> of the Server URL', async () => {
		const res = await probe([{ siteOrg: true }], `${emulator.url}/o/${demo.orgDomain}`);
		expect(res.items[0].json.org).toBe(demo.orgDomain);
		expect(emulator.log).toHaveLength(0);
	});

	emulatorOnly(
		'a user with a team site of its own besides the personal site (addOrg with an owner): a real key’s sites are its own',
	).it(
		'on a self-hosted URL without a team, never sends "current": asks to pick among the orgs',
		async () => {
			// Every user has a personal site besides the team sites, as on a real server.
			const user = emulator.addUser({ email: 'two-orgs@example.com' });
			emulator.addOrg({ name: 'One', domain: 'one', owner: user.email });
			const res = await probe([{ siteOrg: true }], emulator.url, user.apiKey);
			expect(res.error?.name).toBe('NodeOperationError');
			expect(res.error?.description).toMatch(/\/o\/TEAM/);
			expect(emulator.log.map((e) => e.apiPath)).toEqual(['/api/orgs']);
		},
	);
});

describe('binary answers', () => {
	it('keeps every byte of a file', async () => {
		const data = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256));
		const id = emulator.addAttachment(demo.docId, { fileName: 'bytes.bin', data });
		const res = await probe([
			{ parts: ['docs', demo.docId, 'attachments', id, 'download'], binary: true },
		]);
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.fileName).toBe('bytes.bin');
		expect(Buffer.from(res.items[0].json.base64 as string, 'base64').equals(data)).toBe(true);
	});
});

describe('through the Grist node', () => {
	it('org getAll lists the organizations of the key', async () => {
		const res = await runNode({
			node: new Grist(),
			parameters: { resource: 'org', operation: 'getAll', returnAll: true },
			credentials: { apiKey: demo.apiKey, url: emulator.url },
		});
		expect(res.error).toBeUndefined();
		expect(res.items.map((i) => i.json.id)).toContain(demo.orgId);
		expect(res.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(emulator.log.map((e) => `${e.method} ${e.apiPath}`)).toEqual(['GET /api/orgs']);
	});

	const orgGetAllWith = async (credentials: { apiKey: string; url: string }) =>
		await runNode({
			node: new Grist(),
			parameters: { resource: 'org', operation: 'getAll', returnAll: true },
			credentials,
		});

	it('an empty API key is refused before any request, saying where to get one', async () => {
		const res = await orgGetAllWith({ apiKey: '  ', url: emulator.url });
		expect(res.error?.name).toBe('NodeOperationError');
		expect(res.error?.message).toBe(
			'The API Key of the Grist credential is empty. Paste the key from Account settings → Developer → API Key in Grist.',
		);
		expect(emulator.log).toHaveLength(0);
	});

	it.each([
		['ftp://grist.example.com', /^The Server URL must start with https:\/\//],
		[
			'https://grist example.com',
			/^The Server URL "https:\/\/grist example.com" is not a valid URL\. Use your site address/,
		],
		['not a url', /^The Server URL "not a url" is not a valid URL/],
	])(
		'a malformed Server URL %p is refused before any request, saying what to change',
		async (url, message) => {
			const res = await orgGetAllWith({ apiKey: demo.apiKey, url });
			expect(res.error?.name).toBe('NodeOperationError');
			expect(res.error?.message).toMatch(message);
			expect(res.error?.description).toBe('Fix the Server URL field of the Grist credential.');
			expect(emulator.log).toHaveLength(0);
		},
	);
});

describe('a Server URL that is not a Grist API', () => {
	let web: Server;
	let webUrl: string;
	let webStatus = 404;
	beforeAll(async () => {
		// A web server that is not Grist: a 404 page, or (a single-page site) a page for every path.
		web = createServer((_req, res) => {
			res.writeHead(webStatus, { 'content-type': 'text/html' });
			res.end(
				`<!doctype html><html><body>${webStatus === 200 ? 'Welcome' : 'Not Found'}</body></html>`,
			);
		});
		await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
		webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((r) => web.close(r)));

	const orgGetAll = async (url: string) =>
		await runNode({
			node: new Grist(),
			parameters: { resource: 'org', operation: 'getAll', returnAll: true },
			credentials: { apiKey: demo.apiKey, url },
		});

	it.each([
		['a 404 page', 404],
		['a page for every path (HTTP 200)', 200],
	])('%s: says the server is not Grist and to check the Server URL', async (_what, status) => {
		webStatus = status;
		const res = await orgGetAll(webUrl);
		expect(res.error?.message).toBe(
			`The server at ${webUrl} did not answer like Grist (HTTP ${status})`,
		);
		expect(res.error?.description).toMatch(/^Check the Server URL of the Grist credential/);
		expect(JSON.stringify(res.error)).not.toContain(demo.apiKey);
		expect(res.items).toEqual([]);
	});

	describe('a self-hosted server that does not know the host name ("Domain not recognized")', () => {
		const saved: Record<string, string | undefined> = {};
		const keys = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
		beforeAll(() => {
			for (const k of keys) saved[k] = process.env[k];
			process.env.HTTP_PROXY = process.env.http_proxy = emulator.url;
			process.env.NO_PROXY = process.env.no_proxy = '127.0.0.1,localhost';
		});
		afterAll(() => {
			for (const k of keys) {
				if (saved[k] === undefined) delete process.env[k];
				else process.env[k] = saved[k];
			}
		});

		it("keeps Grist's message and says what to change on the server or in the URL", async () => {
			// http://grist:8484: a Docker-internal name, the classic cause.
			const res = await orgGetAll('http://grist:8484');
			expect(res.error?.message).toBe('Domain not recognized: grist');
			expect(res.error?.httpCode).toBe('404');
			expect(res.error?.description).toMatch(
				/public URL of your Grist server.*APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG/,
			);
			expect(emulator.log.map((e) => [e.host, e.apiPath, e.status])).toEqual([
				['grist:8484', '/api/orgs', 404],
			]);
		});
	});
});
