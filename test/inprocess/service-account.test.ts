/**
 * Service Account operations run through n8n-core against the emulator (service accounts on):
 * exact requests, outputs (the key only from Create and Create New Key), paired items, bad input
 * before any request, Grist's refusals with their hints, Continue On Fail, the key hidden in
 * later errors, a server without service accounts, and the tool variant refusing the key.
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { loadOptions, runNode } from '../harness/inprocess';
import { emulatorOnly, workspaceName } from '../harness/target';

const fx = useDemoSite({ serviceAccounts: true });
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.apiPath}`);
const run = resourceRunner(fx, 'serviceAccount');
const records = resourceRunner(fx, 'record');

/**
 * A label the real run's sweep recognises (its prefix), plain with the emulator. Against a real
 * Grist the facade deletes every account the tests create through it when the file ends.
 */
const label = (name: string) => workspaceName(`n8n ${name}`);

async function create(name: string, expiresAt = '2099-01-31T00:00:00Z') {
	const res = await run({ operation: 'create', label: label(name), expiresAt });
	expect(res.error).toBeUndefined();
	const json = res.items[0].json as { id: number; key: string; login: string };
	return json;
}

describe('create', () => {
	it('creates an account and outputs it once with its key; the request carries what was typed', async () => {
		const { items, error } = await run({
			operation: 'create',
			label: label('invoices'),
			expiresAt: '2099-01-31T12:00:00+01:00',
			additionalFields: { description: 'reads the invoices document' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toEqual({
			id: expect.any(Number),
			login: expect.stringMatching(/@serviceaccounts\.invalid$/),
			key: expect.stringMatching(/^[0-9a-f]{40}$/),
			label: label('invoices'),
			description: 'reads the invoices document',
			expiresAt: '2099-01-31T11:00:00.000Z',
			hasValidKey: true,
		});
		expect(requests()).toEqual(['POST /api/service-accounts']);
		expect(emu.log[0].body).toEqual({
			expiresAt: '2099-01-31T11:00:00.000Z',
			label: label('invoices'),
			description: 'reads the invoices document',
		});
	});

	it('a date without a time zone is in the workflow time zone', async () => {
		const { items, error } = await run({
			operation: 'create',
			label: label('tz'),
			expiresAt: '2099-06-01T00:00:00',
		});
		expect(error).toBeUndefined();
		// n8n's default time zone (America/New_York), summer time
		expect(items[0].json.expiresAt).toBe('2099-06-01T04:00:00.000Z');
	});

	it('refuses an empty or unreadable expiry before any request', async () => {
		const empty = await run({ operation: 'create', label: label('x'), expiresAt: '={{ "" }}' });
		expect(empty.error?.message).toBe('Expires At is empty (item 0)');
		const bad = await run({ operation: 'create', label: label('x'), expiresAt: '={{ "soon" }}' });
		expect(bad.error?.message).toBe('Expires At is not a date: "soon" (item 0)');
		expect(bad.error?.description).toContain('2027-01-31');
		expect(emu.log).toHaveLength(0);
	});

	it('hides a key Grist answered in the errors of later items', async () => {
		const key = 'f'.repeat(40);
		emu.fault({
			method: 'POST',
			path: '/api/service-accounts',
			status: 200,
			body: { id: 424242, login: 'x@serviceaccounts.invalid', key, label: '', description: '' },
		});
		emu.fault({
			method: 'POST',
			path: '/api/service-accounts',
			status: 400,
			body: { error: `cannot reuse ${key}` },
		});
		const { items, error } = await run(
			{ operation: 'create', label: label('x'), expiresAt: '2099-01-01T00:00:00Z' },
			{ continueOnFail: true, input: [{ json: {} }, { json: {} }] },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json.key).toBe(key);
		expect(items[1].json.error).toBe('Cannot reuse ***');
		expect(JSON.stringify(items[1].json)).not.toContain(key);
	});
});

describe('get many, get, update', () => {
	it('lists the accounts without keys, limited; gets one by ID or from the list', async () => {
		const a = await create('listed');
		const all = await run({ operation: 'getAll', returnAll: true });
		expect(all.error).toBeUndefined();
		const mine = all.items.find((i) => i.json.id === a.id);
		expect(mine?.json).toMatchObject({ id: a.id, login: a.login, hasValidKey: true });
		expect(all.items.every((i) => !('key' in i.json))).toBe(true);
		const one = await run({ operation: 'getAll', returnAll: false, limit: 1 });
		expect(one.items).toHaveLength(1);

		const got = await run({ operation: 'get', serviceAccount: rl('list', String(a.id)) });
		expect(got.items[0].json).toEqual({ ...mine?.json });
		emu.clearLog();
		await run({ operation: 'get', serviceAccount: rl('id', ` ${a.id} `) });
		expect(requests()).toEqual([`GET /api/service-accounts/${a.id}`]);
	});

	it('the picker lists the accounts by label, searchable, marking one without a key', async () => {
		const a = await create('picker one');
		const b = await create('picker two');
		await run({ operation: 'revokeKey', serviceAccount: rl('id', String(b.id)) });
		const result = (await loadOptions({
			node: new Grist(),
			kind: 'listSearch',
			method: 'searchServiceAccounts',
			parameters: { resource: 'serviceAccount', operation: 'get' } as never,
			filter: 'PICKER',
			credentials: { apiKey: demo.apiKey, url: fx.site },
		})) as { results: Array<{ name: string; value: string }> };
		expect(result.results.filter((r) => [a.id, b.id].map(String).includes(r.value))).toEqual([
			{ name: label('picker one'), value: String(a.id) },
			{ name: `${label('picker two')} (no key)`, value: String(b.id) },
		]);
	});

	it('updates what is given and returns the account as it is now', async () => {
		const a = await create('before');
		emu.clearLog();
		const { items, error } = await run({
			operation: 'update',
			serviceAccount: rl('id', String(a.id)),
			updateFields: { label: label('after'), expiresAt: '2098-03-04T05:06:07Z' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: a.id,
			label: label('after'),
			expiresAt: '2098-03-04T05:06:07.000Z',
		});
		expect(requests()).toEqual([
			`PATCH /api/service-accounts/${a.id}`,
			`GET /api/service-accounts/${a.id}`,
		]);
		expect(emu.log[0].body).toEqual({
			label: label('after'),
			expiresAt: '2098-03-04T05:06:07.000Z',
		});
	});

	it('refuses an empty label or no field at all before any request (Grist would ignore them)', async () => {
		const a = await create('empty');
		emu.clearLog();
		const empty = await run({
			operation: 'update',
			serviceAccount: rl('id', String(a.id)),
			updateFields: { label: ' ' },
		});
		expect(empty.error?.message).toBe('Label is empty (item 0)');
		expect(empty.error?.description).toContain('Grist cannot clear the label');
		const none = await run({
			operation: 'update',
			serviceAccount: rl('id', String(a.id)),
			updateFields: {},
		});
		expect(none.error?.message).toBe('Nothing to update (item 0)');
		const notId = await run({ operation: 'get', serviceAccount: rl('id', '={{ "abc" }}') });
		expect(notId.error?.message).toBe(
			'The Service Account ID "abc" is not a whole number (item 0)',
		);
		expect(emu.log).toHaveLength(0);
	});
});

describe('the key in a credential, a new key, revoke, delete', () => {
	it('a key works for what is shared with the account, until it is replaced or revoked', async () => {
		const a = await create('reader');
		emu.setAccess('doc', demo.docId, a.login, 'viewers');
		const read = (apiKey: string) =>
			records(
				{
					operation: 'getAll',
					document: rl('id', demo.docId),
					table: rl('id', 'Customers'),
					returnAll: true,
				},
				{ apiKey },
			);
		const first = await read(a.key);
		expect(first.error).toBeUndefined();
		expect(first.items.length).toBeGreaterThan(0);

		const rotated = await run({ operation: 'createKey', serviceAccount: rl('id', String(a.id)) });
		expect(rotated.error).toBeUndefined();
		const key2 = rotated.items[0].json.key as string;
		expect(key2).toMatch(/^[0-9a-f]{40}$/);
		expect(key2).not.toBe(a.key);
		expect((await read(a.key)).error?.message).toBe('Bad request: invalid API key');
		expect((await read(key2)).error).toBeUndefined();

		emu.clearLog();
		const revoked = await run({ operation: 'revokeKey', serviceAccount: rl('id', String(a.id)) });
		expect(revoked.error).toBeUndefined();
		expect(revoked.items[0].json).toMatchObject({ id: a.id, hasValidKey: false });
		expect('key' in revoked.items[0].json).toBe(false);
		expect(requests()).toEqual([
			`DELETE /api/service-accounts/${a.id}/apikey`,
			`GET /api/service-accounts/${a.id}`,
		]);
		expect((await read(key2)).error?.httpCode).toBe('401');

		emu.clearLog();
		const del = await run({ operation: 'delete', serviceAccount: rl('id', String(a.id)) });
		expect(del.items[0].json).toEqual({ id: a.id, deleted: true });
		expect(requests()).toEqual([`DELETE /api/service-accounts/${a.id}`]);
		const gone = await run({ operation: 'get', serviceAccount: rl('id', String(a.id)) });
		expect(gone.error?.message).toBe('This Service Account does not exist');
		expect(gone.error?.description).toBe(
			'The Service Account of item 0 does not exist (deleted, or a wrong ID). Pick one from the list.',
		);
	});

	it("another user's account is refused with a hint; Continue On Fail goes on per item", async () => {
		const a = await create('not theirs');
		const { items, error } = await run(
			{ operation: 'get', serviceAccount: rl('id', '={{ $json.id }}') },
			{
				apiKey: demo.viewerApiKey,
				continueOnFail: true,
				input: [{ json: { id: a.id } }, { json: { id: 'x' } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json).toMatchObject({
			error: 'Cannot access non-owned service account',
			httpCode: '403',
		});
		expect(items[0].json.description).toContain('Only the user who created a service account');
		expect(items[1].json.error).toBe('The Service Account ID "x" is not a whole number (item 1)');
	});
});

emulatorOnly('the real server has service accounts on (GRIST_ENABLE_SERVICE_ACCOUNTS)').it(
	'a server without service accounts: an error saying the server must enable them',
	async () => {
		const off = await startEmulator();
		try {
			const u = off.addUser({ email: 'solo@example.com' });
			for (const parameters of [
				{ operation: 'getAll', returnAll: true },
				{ operation: 'create', label: 'x', expiresAt: '2099-01-01T00:00:00Z' },
				{ operation: 'revokeKey', serviceAccount: rl('id', '3') },
			]) {
				const { error } = await runNode({
					node: new Grist(),
					parameters: { resource: 'serviceAccount', ...parameters } as never,
					credentials: { apiKey: u.apiKey, url: off.url },
				});
				expect(error?.message).toBe('This Grist server has no service accounts');
				expect(error?.description).toContain('GRIST_ENABLE_SERVICE_ACCOUNTS=true');
			}
		} finally {
			await off.close();
		}
	},
);

describe('as an AI agent tool', () => {
	class GristTool extends Grist {
		constructor() {
			super();
			this.description = { ...this.description, name: 'gristTool' };
		}
	}

	it('refuses to return a key, before any request; the other operations run', async () => {
		const tool = resourceRunner(fx, 'serviceAccount', { node: () => new GristTool() });
		for (const parameters of [
			{ operation: 'create', label: 'x', expiresAt: '2099-01-01T00:00:00Z' },
			{ operation: 'createKey', serviceAccount: rl('id', '1') },
		]) {
			const { error } = await tool(parameters);
			expect(error?.message).toMatch(/returns an API key, which must not be handed to an AI agent/);
		}
		expect(emu.log).toHaveLength(0);
		const list = await tool({ operation: 'getAll', returnAll: true });
		expect(list.error).toBeUndefined();
	});
});
