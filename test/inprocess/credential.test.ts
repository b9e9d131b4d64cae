/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: loopback servers; HTTP_PROXY for the "Domain not recognized" host */
/**
 * The credential test as n8n runs it ("Test" in the credential dialog), against the emulator and
 * against servers that are not Grist.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { GristApi, INVALID_URL_MESSAGE } from '../../credentials/GristApi.credentials';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { testCredential } from '../harness/inprocess';

let emulator: GristEmulator;
let demo: DemoSite;
let notGrist: http.Server;
let notGristUrl: string;

beforeAll(async () => {
	emulator = await startEmulator();
	demo = emulator.seedDemo();
	notGrist = http.createServer((_req, res) => {
		res.writeHead(404, { 'Content-Type': 'text/html' });
		res.end('<!doctype html><html><body>Welcome to nginx</body></html>');
	});
	await new Promise<void>((resolve) => notGrist.listen(0, '127.0.0.1', resolve));
	notGristUrl = `http://127.0.0.1:${(notGrist.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await emulator.close();
	await new Promise((resolve) => notGrist.close(resolve));
});
beforeEach(() => emulator.clearLog());

const test = async (url: string, apiKey = demo.apiKey) =>
	await testCredential({ credentialType: new GristApi(), data: { apiKey, url } });

describe('credential test', () => {
	it.each([
		['the server root', ''],
		['the API root', '/api'],
		['a team path', '/o/TEAM'],
		['a document URL', '/o/TEAM/doc/DOC/p/2'],
	])('passes with %s and calls GET /api/orgs with a Bearer key', async (_what, suffix) => {
		const url = emulator.url + suffix.replace('TEAM', demo.orgDomain).replace('DOC', demo.docId);
		const result = await test(url);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(emulator.log.map((e) => [e.method, e.apiPath, e.hasAuthorization])).toEqual([
			['GET', '/api/orgs', true],
		]);
	});

	it('says what to do about a wrong key, and never shows it', async () => {
		const wrong = `wrong-${'x'.repeat(24)}`;
		const result = await test(emulator.url, wrong);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key.*Profile Settings → API/);
		expect(result.message).not.toContain(wrong);
	});

	it('says what to do about an empty key', async () => {
		const result = await test(emulator.url, '');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key/);
	});

	it('explains a server that is not Grist', async () => {
		const result = await test(notGristUrl);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/did not answer like Grist.*Server URL/);
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
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/"Domain not recognized" needs its public URL, APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG/);
			expect(emulator.log.map((e) => [e.host, e.apiPath, e.status])).toEqual([['grist:8484', '/api/orgs', 404]]);
		});

		it('explains a team host with another team in /o/<team> ("Wrong org for this domain")', async () => {
			const result = await test('http://demo.getgrist.com/o/other');
			expect(result).toEqual({
				status: 'Error',
				message:
					'The Server URL names two different team sites: a team host (https://<team>.getgrist.com) and another team in /o/<team>. Keep only one of them.',
			});
			expect(emulator.log.map((e) => [e.host, e.path, e.status])).toEqual([['demo.getgrist.com', '/o/other/api/orgs', 400]]);
		});

		it('passes on the team host itself', async () => {
			expect(await test('http://demo.getgrist.com')).toEqual({ status: 'OK', message: 'Connection successful!' });
		});
	});
});
