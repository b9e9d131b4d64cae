/**
 * Inputs of any size: Record → Get Many with a Filter (JSON) or an "Is One Of" condition of
 * thousands of values, Record → Get with thousands of row IDs and Columnar → Get Many give the
 * same items as the same rows read with a short query, in one POST …/records/list where the
 * server has it; an older server (404 for that route) is read with several GETs, each URL short
 * (a URL over Node's 16 KB is refused with 431), and a Sort that cannot be merged across them is
 * refused.
 */
import type { IDataObject } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import type { DemoSite, GristEmulator, RequestLogEntry } from '../emulator';
import { autoMap, byId, docTable, items, oauth2Credential } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { emittedJson } from '../harness/emitted';
import { createPoller } from '../harness/inprocess';
import { emulatorOnly } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;

const ROWS = 3000;
const email = (i: number) => `person${String(i).padStart(5, '0')}@example.com`;

beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Big', [
		{ id: 'Email', type: 'Text' },
		{ id: 'Due', type: 'Date' },
		{ id: 'Amount', type: 'Numeric' },
	]);
	const rows = Array.from({ length: ROWS }, (_, k) => ({
		Email: email(k + 1),
		Due: 1_704_844_800 + (k % 30) * 86_400,
		Amount: (k % 7) + 0.5,
	}));
	emu.addRecords(demo.docId, 'Big', rows);
});

const record = resourceRunner(fx, 'record', { defaults: () => docTable(demo.docId, 'Big') });
const columnar = resourceRunner(fx, 'columnar', { defaults: () => docTable(demo.docId, 'Big') });

/** The emails of rows 1…n (the first n rows). */
const firstEmails = (n: number) => Array.from({ length: n }, (_, k) => email(k + 1));

const tablePath = () => `/api/docs/${demo.docId}/tables/Big`;
/** The requests for the table's rows (the columns' read left out), as `METHOD last-segment status`. */
const rowRequests = () =>
	emu.log
		.filter((e: RequestLogEntry) => !e.apiPath.endsWith('/columns'))
		.map((e) => `${e.method} ${e.apiPath.slice(tablePath().length + 1)} ${e.status}`);

/** Whether `a` and `b` are the same JSON text, keys in the same order (without printing either). */
function expectSameJson(a: unknown, b: unknown): void {
	const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
	let k = 0;
	while (k < x.length && x[k] === y[k]) k++;
	expect(k === x.length && k === y.length ? 'same' : `differs at ${k}: ${x.slice(k, k + 80)}`).toBe(
		'same',
	);
}

const getMany = (extra: IDataObject) =>
	record({ operation: 'getAll', table: byId('Big'), returnAll: true, ...extra });

describe('Record → Get Many with a long filter', () => {
	it('Filter (JSON) of 1,500 e-mail addresses: one POST …/records/list, the items a short read gives', async () => {
		const expected = await getMany({ returnAll: false, limit: 1500 });
		expect(expected.error).toBeUndefined();
		emu.clearLog();
		const filterJson = JSON.stringify({ Email: firstEmails(1500) });
		// longer than the 16 KB a URL may have
		expect(encodeURIComponent(filterJson).length).toBeGreaterThan(16 * 1024);
		const { items: out, error } = await getMany({ filterType: 'json', filterJson });
		expect(error).toBeUndefined();
		expect(rowRequests()).toEqual(['POST records/list 200']);
		expect(out).toHaveLength(1500);
		expectSameJson(out, expected.items);
	});

	it('"Is One Of" with 10,000 values from an earlier node, with Sort and Limit: one request', async () => {
		const values = [...firstEmails(2000), ...Array.from({ length: 8000 }, (_, k) => `x${k}@none`)];
		const { items: out, error } = await getMany({
			filterType: 'conditions',
			conditions: { conditions: [{ column: 'Email', match: 'anyOf', values }] },
			sort: { rules: [{ column: 'Email', direction: 'desc' }] },
			returnAll: false,
			limit: 3,
		});
		expect(error).toBeUndefined();
		expect(rowRequests()).toEqual(['POST records/list 200']);
		expect(out.map((i) => i.json.Email)).toEqual([email(2000), email(1999), email(1998)]);
		const sent = emu.log.find((e) => e.apiPath.endsWith('/records/list'))?.body as IDataObject;
		expect(sent).toMatchObject({ sort: ['-Email'], limit: 3 });
		expect((sent.filter as { Email: string[] }).Email).toHaveLength(10_000);
	});

	it('keeps GET …/data for a short filter', async () => {
		const { error } = await getMany({
			filterType: 'json',
			filterJson: JSON.stringify({ Email: firstEmails(3) }),
		});
		expect(error).toBeUndefined();
		expect(rowRequests()).toEqual(['GET data 200']);
	});

	describe('a server without POST …/records/list (older than 1.7.14: 404)', () => {
		const missingRoute = () =>
			emu.fault({
				method: 'POST',
				path: `${tablePath()}/records/list`,
				status: 404,
				body: { error: `not found: ${tablePath()}/records/list` },
			});
		afterEach(() => emu.clearFaults());

		it('reads the rows with several GETs, each URL short, the same items', async () => {
			const expected = await getMany({ returnAll: false, limit: 1500 });
			emu.clearLog();
			missingRoute();
			const filterJson = JSON.stringify({ Email: [...firstEmails(1500), email(1)] });
			const { items: out, error } = await getMany({ filterType: 'json', filterJson });
			expect(error).toBeUndefined();
			const sent = rowRequests();
			expect(sent[0]).toBe('POST records/list 404');
			expect(sent.length).toBeGreaterThan(3);
			expect(new Set(sent.slice(1))).toEqual(new Set(['GET records 200']));
			for (const e of emu.log.slice(1))
				expect(
					new URLSearchParams(e.query as Record<string, string>).toString().length,
				).toBeLessThan(6500);
			// each row once, in row ID order
			expectSameJson(out, expected.items);
		});

		it('with Limit: the first rows by row ID', async () => {
			missingRoute();
			const values = firstEmails(1500).reverse();
			const { items: out, error } = await getMany({
				filterType: 'json',
				filterJson: JSON.stringify({ Email: values }),
				returnAll: false,
				limit: 4,
			});
			expect(error).toBeUndefined();
			expect(out.map((i) => i.json.id)).toEqual([1, 2, 3, 4]);
		});

		it('with Sort: refused, naming Sort and what to do, after the one 404', async () => {
			missingRoute();
			const { error } = await getMany({
				filterType: 'json',
				filterJson: JSON.stringify({ Email: firstEmails(1500) }),
				sort: { rules: [{ column: 'Email', direction: 'desc' }] },
			});
			expect(error?.message).toMatch(
				/^The filter is too long for one request to this Grist server \(older than 1\.7\.14\), and Sort cannot be applied across the \d+ requests it takes/,
			);
			expect(error?.message).toContain('Sort');
			expect(error?.description).toContain('Update Grist to 1.7.14 or later');
			expect(rowRequests()).toEqual(['POST records/list 404']);
		});

		it('a missing table is still its 404, no fallback', async () => {
			const { error } = await record({
				operation: 'getAll',
				table: byId('Nope'),
				returnAll: true,
				filterType: 'json',
				filterJson: JSON.stringify({ Email: firstEmails(1500) }),
			});
			expect(error?.message).toBe('Table not found "Nope"');
			const sent = emu.log.map((e) => `${e.method} ${e.apiPath.split('/').pop()} ${e.status}`);
			// the columns are read beside the records for Simplify
			expect(sent.filter((r) => !r.startsWith('GET columns'))).toEqual(['POST list 404']);
		});
	});
});

describe('Record → Get with thousands of row IDs', () => {
	it('2,500 items, one row ID each: one POST …/records/list, each item its row', async () => {
		const input = items(Array.from({ length: 2500 }, (_, k) => ({ id: ROWS - k })));
		const { items: out, error } = await record(
			{ operation: 'get', table: byId('Big'), rowId: '={{ $json.id }}' },
			{ input },
		);
		expect(error).toBeUndefined();
		expect(rowRequests()).toEqual(['POST records/list 200']);
		expect(out).toHaveLength(2500);
		expect(out[0].json).toMatchObject({ id: ROWS, Email: email(ROWS) });
		expect(out[2499].json).toMatchObject({ id: ROWS - 2499, Email: email(ROWS - 2499) });
		expect(out.every((o, k) => o.pairedItem && (o.pairedItem as { item: number }).item === k)).toBe(
			true,
		);
	});
});

describe('Columnar → Get Many with a long filter', () => {
	const filterJson = () => JSON.stringify({ Email: firstEmails(1500) });

	it('One Item per Row: the items a short read gives', async () => {
		const expected = await columnar({ operation: 'getAll', returnAll: false, limit: 1500 });
		expect(expected.error).toBeUndefined();
		emu.clearLog();
		const out = await columnar({
			operation: 'getAll',
			returnAll: true,
			filterType: 'json',
			filterJson: filterJson(),
		});
		expect(out.error).toBeUndefined();
		expect(rowRequests()).toEqual(['POST records/list 200']);
		expectSameJson(out.items, expected.items);
	});

	it('Columnar Object: the object GET …/data gives, hidden columns included; no row: its columns', async () => {
		const expected = await columnar({
			operation: 'getAll',
			output: 'raw',
			returnAll: false,
			limit: 1500,
		});
		const out = await columnar({
			operation: 'getAll',
			output: 'raw',
			returnAll: true,
			filterType: 'json',
			filterJson: filterJson(),
		});
		expect(out.error).toBeUndefined();
		expectSameJson(out.items, expected.items);
		expect(Object.keys(out.items[0].json)).toContain('manualSort');
		const none = await columnar({
			operation: 'getAll',
			output: 'raw',
			returnAll: true,
			filterType: 'json',
			filterJson: JSON.stringify({ Email: firstEmails(1500).map((e) => `no-${e}`) }),
		});
		expect(none.error).toBeUndefined();
		expect(none.items.map((i) => i.json)).toEqual([
			{ id: [], manualSort: [], Email: [], Due: [], Amount: [] },
		]);
	});
});

describe('references given by name, 1,500 of them, where /sql is refused (403)', () => {
	it("reads the names with Grist's filter in one request body", async () => {
		emu.addTable(demo.docId, 'BigOrders', [
			{ id: 'No', type: 'Int' },
			{ id: 'Owner', type: 'Ref:Big', visibleCol: 'Email' },
		]);
		emu.fault({
			method: 'POST',
			path: /\/sql$/,
			status: 403,
			body: { error: 'insufficient document access' },
			times: 10,
		});
		const input = items(Array.from({ length: 1500 }, (_, k) => ({ No: k, Owner: email(k + 1) })));
		const { items: out, error } = await record(
			{ operation: 'create', table: byId('BigOrders'), columns: autoMap() },
			{ input },
		);
		emu.clearFaults();
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1500);
		expect(out[0].json).toMatchObject({ No: 0, Owner: 1 });
		expect(out[1499].json).toMatchObject({ No: 1499, Owner: 1500 });
		const lists = emu.log.filter((e) => e.apiPath.endsWith('/Big/records/list'));
		// the rows the names found exist: no check of their IDs follows
		expect(lists.map((e) => Object.keys((e.body as { filter: object }).filter))).toEqual([
			['Email'],
		]);
		expect(lists.every((e) => e.status === 200)).toBe(true);
		expect(emu.log.some((e) => e.status === 431)).toBe(false);
	});
});

describe('Grist Trigger with an "Is One Of" filter of 2,000 values', () => {
	it('Row Added emits the new matching rows; its reads take the filter in request bodies', async () => {
		emu.addTable(demo.docId, 'Signups', [{ id: 'Email', type: 'Text' }]);
		const p = createPoller({
			node: new GristTrigger(),
			parameters: {
				...docTable(demo.docId, 'Signups'),
				filterType: 'conditions',
				conditions: {
					conditions: [{ column: 'Email', match: 'anyOf', values: firstEmails(2000) }],
				},
			},
			credentials: { apiKey: demo.apiKey, url: fx.site },
		});
		const poll = async () => {
			delete p.nodeStaticData.updatedAt;
			return await p.poll('trigger');
		};
		expect(await poll()).toBeNull();
		emu.addRecords(demo.docId, 'Signups', [
			{ Email: email(5) },
			{ Email: 'other@example.com' },
			{ Email: email(1999) },
		]);
		emu.clearLog();
		expect(emittedJson(await poll()).map((j) => j.Email)).toEqual([email(5), email(1999)]);
		expect(emu.log.some((e) => e.apiPath.endsWith('/Signups/records/list'))).toBe(true);
		expect(emu.log.every((e) => e.status === 200)).toBe(true);
	});
});

describe('OAuth2 (no POST …/records/list: several GETs)', () => {
	const oauthServer = emulatorOnly('needs the emulator’s OAuth server (not in grist-core)');
	const oauthRun = (parameters: IDataObject) => {
		const app = emu.oauth.registerApp({
			redirectUris: ['http://localhost:5678/rest/oauth2-credential/callback'],
		});
		const token = emu.oauth.issue({
			userId: demo.userId,
			clientId: app.clientId,
			scopes: ['offline_access', 'doc:read', 'doc:write'],
		});
		return record(
			{ authentication: 'oAuth2', operation: 'getAll', table: byId('Big'), ...parameters },
			{ otherCredentials: oauth2Credential(fx.site, app, token) },
		);
	};

	oauthServer.it(
		'Get Many with 1,500 values: GETs of …/records, each URL short, the same items',
		async () => {
			const expected = await getMany({ returnAll: false, limit: 1500 });
			emu.clearLog();
			const out = await oauthRun({
				returnAll: true,
				filterType: 'json',
				filterJson: JSON.stringify({ Email: firstEmails(1500) }),
			});
			expect(out.error).toBeUndefined();
			const sent = rowRequests();
			expect(sent.length).toBeGreaterThan(3);
			expect(new Set(sent)).toEqual(new Set(['GET records 200']));
			expectSameJson(out.items, expected.items);
		},
	);

	oauthServer.it('with Sort: refused before any request, saying to use an API key', async () => {
		const out = await oauthRun({
			returnAll: true,
			filterType: 'json',
			filterJson: JSON.stringify({ Email: firstEmails(1500) }),
			sort: { rules: [{ column: 'Email', direction: 'asc' }] },
		});
		expect(out.error?.message).toMatch(
			/^The filter is too long for one request with an OAuth2 connection, and Sort cannot be applied/,
		);
		expect(out.error?.description).toContain('Connect with an API key');
		expect(rowRequests()).toEqual([]);
	});
});
