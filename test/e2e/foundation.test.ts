/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e test: loopback servers */
/**
 * Real n8n 2.41.1 with the npm-packed package installed as a community package (test level c):
 * the package loads, the credential test works against the emulator and fails clearly otherwise,
 * and a workflow lists the emulator's orgs without the API key leaking anywhere.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	GRIST_REFUSED_MESSAGE,
	INVALID_URL_MESSAGE,
	KEY_MESSAGE,
	NOT_GRIST_MESSAGE,
	NO_TEAM_MESSAGE,
} from '../../credentials/GristRecordsApi.credentials';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { START_TIMEOUT, gristNode, manualWorkflow, startN8n, type N8n } from '../harness/e2e';
import { REPO_ROOT, locateRuntime } from '../harness/e2e/runtime';
import { emulatorOnly } from '../harness/target';

let emulator: GristEmulator;
let n8n: N8n;
let htmlServer: Server;
let htmlUrl: string;
/** Answers every path with 200 and an HTML page (a site's catch-all route, a single-page app). */
let htmlOkServer: Server;
let htmlOkUrl: string;
let apiKey: string;
let demo: DemoSite;

beforeAll(async () => {
	emulator = await startEmulator();
	demo = emulator.seedDemo();
	apiKey = demo.apiKey;
	htmlServer = createServer((_req, res) => {
		res.writeHead(404, { 'content-type': 'text/html' });
		res.end('<!doctype html><html><body><h1>Not Found</h1></body></html>');
	});
	await new Promise<void>((r) => htmlServer.listen(0, '127.0.0.1', () => r()));
	htmlUrl = `http://127.0.0.1:${(htmlServer.address() as AddressInfo).port}`;
	htmlOkServer = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(
			'<!DOCTYPE html><html><head><title>Welcome</title></head><body><div id="app"></div></body></html>',
		);
	});
	await new Promise<void>((r) => htmlOkServer.listen(0, '127.0.0.1', () => r()));
	htmlOkUrl = `http://127.0.0.1:${(htmlOkServer.address() as AddressInfo).port}`;
	// Debug logging makes the "key never in the log" assertion meaningful. Plain-http requests to
	// other hosts (http://demo.getgrist.com) go through the emulator as a proxy; loopback does not.
	n8n = await startN8n({
		env: { N8N_LOG_LEVEL: 'debug', HTTP_PROXY: emulator.url, NO_PROXY: '127.0.0.1,localhost' },
	});
}, START_TIMEOUT);

afterAll(async () => {
	await n8n?.stop();
	await emulator?.close();
	await new Promise((r) => htmlServer?.close(r));
	await new Promise((r) => htmlOkServer?.close(r));
});

describe('the package in a real n8n', () => {
	test('the node, the trigger and the credential type are registered under the package name', async () => {
		const nodes = await n8n.nodeTypes();
		expect(nodes).toEqual(
			expect.arrayContaining(['n8n-nodes-grist.grist', 'n8n-nodes-grist.gristTrigger']),
		);
		expect(await n8n.credentialTypes()).toContain('gristRecordsApi');
	});
});

describe('credential test', () => {
	test('passes against the emulator', async () => {
		emulator.clearLog();
		const cred = await n8n.createCredential({
			name: 'Grist ok',
			type: 'gristRecordsApi',
			data: { apiKey, url: `${emulator.url}/o/${demo.orgDomain}` },
		});
		expect(await n8n.testCredential(cred.id)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(
			emulator.log
				.filter((r) => r.apiPath === '/api/orgs/current')
				.map((r) => [r.method, r.path, r.status, r.hasAuthorization]),
		).toEqual([['GET', `/o/${demo.orgDomain}/api/orgs/current`, 200, true]]);
	});

	test('a self-hosted Server URL without /o/<team> fails, saying to add it (what the nodes would fail on)', async () => {
		const cred = await n8n.createCredential({
			name: 'Grist without team',
			type: 'gristRecordsApi',
			data: { apiKey, url: emulator.url },
		});
		emulator.clearLog();
		expect(await n8n.testCredential(cred.id)).toEqual({
			status: 'Error',
			message: NO_TEAM_MESSAGE,
		});
		expect(emulator.log.map((r) => [r.apiPath, r.status])).toEqual([['/api/orgs/current', 400]]);
	});

	test.each([
		['200', () => htmlOkUrl],
		['404', () => htmlUrl],
	])(
		'a server that answers every path with %s and an HTML page gives our message',
		async (status, url) => {
			const cred = await n8n.createCredential({
				name: `HTML ${status}`,
				type: 'gristRecordsApi',
				data: { apiKey, url: url() },
			});
			expect(await n8n.testCredential(cred.id)).toEqual({
				status: 'Error',
				message: NOT_GRIST_MESSAGE,
			});
		},
	);

	test("n8n's own editor address as Server URL is not taken for Grist", async () => {
		// n8n 2.41 answers every unknown path, this one included, with its editor page and 200.
		const page = await fetch(`${n8n.baseUrl}/api/profile/user`);
		expect([page.status, page.headers.get('content-type')]).toEqual([
			200,
			'text/html; charset=utf-8',
		]);
		const cred = await n8n.createCredential({
			name: 'n8n itself',
			type: 'gristRecordsApi',
			data: { apiKey, url: n8n.baseUrl },
		});
		expect(await n8n.testCredential(cred.id)).toEqual({
			status: 'Error',
			message: NOT_GRIST_MESSAGE,
		});
	});

	test('a wrong key (401) gives our message', async () => {
		const cred = await n8n.createCredential({
			name: 'Grist wrong key',
			type: 'gristRecordsApi',
			data: { apiKey: 'not-a-valid-key', url: emulator.url },
		});
		expect(await n8n.testCredential(cred.id)).toEqual({
			status: 'Error',
			message: KEY_MESSAGE,
		});
	});

	test('a malformed Server URL says what to change, and nothing is sent', async () => {
		emulator.clearLog();
		const cred = await n8n.createCredential({
			name: 'Malformed URL',
			type: 'gristRecordsApi',
			data: { apiKey, url: 'ftp://grist.example.com' },
		});
		expect(await n8n.testCredential(cred.id)).toEqual({
			status: 'Error',
			message: INVALID_URL_MESSAGE,
		});
		expect(emulator.log).toHaveLength(0);
	});
});

describe('workflow: Manual Trigger → Grist (org, getAll)', () => {
	test('returns the emulator’s orgs and the key appears in no execution data or log', async () => {
		const cred = await n8n.createCredential({
			name: 'Grist run',
			type: 'gristRecordsApi',
			data: { apiKey, url: emulator.url },
		});
		const direct = await fetch(`${emulator.url}/api/orgs`, {
			headers: { authorization: `Bearer ${apiKey}` },
		});
		const expected = (await direct.json()) as Array<Record<string, unknown>>;
		expect(expected.length).toBeGreaterThan(0);
		emulator.clearLog();

		const run = await n8n.runWorkflow(
			manualWorkflow([gristNode({ resource: 'org', operation: 'getAll', returnAll: true }, cred)]),
		);

		expect(run.error).toBeUndefined();
		expect(run.status).toBe('success');
		expect(run.output('Grist')).toEqual(expected);
		expect(run.items('Grist').map((i) => i.pairedItem)).toEqual(expected.map(() => ({ item: 0 })));
		expect(emulator.log.map((r) => `${r.method} ${r.apiPath} ${r.status}`)).toEqual([
			'GET /api/orgs 200',
		]);

		const stored = await n8n.rest<{ data: string }>('GET', `/executions/${run.executionId}`);
		expect(JSON.stringify(stored)).not.toContain(apiKey);
		expect(JSON.stringify(run.raw)).not.toContain(apiKey);
		expect(n8n.logs()).toContain('Grist');
		expect(n8n.logs()).not.toContain(apiKey);
	});

	test('a rejected key fails the node with Grist’s message, the hint and the HTTP code', async () => {
		const wrongKey = randomBytes(20).toString('hex'); // a key the emulator never issued
		const cred = await n8n.createCredential({
			name: 'Grist bad run',
			type: 'gristRecordsApi',
			data: { apiKey: wrongKey, url: emulator.url },
		});
		const run = await n8n.runWorkflow(
			manualWorkflow([gristNode({ resource: 'org', operation: 'getAll', returnAll: true }, cred)]),
		);
		expect(run.status).toBe('error');
		expect(run.error).toMatchObject({
			node: 'Grist',
			name: 'NodeApiError',
			httpCode: '401',
			message: 'Bad request: invalid API key',
		});
		expect(run.error?.description).toMatch(/^Grist rejected the API key/);
		expect(JSON.stringify(run.raw)).not.toContain(wrongKey);
		expect(n8n.logs()).not.toContain(wrongKey);
	});

	test('a Server URL that is not Grist fails the node with a message that says so, not "HTTP 404"', async () => {
		const cred = await n8n.createCredential({
			name: 'Not Grist run',
			type: 'gristRecordsApi',
			data: { apiKey, url: htmlUrl },
		});
		const run = await n8n.runWorkflow(
			manualWorkflow([gristNode({ resource: 'org', operation: 'getAll', returnAll: true }, cred)]),
		);
		expect(run.status).toBe('error');
		expect(run.error).toMatchObject({
			node: 'Grist',
			name: 'NodeApiError',
			httpCode: '404',
			message: `The server at ${htmlUrl} did not answer like Grist (HTTP 404)`,
		});
		expect(run.error?.description).toMatch(/^Check the Server URL of the Grist credential/);
	});
});

emulatorOnly(
	'a team host (demo.getgrist.com) reached through the emulator as n8n’s HTTP_PROXY, with its Host-based site routing',
).describe(
	'a team site URL (http://demo.getgrist.com, routed to the emulator by HTTP_PROXY)',
	() => {
		/** GET /api/orgs straight from the emulator with the team site's Host header. */
		async function orgsAsTeamSite(): Promise<unknown> {
			return await new Promise((resolve, reject) => {
				const req = request(
					{
						host: '127.0.0.1',
						port: emulator.port,
						path: '/api/orgs',
						headers: { host: 'demo.getgrist.com', authorization: `Bearer ${apiKey}` },
					},
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (c: Buffer) => chunks.push(c));
						res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
					},
				);
				req.on('error', reject);
				req.end();
			});
		}

		test('the credential test and a workflow reach the team site', async () => {
			const cred = await n8n.createCredential({
				name: 'Grist team site',
				type: 'gristRecordsApi',
				data: { apiKey, url: 'http://demo.getgrist.com' },
			});
			const expected = await orgsAsTeamSite();
			expect(expected).toEqual(
				expect.arrayContaining([expect.objectContaining({ domain: 'demo' })]),
			);
			emulator.clearLog();

			expect(await n8n.testCredential(cred.id)).toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
			const run = await n8n.runWorkflow(
				manualWorkflow([
					gristNode({ resource: 'org', operation: 'getAll', returnAll: true }, cred),
				]),
			);

			expect(run.status).toBe('success');
			expect(run.output('Grist')).toEqual(expected);
			expect(emulator.log.map((r) => [r.method, r.host, r.apiPath, r.status])).toEqual([
				['GET', 'demo.getgrist.com', '/api/orgs/current', 200],
				['GET', 'demo.getgrist.com', '/api/orgs', 200],
			]);
		});

		test('a team host with another team in /o/<team> says to keep one ("Wrong org for this domain", 400)', async () => {
			const cred = await n8n.createCredential({
				name: 'Grist two teams',
				type: 'gristRecordsApi',
				data: { apiKey, url: 'http://demo.getgrist.com/o/other' },
			});
			emulator.clearLog();
			expect(await n8n.testCredential(cred.id)).toEqual({
				status: 'Error',
				message: GRIST_REFUSED_MESSAGE,
			});
			expect(GRIST_REFUSED_MESSAGE).toMatch(
				/names two different team sites: keep only one of them/,
			);
			expect(emulator.log.map((r) => [r.method, r.host, r.path, r.status])).toEqual([
				['GET', 'demo.getgrist.com', '/o/other/api/orgs/current', 400],
			]);
		});
	},
);

describe("side by side with n8n's built-in Grist node", () => {
	type CredentialTypeJson = {
		name: string;
		properties: Array<{ name: string }>;
		documentationUrl?: string;
		supportedNodes?: string[];
	};
	/** The credential types of the n8n-nodes-base that the e2e runtime installs (its own list). */
	const nodesBaseCredentials = (): CredentialTypeJson[] => {
		const nodesBase = createRequire(join(locateRuntime().n8nDir, 'package.json')).resolve(
			'n8n-nodes-base/package.json',
		);
		return JSON.parse(
			readFileSync(join(dirname(nodesBase), 'dist/types/credentials.json'), 'utf8'),
		) as CredentialTypeJson[];
	};
	const served = async (): Promise<CredentialTypeJson[]> =>
		(await n8n.credentialTypeDescriptions()) as unknown as CredentialTypeJson[];

	const builtIn = (
		parameters: Record<string, unknown>,
		credential: { id: string; name: string },
	) => ({
		name: 'Built-in Grist',
		type: 'n8n-nodes-base.grist',
		typeVersion: 1,
		parameters,
		credentials: { gristApi: credential },
	});

	test('no credential name of this package is one of n8n-nodes-base', () => {
		const base = nodesBaseCredentials().map((c) => c.name);
		expect(base).toEqual(expect.arrayContaining(['gristApi', 'gristOAuth2Api']));
		const ours = (
			JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
				n8n: { credentials: string[] };
			}
		).n8n.credentials.map((file) => {
			const mod = createRequire(join(REPO_ROOT, 'package.json'))(join(REPO_ROOT, file)) as Record<
				string,
				new () => { name: string }
			>;
			return Object.values(mod)
				.filter((v) => typeof v === 'function' && /^class /.test(String(v)))
				.map((C) => new C().name);
		});
		expect(ours.flat().length).toBeGreaterThan(0);
		expect(ours.flat().filter((name) => base.includes(name))).toEqual([]);
	});

	test('n8n serves its own class for gristApi and gristOAuth2Api, and ours under our names', async () => {
		const list = await served();
		const own = nodesBaseCredentials();
		for (const name of ['gristApi', 'gristOAuth2Api']) {
			const entries = list.filter((c) => c.name === name);
			expect(entries).toHaveLength(1);
			const original = own.find((c) => c.name === name)!;
			expect(entries[0].documentationUrl).toBe(original.documentationUrl);
			expect(entries[0].supportedNodes).toEqual(['n8n-nodes-base.grist']);
			expect(
				entries[0].properties
					.map((p) => p.name)
					.filter((n) => !n.startsWith('allowed') && n !== 'allowedDomains'),
			).toEqual(original.properties.map((p) => p.name));
		}
		const ours = list.filter((c) => c.name === 'gristRecordsApi');
		expect(ours).toHaveLength(1);
		expect(ours[0].supportedNodes).toEqual(
			expect.arrayContaining(['n8n-nodes-grist.grist', 'n8n-nodes-grist.gristTrigger']),
		);
	});

	test('the built-in node with its own credential works as without this package', async () => {
		const cred = await n8n.createCredential({
			name: 'Grist (built-in node)',
			type: 'gristApi',
			data: { apiKey, url: emulator.url },
		});
		emulator.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				builtIn(
					{ operation: 'getAll', docId: demo.docId, tableId: 'Customers', returnAll: true },
					cred,
				),
			]),
		);
		expect(run.status).toBe('success');
		expect(run.output('Built-in Grist').map((r) => r.id)).toEqual(
			emulator.records(demo.docId, 'Customers').map((r) => r.id),
		);
		expect(emulator.log.map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', `/api/docs/${demo.docId}/tables/Customers/records`, 200],
		]);
	});

	test('an older built-in credential (address in its hidden selfHostedUrl) still serves the built-in node', async () => {
		const site = `${emulator.url}/o/${demo.orgDomain}`;
		// As stored by older versions of the built-in node (the public API refuses hidden fields).
		const created = (await n8n.rest('POST', '/credentials', {
			name: 'Grist (old built-in credential)',
			type: 'gristApi',
			data: { apiKey, url: '', selfHostedUrl: site },
		})) as { id: string; name: string };
		emulator.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				builtIn(
					{ operation: 'getAll', docId: demo.docId, tableId: 'Customers', returnAll: true },
					{ id: created.id, name: created.name },
				),
			]),
		);
		expect(run.status).toBe('success');
		expect(emulator.log.map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', `/o/${demo.orgDomain}/api/docs/${demo.docId}/tables/Customers/records`, 200],
		]);
	});
});
