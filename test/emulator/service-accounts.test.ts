/**
 * Emulator: service accounts (`/api/service-accounts`), an organization's usage and a document's
 * formula timing, with grist-core 1.7.17's answers (measured).
 */
import { startEmulator, type GristEmulator } from './index';
import { client, type ErrorBody } from './testutil';
import { emulatorOnly, workspaceName } from '../harness/target';

interface Account {
	id: number;
	login: string;
	key?: string;
	label: string;
	description: string;
	expiresAt: string;
	hasValidKey: boolean;
}

let emu: GristEmulator;
let me: { id: number; email: string; apiKey: string };
let them: { id: number; email: string; apiKey: string };
let owner: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let siteId: number;
let docId: string;
/** A document no test shares (Grist caches a refusal for 5 s: a later share would not show at once). */
let closedDocId: string;
const label = (name: string) => workspaceName(`sa ${name}`);

beforeAll(async () => {
	emu = await startEmulator({ serviceAccounts: true });
	me = emu.addUser({ email: 'demo@example.com', name: 'Demo Owner' });
	them = emu.addUser({ email: 'viewer@example.com', name: 'Vera Viewer' });
	siteId = emu.addOrg({ name: 'Demo Team', domain: 'demo', owner: me.email }).id;
	owner = client(emu, me.apiKey, '/o/demo');
	other = client(emu, them.apiKey, '/o/demo');
	const ws = emu.addWorkspace(siteId, 'Timing');
	docId = emu.addDoc(ws.id, { name: 'Timed' }).id;
	closedDocId = emu.addDoc(ws.id, { name: 'Closed' }).id;
	emu.addTable(closedDocId, 'T', [{ id: 'A', type: 'Numeric' }]);
	emu.addTable(docId, 'T', [
		{ id: 'A', type: 'Numeric' },
		{ id: 'B', type: 'Any', formula: '$A * 2' },
	]);
});

afterAll(async () => {
	await emu.close();
});

describe('service accounts', () => {
	const made: number[] = [];
	const create = async (body: Record<string, unknown>) => {
		const res = await owner.post<Account>('/api/service-accounts', body);
		if (res.status === 200) made.push(res.json.id);
		return res;
	};
	afterAll(async () => {
		for (const id of made) await owner.del(`/api/service-accounts/${id}`);
	});

	it('creates one with its key; it is a user of its own that sees only what is shared with it', async () => {
		const res = await create({
			label: label('ci'),
			description: 'for n8n',
			expiresAt: '2099-01-31',
		});
		expect(res.status).toBe(200);
		const a = res.json;
		expect(Object.keys(a)).toEqual([
			'id',
			'login',
			'key',
			'label',
			'description',
			'expiresAt',
			'hasValidKey',
		]);
		expect(a).toMatchObject({
			label: label('ci'),
			description: 'for n8n',
			expiresAt: '2099-01-31T00:00:00.000Z',
			hasValidKey: true,
		});
		expect(a.login).toMatch(/^[0-9a-f-]{36}@serviceaccounts\.invalid$/);
		expect(a.key).toMatch(/^[0-9a-f]{40}$/);

		const sa = client(emu, a.key, '/o/demo');
		const profile = await sa.get<{ email: string; name: string }>('/api/profile/user');
		expect([profile.status, profile.json.email, profile.json.name]).toEqual([200, a.login, '']);
		// nothing of the site until a document is shared with its login
		expect((await sa.get<ErrorBody>(`/api/docs/${closedDocId}`)).status).toBe(403);
		expect((await sa.get<ErrorBody>(`/api/docs/${closedDocId}/tables/T/records`)).json).toEqual({
			error: 'No view access',
		});
		emu.setAccess('doc', docId, a.login, 'viewers');
		expect((await sa.get(`/api/docs/${docId}/tables/T/records`)).status).toBe(200);
		// a service account cannot make service accounts
		const nested = await sa.post<ErrorBody>('/api/service-accounts', { expiresAt: '2099-01-01' });
		expect([nested.status, nested.json.error]).toEqual([
			403,
			'Only regular users (of type "login") are allowed to create service accounts',
		]);
		expect((await sa.get('/api/service-accounts')).json).toEqual([]);

		// listed and read without the key
		const list = await owner.get<Account[]>('/api/service-accounts');
		const listed: Partial<Account> = { ...a };
		delete listed.key;
		expect(list.json.filter((x) => x.id === a.id)).toEqual([listed]);
		expect((await owner.get<Account>(`/api/service-accounts/${a.id}`)).json).toEqual(listed);
	});

	it('updates label, description and expiry; an empty label or description is ignored', async () => {
		const a = (await create({ label: label('upd'), expiresAt: '2099-01-01' })).json;
		const patch = await owner.patch(`/api/service-accounts/${a.id}`, {
			label: label('renamed'),
			expiresAt: '2098-02-03T04:05:06Z',
		});
		expect([patch.status, patch.text]).toEqual([200, 'null']);
		await owner.patch(`/api/service-accounts/${a.id}`, { label: '', description: '' });
		expect((await owner.get<Account>(`/api/service-accounts/${a.id}`)).json).toMatchObject({
			label: label('renamed'),
			description: '',
			expiresAt: '2098-02-03T04:05:06.000Z',
		});
		const bad = await owner.patch<ErrorBody>(`/api/service-accounts/${a.id}`, {
			expiresAt: 'soon',
		});
		expect([bad.status, bad.json]).toEqual([400, { error: 'Invalid expiresAt' }]);
	});

	it('a new key replaces the old; a revoked key is refused; a deleted account is gone', async () => {
		const a = (await create({ label: label('keys'), expiresAt: '2099-01-01' })).json;
		const again = await owner.post<Account>(`/api/service-accounts/${a.id}/apikey`);
		expect(again.status).toBe(200);
		expect(again.json.key).toMatch(/^[0-9a-f]{40}$/);
		expect(again.json.key).not.toBe(a.key);
		expect(again.json).toMatchObject({ id: a.id, login: a.login, hasValidKey: true });
		const old = await client(emu, a.key).get<ErrorBody>('/api/profile/user');
		expect([old.status, old.json.error]).toEqual([401, 'Bad request: invalid API key']);
		expect((await client(emu, again.json.key).get('/api/profile/user')).status).toBe(200);

		const revoke = await owner.del(`/api/service-accounts/${a.id}/apikey`);
		expect([revoke.status, revoke.text]).toEqual([200, 'null']);
		expect((await owner.get<Account>(`/api/service-accounts/${a.id}`)).json.hasValidKey).toBe(
			false,
		);
		expect((await client(emu, again.json.key).get('/api/profile/user')).status).toBe(401);
		// revoking again is fine
		expect((await owner.del(`/api/service-accounts/${a.id}/apikey`)).status).toBe(200);

		const fresh = (await owner.post<Account>(`/api/service-accounts/${a.id}/apikey`)).json;
		const del = await owner.del(`/api/service-accounts/${a.id}`);
		expect([del.status, del.text]).toEqual([200, 'null']);
		// grist-core fails on a deleted account's key (measured)
		const dead = await client(emu, fresh.key).get<ErrorBody>('/api/profile/user');
		expect([dead.status, dead.json.error]).toEqual([
			500,
			"Cannot read properties of null (reading 'owner')",
		]);
		for (const [method, path] of [
			['GET', ''],
			['PATCH', ''],
			['DELETE', ''],
			['POST', '/apikey'],
			['DELETE', '/apikey'],
		]) {
			const res = await owner.call<ErrorBody>(
				method,
				`/api/service-accounts/${a.id}${path}`,
				method === 'PATCH' ? { label: 'x' } : undefined,
			);
			expect([method, path, res.status, res.json.error]).toEqual([
				method,
				path,
				404,
				'This Service Account does not exist',
			]);
		}
	});

	it("an expired account's key is refused", async () => {
		const a = (await create({ label: label('old'), expiresAt: '2020-01-01' })).json;
		expect(a.expiresAt).toBe('2020-01-01T00:00:00.000Z');
		const res = await client(emu, a.key).get<ErrorBody>('/api/profile/user');
		expect([res.status, res.json.error]).toEqual([401, 'Service Account has expired']);
	});

	it('only its owner sees and manages a service account; the anonymous user none', async () => {
		const a = (await create({ label: label('mine'), expiresAt: '2099-01-01' })).json;
		for (const [method, path] of [
			['GET', ''],
			['PATCH', ''],
			['DELETE', ''],
			['POST', '/apikey'],
			['DELETE', '/apikey'],
		]) {
			const res = await other.call<ErrorBody>(
				method,
				`/api/service-accounts/${a.id}${path}`,
				method === 'PATCH' ? { label: 'x' } : undefined,
			);
			expect([method, path, res.status, res.json.error]).toEqual([
				method,
				path,
				403,
				'Cannot access non-owned service account',
			]);
		}
		const theirs = await other.get<Account[]>('/api/service-accounts');
		expect(theirs.json.some((x) => x.id === a.id)).toBe(false);
		const anon = await client(emu, undefined).get<ErrorBody>('/api/service-accounts');
		expect([anon.status, anon.json.error]).toEqual([401, 'user not authorized']);
	});

	it("checks bodies as grist-core's strict checker does", async () => {
		const post = async (body: unknown) =>
			(await owner.post<ErrorBody>('/api/service-accounts', body)).json;
		const patch = async (body: unknown) =>
			(await owner.patch<ErrorBody>('/api/service-accounts/999999', body)).json;
		const payload = (userError: string) => ({
			error: 'Invalid payload',
			details: { userError: `Error: ${userError}` },
		});
		expect(await post({ label: 'x' })).toEqual(payload('body.expiresAt is missing'));
		expect(await post({ expiresAt: '2099-01-01', label: null })).toEqual(
			payload('body.label is none of string, undefined'),
		);
		expect(await post({ expiresAt: 5 })).toEqual(
			payload('body.expiresAt is none of string, undefined\nbody.expiresAt is not a string'),
		);
		expect(await post({ expiresAt: '2099-01-01', foo: 1, bar: 2 })).toEqual(
			payload(
				'body.foo is extraneous\nbody.bar is extraneous\nbody.foo is extraneous\nbody.bar is extraneous',
			),
		);
		expect(await post({ label: 5, foo: 1 })).toEqual(
			payload(
				'body.label is none of string, undefined\nbody.foo is extraneous\nbody.expiresAt is missing\nbody.foo is extraneous',
			),
		);
		expect(await post({ expiresAt: '2099-13-45' })).toEqual({ error: 'Invalid expiresAt' });
		expect(await patch({ expiresAt: 5 })).toEqual(
			payload(
				'body is not a ServiceAccountAllOptional; body.expiresAt is none of string, undefined',
			),
		);
		expect(await patch({ foo: 1, bar: 2 })).toEqual(
			payload(
				'body is not a ServiceAccountAllOptional\n    body.foo is extraneous\n    body.bar is extraneous',
			),
		);
		expect(await patch({ label: 'x' })).toEqual({ error: 'This Service Account does not exist' });
		const nan = await owner.get<ErrorBody>('/api/service-accounts/abc');
		expect([nan.status, nan.json.error]).toEqual([500, 'SQLITE_ERROR: no such column: NaN']);
	});
});

emulatorOnly('the real server has service accounts on (GRIST_ENABLE_SERVICE_ACCOUNTS)').it(
	'a server without service accounts has no such route',
	async () => {
		const off = await startEmulator();
		try {
			const u = off.addUser({ email: 'x@example.com' });
			const c = client(off, u.apiKey);
			for (const [method, path] of [
				['GET', '/api/service-accounts'],
				['POST', '/api/service-accounts'],
				['GET', '/api/service-accounts/1'],
				['DELETE', '/api/service-accounts/1/apikey'],
			]) {
				const res = await c.call<ErrorBody>(method, path, method === 'POST' ? {} : undefined);
				expect([res.status, res.json.error]).toEqual([404, `not found: ${path}`]);
			}
		} finally {
			await off.close();
		}
	},
);

describe('organization usage', () => {
	it('gives owners the counts by data limit status and the attachments size', async () => {
		const res = await owner.get<{ attachments: { totalBytes: number } }>(
			`/api/orgs/${siteId}/usage`,
		);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			countsByDataLimitStatus: { approachingLimit: 0, gracePeriod: 0, deleteOnly: 0 },
			attachments: { totalBytes: expect.any(Number) },
		});
	});

	it('refuses others (403) and unknown organizations (404)', async () => {
		const denied = await other.get<ErrorBody>(`/api/orgs/${siteId}/usage`);
		expect([denied.status, denied.json.error]).toEqual([403, 'access denied']);
		const missing = await owner.get<ErrorBody>('/api/orgs/nope-no-such-org/usage');
		expect([missing.status, missing.json.error]).toEqual([404, 'organization not found']);
	});

	emulatorOnly('a site whose attachments only this test made').it(
		'adds up the attachments of the documents not in the trash',
		async () => {
			const ws = emu.addWorkspace(siteId, 'Files');
			const d = emu.addDoc(ws.id, { name: 'Files' });
			const before = (
				await owner.get<{ attachments: { totalBytes: number } }>(`/api/orgs/${siteId}/usage`)
			).json.attachments.totalBytes;
			emu.addAttachment(d.id, { fileName: 'a.txt', data: Buffer.from('12345') });
			const after = await owner.get<{ attachments: { totalBytes: number } }>(
				`/api/orgs/${siteId}/usage`,
			);
			expect(after.json.attachments.totalBytes).toBe(before + 5);
		},
	);
});

describe('formula timing', () => {
	const timing = (rest = '') => `/api/docs/${docId}/timing${rest}`;

	it('starts, measures, reports and stops', async () => {
		expect((await owner.get(timing())).json).toEqual({ status: 'disabled' });
		const notStarted = await owner.post<ErrorBody>(timing('/stop'));
		expect([notStarted.status, notStarted.json]).toEqual([
			400,
			{ error: `Timing not started for ${docId}` },
		]);
		const start = await owner.post(timing('/start'));
		expect([start.status, start.text, start.headers['content-type']]).toEqual([
			200,
			'OK',
			'text/plain; charset=utf-8',
		]);
		const twice = await owner.post<ErrorBody>(timing('/start'));
		expect([twice.status, twice.json]).toEqual([
			400,
			{ error: `Timing already started for ${docId}` },
		]);
		expect((await owner.get(timing())).json).toEqual({ status: 'active', timing: [] });
		await owner.post(`/api/docs/${docId}/tables/T/records`, { records: [{ fields: { A: 5 } }] });
		const active = await owner.get<{ status: string; timing: Array<Record<string, unknown>> }>(
			timing(),
		);
		expect(active.json.status).toBe('active');
		const b = active.json.timing.find((t) => t.colId === 'B');
		expect(b).toEqual({
			tableId: 'T',
			colId: 'B',
			sum: expect.any(Number),
			count: expect.any(Number),
			average: expect.any(Number),
			max: expect.any(Number),
		});
		const stop = await owner.post<Array<Record<string, unknown>>>(timing('/stop'));
		expect(stop.status).toBe(200);
		expect(stop.json.find((t) => t.colId === 'B')).toMatchObject({ tableId: 'T', colId: 'B' });
		expect((await owner.get(timing())).json).toEqual({ status: 'disabled' });
	});

	it('is for owners of the document only', async () => {
		const none = await other.get<ErrorBody>(`/api/docs/${closedDocId}/timing`);
		expect([none.status, none.json.error]).toEqual([403, 'No view access']);
		emu.setAccess('doc', docId, them.email, 'editors');
		try {
			for (const [method, path] of [
				['GET', ''],
				['POST', '/start'],
				['POST', '/stop'],
			]) {
				const res = await other.call<ErrorBody>(method, timing(path));
				expect([path, res.status, res.json.error]).toEqual([path, 403, 'No owner access']);
			}
		} finally {
			emu.setAccess('doc', docId, them.email, null);
		}
		const missing = await owner.get<ErrorBody>('/api/docs/nosuchdocument123456/timing');
		expect([missing.status, missing.json.error]).toEqual([404, 'document not found']);
	});
});
