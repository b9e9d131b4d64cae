/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: loopback servers; HTTP_PROXY for the "Domain not recognized" host */
/**
 * The credential test as n8n runs it ("Test" in the credential dialog), against the emulator and
 * against servers that are not Grist.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	GRIST_REFUSED_MESSAGE,
	GristRecordsApi,
	INVALID_URL_MESSAGE,
	KEY_MESSAGE,
	NO_ACCESS_MESSAGE,
	NO_TEAM_MESSAGE,
	NOT_GRIST_MESSAGE,
	UNKNOWN_TEAM_MESSAGE,
} from '../../credentials/GristRecordsApi.credentials';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { testCredential } from '../harness/inprocess';
import { emulatorOnly } from '../harness/target';

let emulator: GristEmulator;
let demo: DemoSite;
let notGrist: http.Server;
let notGristUrl: string;
/** Answers every path with 200 and an HTML page, like n8n's own editor or a site's catch-all route. */
let htmlOk: http.Server;
let htmlOkUrl: string;
/** Answers every path with 200 and a JSON object that is not a Grist user. */
let jsonOk: http.Server;
let jsonOkUrl: string;
const htmlOkRequests: string[] = [];

const listen = async (server: http.Server) => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
	emulator = await startEmulator();
	demo = emulator.seedDemo();
	notGrist = http.createServer((_req, res) => {
		res.writeHead(404, { 'Content-Type': 'text/html' });
		res.end('<!doctype html><html><body>Welcome to nginx</body></html>');
	});
	notGristUrl = await listen(notGrist);
	htmlOk = http.createServer((req, res) => {
		htmlOkRequests.push(`${req.method} ${req.headers.host} ${req.url}`);
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
		res.end(
			'<!DOCTYPE html><html><head><title>n8n.io - Workflow Automation</title></head><body><div id="app"></div></body></html>',
		);
	});
	htmlOkUrl = await listen(htmlOk);
	jsonOk = http.createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ status: 'ok', data: [] }));
	});
	jsonOkUrl = await listen(jsonOk);
});
afterAll(async () => {
	await emulator.close();
	for (const server of [notGrist, htmlOk, jsonOk])
		await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
	emulator.clearLog();
	htmlOkRequests.length = 0;
});

const test = async (url: string, apiKey = demo.apiKey) =>
	await testCredential({ credentialType: new GristRecordsApi(), data: { apiKey, url } });

describe('credential test', () => {
	it.each([
		['a team path', '/o/TEAM'],
		['a team path and /api', '/o/TEAM/api'],
		['a document URL', '/o/TEAM/doc/DOC/p/2'],
	])(
		'passes with %s and calls GET /o/<team>/api/orgs/current with a Bearer key',
		async (_what, suffix) => {
			const url = emulator.url + suffix.replace('TEAM', demo.orgDomain).replace('DOC', demo.docId);
			const result = await test(url);
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(
				emulator.log.map((e) => [e.method, e.path, e.apiPath, e.hasAuthorization, e.status]),
			).toEqual([['GET', `/o/${demo.orgDomain}/api/orgs/current`, '/api/orgs/current', true, 200]]);
		},
	);

	it.each([
		['the server root', ''],
		['the API root', '/api'],
	])(
		'fails for a self-hosted server without the team (%s), saying to add /o/<team>',
		async (_what, suffix) => {
			// what every operation in the site would answer: Grist's 400 "No organization chosen"
			const result = await test(emulator.url + suffix);
			expect(result).toEqual({ status: 'Error', message: NO_TEAM_MESSAGE });
			expect(result.message).toMatch(/needs the site in the Server URL.*add \/o\/TEAM/);
			expect(emulator.log.map((e) => [e.apiPath, e.status])).toEqual([['/api/orgs/current', 400]]);
		},
	);

	it('fails for a team that does not exist, saying to check its name', async () => {
		const result = await test(`${emulator.url}/o/no-such-team`);
		expect(result).toEqual({ status: 'Error', message: UNKNOWN_TEAM_MESSAGE });
		expect(emulator.log.map((e) => [e.apiPath, e.status])).toEqual([['/api/orgs/current', 404]]);
	});

	emulatorOnly('a user with a chosen email, made for this test, is the emulator’s').it(
		'fails for a site the key’s user is not a member of (403 access denied)',
		async () => {
			const outsider = emulator.addUser({ email: 'outsider@example.com' });
			const result = await test(`${emulator.url}/o/${demo.orgDomain}`, outsider.apiKey);
			expect(result).toEqual({ status: 'Error', message: NO_ACCESS_MESSAGE });
			expect(result.message).not.toContain(outsider.apiKey);
		},
	);

	it('an unreachable server: n8n shows the network error code (a declarative test cannot word it)', async () => {
		const closed = http.createServer();
		const url = await listen(closed);
		await new Promise((resolve) => closed.close(resolve));
		expect(await test(`${url}/o/docs`)).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it.each([
		["an HTML page (e.g. n8n's own editor address)", () => htmlOkUrl],
		['a JSON object that is not a Grist user', () => jsonOkUrl],
	])('fails for a server that answers every path with 200 and %s', async (_what, url) => {
		const result = await test(url());
		expect(result).toEqual({ status: 'Error', message: NOT_GRIST_MESSAGE });
		expect(result.message).toMatch(/did not answer like Grist.*Server URL/);
	});

	it('fails for an HTML-200 server under a self-hosted style /o/<team> URL, and calls /o/<team>/api/orgs/current', async () => {
		expect(await test(`${htmlOkUrl}/o/docs/doc/abc`)).toEqual({
			status: 'Error',
			message: NOT_GRIST_MESSAGE,
		});
		expect(htmlOkRequests).toEqual([
			`GET ${htmlOkUrl.slice('http://'.length)} /o/docs/api/orgs/current`,
		]);
	});

	it('says what to do about a wrong key, and never shows it', async () => {
		const wrong = `wrong-${'x'.repeat(24)}`;
		const result = await test(`${emulator.url}/o/${demo.orgDomain}`, wrong);
		expect(result).toEqual({ status: 'Error', message: KEY_MESSAGE });
		expect(result.message).toMatch(/rejected the API key.*Account settings → Developer → API Key/);
		expect(result.message).not.toContain(wrong);
	});

	it('says what to do about an empty key', async () => {
		const result = await test(`${emulator.url}/o/${demo.orgDomain}`, '');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key/);
	});

	it('explains a server that is not Grist (an HTML 404 page)', async () => {
		const result = await test(notGristUrl);
		expect(result).toEqual({ status: 'Error', message: NOT_GRIST_MESSAGE });
	});

	it.each(['ftp://grist.example.com', 'https://grist example.com', 'not a url'])(
		'says what to change for the malformed Server URL %p, without sending the key anywhere',
		async (url) => {
			const result = await test(url);
			expect(result).toEqual({ status: 'Error', message: INVALID_URL_MESSAGE });
			expect(emulator.log).toHaveLength(0);
		},
	);

	describe('hosts reached through HTTP_PROXY = the emulator', () => {
		const keys = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
		const saved: Array<string | undefined> = [];
		beforeAll(() => {
			keys.forEach((k) => saved.push(process.env[k]));
			process.env.HTTP_PROXY = process.env.http_proxy = emulator.url;
			process.env.NO_PROXY = process.env.no_proxy = '127.0.0.1,localhost';
		});
		afterAll(() => {
			keys.forEach((k, i) => {
				if (saved[i] === undefined) delete process.env[k];
				else process.env[k] = saved[i];
			});
		});

		it('explains a self-hosted server that answers "Domain not recognized"', async () => {
			// http://grist:8484: a Docker-internal name, the classic cause.
			const result = await test('http://grist:8484');
			expect(result).toEqual({ status: 'Error', message: GRIST_REFUSED_MESSAGE });
			expect(result.message).toMatch(
				/"Domain not recognized" needs its public URL, APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG/,
			);
			expect(emulator.log.map((e) => [e.host, e.apiPath, e.status])).toEqual([
				['grist:8484', '/api/orgs/current', 404],
			]);
		});

		emulatorOnly(
			'a team host (demo.getgrist.com) is the emulator’s: a self-hosted server has none, so it cannot say "Wrong org for this domain"',
		).it(
			'explains a team host with another team in /o/<team> ("Wrong org for this domain")',
			async () => {
				const result = await test('http://demo.getgrist.com/o/other');
				expect(result).toEqual({ status: 'Error', message: GRIST_REFUSED_MESSAGE });
				expect(result.message).toMatch(/names two different team sites: keep only one of them/);
				expect(emulator.log.map((e) => [e.host, e.path, e.status])).toEqual([
					['demo.getgrist.com', '/o/other/api/orgs/current', 400],
				]);
			},
		);

		it('passes on the team host itself', async () => {
			expect(await test('http://demo.getgrist.com')).toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
		});
	});

	describe('a proxy (HTTP_PROXY) that answers every request with 200 and an HTML page', () => {
		const keys = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
		const saved: Array<string | undefined> = [];
		beforeAll(() => {
			keys.forEach((k) => saved.push(process.env[k]));
			process.env.HTTP_PROXY = process.env.http_proxy = htmlOkUrl;
			process.env.NO_PROXY = process.env.no_proxy = '127.0.0.1,localhost';
		});
		afterAll(() => {
			keys.forEach((k, i) => {
				if (saved[i] === undefined) delete process.env[k];
				else process.env[k] = saved[i];
			});
		});

		it('fails with the not-Grist message (a captive portal or a company proxy, not Grist)', async () => {
			expect(await test('http://grist.example.com/o/team')).toEqual({
				status: 'Error',
				message: NOT_GRIST_MESSAGE,
			});
			expect(htmlOkRequests).toEqual([
				'GET grist.example.com http://grist.example.com/o/team/api/orgs/current',
			]);
			expect(emulator.log).toHaveLength(0);
		});
	});
});
