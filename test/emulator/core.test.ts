/** Emulator: authentication, host/org addressing (incl. proxy-form requests), unknown routes, request log. */
import { startEmulator, type DemoSite, type GristEmulator } from './index';
import {
	client,
	proxyForm,
	raw,
	type DocInfo,
	type ErrorBody,
	type Org,
	type RecordsBody,
	type TablesBody,
} from './testutil';
import { emulatorOnly } from '../harness/target';

// A real server gives the run one site (GRIST_ORG): no second site, hosts or switches of our own.
const secondSite = emulatorOnly(
	'a second site of the owner’s (a real run works in one site, GRIST_ORG)',
);
const hosts = emulatorOnly(
	'Grist’s answer by Host: team subdomains, docs.<base>, custom hosts, proxy-form request lines (the real-Grist proxy sends every test site to GRIST_ORG itself)',
);
const singleOrg = emulatorOnly(
	'singleOrg is an emulator switch (GRIST_SINGLE_ORG is the server’s own setting)',
);
const costModel = emulatorOnly('the log’s rowsScanned is the emulator’s cost model');

let emu: GristEmulator;
let demo: DemoSite;

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
});
afterAll(() => emu.close());
beforeEach(() => emu.clearLog());

describe('authentication', () => {
	it('rejects an unknown or empty Bearer key with 401', async () => {
		const bad = await client(emu, 'nope').get('/api/orgs');
		expect(bad.status).toBe(401);
		expect(bad.json).toEqual({ error: 'Bad request: invalid API key' });
		const empty = await raw(emu, { path: '/api/orgs', headers: { Authorization: 'Bearer ' } });
		expect(empty.status).toBe(401);
		expect(empty.json).toEqual({ error: 'Bad request: invalid API key' });
	});

	it('rejects other schemes', async () => {
		const r = await raw(emu, {
			path: '/api/orgs',
			headers: { Authorization: 'Basic dXNlcjpwdw==' },
		});
		expect(r.status).toBe(401);
		expect(r.json).toEqual({
			error: "Bad request: unsupported Authorization scheme, expected 'Bearer'",
		});
	});

	it('treats no header as anonymous: only public docs, CSRF guard on writes', async () => {
		const anon = client(emu, undefined);
		expect((await anon.get('/api/orgs')).json).toEqual([]);
		const priv = await anon.get(`/api/docs/${demo.docId}/tables/Customers/records`);
		expect(priv.status).toBe(403);
		expect(priv.json).toEqual({ error: 'No view access' });
		emu.setAccess('doc', demo.doc2Id, 'everyone@getgrist.com', 'viewers');
		try {
			const pub = await anon.get<RecordsBody>(`/api/docs/${demo.doc2Id}/tables/Tasks/records`);
			expect(pub.status).toBe(200);
			expect(pub.json.records).toHaveLength(2);
			const csrf = await raw<ErrorBody>(emu, {
				method: 'POST',
				path: `/api/docs/${demo.doc2Id}/tables/Tasks/records`,
				headers: { 'Content-Type': 'text/plain' },
				body: '{"records":[{}]}',
			});
			expect(csrf.status).toBe(401);
			expect(csrf.json.error).toBe(
				"Unauthenticated requests require one of the headers'Content-Type: application/json' or 'X-Requested-With: XMLHttpRequest'",
			);
			const w = await anon.post(`/api/docs/${demo.doc2Id}/tables/Tasks/records`, { records: [{}] });
			expect(w.status).toBe(403);
			expect(w.json).toEqual({ error: 'No write access' });
		} finally {
			emu.setAccess('doc', demo.doc2Id, 'everyone@getgrist.com', null);
		}
	});

	it('never stores the Authorization value in the log', async () => {
		await client(emu, demo.apiKey).get('/api/orgs');
		expect(emu.log).toHaveLength(1);
		expect(emu.log[0].hasAuthorization).toBe(true);
		expect(JSON.stringify(emu.log)).not.toContain(demo.apiKey);
	});
});

describe('org addressing', () => {
	const auth = () => ({ Authorization: `Bearer ${demo.apiKey}` });
	/** The site as the server names it (the facade maps the test's `demo` to GRIST_ORG). */
	let site: Org;
	beforeAll(async () => {
		site = (await raw<Org>(emu, { path: `/api/orgs/${demo.orgId}`, headers: auth() })).json;
	});

	it('127.0.0.1 without prefix: no org chosen, docs still reachable', async () => {
		const r = await raw(emu, { path: '/api/orgs/current', headers: auth() });
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ error: 'No organization chosen' });
		const d = await raw<DocInfo>(emu, { path: `/api/docs/${demo.docId}`, headers: auth() });
		expect(d.status).toBe(200);
		expect(d.json.name).toBe('CRM');
	});

	it('/o/<domain> prefix selects the org and is stripped in apiPath', async () => {
		const r = await raw(emu, {
			path: '/o/demo/api/orgs/current',
			host: 'localhost:8484',
			headers: auth(),
		});
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({
			id: demo.orgId,
			domain: site.domain,
			name: site.name,
			access: 'owners',
		});
		expect(emu.log[0]).toMatchObject({
			method: 'GET',
			path: '/o/demo/api/orgs/current',
			apiPath: '/api/orgs/current',
			host: 'localhost:8484',
			org: 'demo',
			status: 200,
		});
		const unknown = await raw(emu, { path: '/o/nosuch/api/orgs/current', headers: auth() });
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({ error: 'organization not found' });
	});

	secondSite.it('a doc requested under the wrong org is 404', async () => {
		const personal = (await raw<Org[]>(emu, { path: '/api/orgs', headers: auth() })).json.find(
			(o) => o.owner,
		)!;
		const r = await raw(emu, {
			path: `/o/${personal.domain}/api/docs/${demo.docId}/tables`,
			headers: auth(),
		});
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ error: 'document not found' });
		const ok = await raw(emu, { path: `/o/demo/api/docs/${demo.docId}/tables`, headers: auth() });
		expect(ok.status).toBe(200);
	});

	it('a doc requested under another user’s site is 404', async () => {
		const viewer = client(emu, demo.viewerApiKey);
		const viewerId = (await viewer.get<{ id: number }>('/api/profile/user')).json.id;
		const theirs = (await viewer.get<Org[]>('/api/orgs')).json.find(
			(o) => o.owner?.id === viewerId,
		)!;
		const r = await raw(emu, {
			path: `/o/${theirs.domain}/api/docs/${demo.docId}/tables`,
			headers: auth(),
		});
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ error: 'document not found' });
	});

	hosts.it(
		'<team>.getgrist.com selects the team; docs.getgrist.com is the merged personal org',
		async () => {
			const team = await raw<Org>(emu, {
				path: '/api/orgs/current',
				host: 'demo.getgrist.com',
				headers: auth(),
			});
			expect(team.json.domain).toBe('demo');
			const merged = await raw<Org>(emu, {
				path: '/api/orgs/current',
				host: 'docs.getgrist.com',
				headers: auth(),
			});
			expect(merged.status).toBe(200);
			// HomeDBManager.getOrg: the merged personal site is id 0, domain `docs` (measured on 1.7.17)
			expect(merged.json).toMatchObject({ id: 0, domain: 'docs' });
			expect(merged.json.owner).toMatchObject({ name: 'Demo Owner' });
			const teamDoc = await raw(emu, {
				path: `/api/docs/${demo.docId}`,
				host: 'docs.getgrist.com',
				headers: auth(),
			});
			expect(teamDoc.status).toBe(200);
			expect(emu.log.map((e) => e.org)).toEqual(['demo', 'docs', 'docs']);
		},
	);

	hosts.it('prefix disagreeing with the subdomain is 400; unknown host is 404', async () => {
		const wrong = await raw(emu, {
			path: '/o/other/api/orgs/current',
			host: 'demo.getgrist.com',
			headers: auth(),
		});
		expect(wrong.status).toBe(400);
		expect(wrong.json).toEqual({
			error: "Wrong org for this domain: 'other' does not match 'demo'",
		});
		const unknown = await raw(emu, { path: '/api/orgs', host: 'grist:8484', headers: auth() });
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({ error: 'Domain not recognized: grist' });
	});

	hosts.it('custom org host selects the org', async () => {
		const o = emu.addOrg({
			name: 'Custom',
			domain: 'custom',
			owner: demo.email,
			host: 'grist.example.org',
		});
		const r = await raw<Org>(emu, {
			path: '/api/orgs/current',
			host: 'grist.example.org',
			headers: auth(),
		});
		expect(r.status).toBe(200);
		expect(r.json.id).toBe(o.id);
	});

	hosts.it('accepts proxy-form request lines (HTTP_PROXY routing)', async () => {
		const r = await proxyForm<Org>(emu, 'http://demo.getgrist.com/api/orgs/current', auth());
		expect(r.status).toBe(200);
		expect(r.json.domain).toBe('demo');
		expect(emu.log[0]).toMatchObject({
			path: '/api/orgs/current',
			apiPath: '/api/orgs/current',
			host: 'demo.getgrist.com',
			org: 'demo',
		});
		const q = await proxyForm<RecordsBody>(
			emu,
			`http://demo.getgrist.com/api/docs/${demo.docId}/tables/Orders/records?limit=1`,
			auth(),
		);
		expect(q.json.records).toHaveLength(1);
		expect(emu.log[1].query).toEqual({ limit: '1' });
	});

	singleOrg.it('singleOrg puts every request in that org', async () => {
		const single = await startEmulator({ singleOrg: 'demo' });
		try {
			const d = single.seedDemo();
			const r = await raw<Org>(single, {
				path: '/api/orgs/current',
				host: 'anything.example.net',
				headers: { Authorization: `Bearer ${d.apiKey}` },
			});
			expect(r.status).toBe(200);
			expect(r.json.domain).toBe('demo');
		} finally {
			await single.close();
		}
	});

	it('org keys: id, domain or current', async () => {
		const c = client(emu, demo.apiKey);
		expect((await c.get<Org>(`/api/orgs/${demo.orgId}`)).json.domain).toBe(site.domain);
		expect((await c.get<Org>('/api/orgs/demo')).json.id).toBe(demo.orgId);
		expect((await c.get('/api/orgs/9999')).json).toEqual({ error: 'organization not found' });
		const personal = await c.get<Org>('/api/orgs/docs');
		expect(personal.json.owner).toMatchObject({ id: demo.userId });
	});
});

describe('routing', () => {
	it('unknown route is 404 not found: <path>', async () => {
		const r = await client(emu, demo.apiKey).get('/api/zig');
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ error: 'not found: /api/zig' });
	});

	it('ignores one trailing slash like Express', async () => {
		const r = await client(emu, demo.apiKey).get<TablesBody>(`/api/docs/${demo.docId}/tables/`);
		expect(r.status).toBe(200);
		expect(r.json.tables.map((t) => t.id)).toEqual(['Customers', 'Orders']);
	});

	costModel.it('logs method, paths, decoded query, status and body', async () => {
		const c = client(emu, demo.apiKey);
		await c.get(
			`/api/docs/${demo.docId}/tables/Orders/records?filter=${encodeURIComponent('{"Status":["Paid"]}')}&sort=-Amount`,
		);
		await c.post(`/api/docs/${demo.docId}/tables/Customers/records`, {
			records: [{ fields: { Name: 'Dan' } }],
		});
		expect(emu.log).toEqual([
			{
				method: 'GET',
				path: `/api/docs/${demo.docId}/tables/Orders/records`,
				apiPath: `/api/docs/${demo.docId}/tables/Orders/records`,
				query: { filter: '{"Status":["Paid"]}', sort: '-Amount' },
				host: `127.0.0.1:${emu.port}`,
				status: 200,
				bodyBytes: 0,
				hasAuthorization: true,
				rowsScanned: 3, // the cost model: a records read scans the whole table
			},
			{
				method: 'POST',
				path: `/api/docs/${demo.docId}/tables/Customers/records`,
				apiPath: `/api/docs/${demo.docId}/tables/Customers/records`,
				query: {},
				host: `127.0.0.1:${emu.port}`,
				status: 200,
				body: { records: [{ fields: { Name: 'Dan' } }] },
				bodyBytes: 39,
				hasAuthorization: true,
			},
		]);
	});
});
