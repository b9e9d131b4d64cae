/**
 * Record → Get Many with conditions beyond Grist's equality filter: comparisons,
 * between, text search, is (not) empty, is one / none of, typed by the column and combined with
 * AND / OR, run as ONE parameterised SELECT on /sql (values bound, never spliced); rows decoded
 * exactly like the /records path (Simplify on and off give the same shapes). The equality
 * conditions with AND keep using GET /records.
 */
import { DateTime } from 'luxon';

import type { DemoSite, GristEmulator } from '../emulator';
import { oauth2Credential, rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { emulatorOnly } from '../harness/target';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Items', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Price', type: 'Numeric' },
		{ id: 'Qty', type: 'Int' },
		{ id: 'Active', type: 'Bool' },
		{ id: 'Due', type: 'Date' },
		{ id: 'Seen', type: 'DateTime:Europe/Paris' },
		{ id: 'Kind', type: 'Choice', widgetOptions: { choices: ['tool', 'part', 'kit'] } },
		{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['red', 'blue'] } },
		{ id: 'Buyer', type: 'Ref:Customers' },
	]);
	emu.addRecords(demo.docId, 'Items', [
		{
			Name: 'Hammer',
			Price: 12.5,
			Qty: 3,
			Active: true,
			Due: 1704067200,
			Seen: 1704100000,
			Kind: 'tool',
			Tags: ['L', 'red'],
			Buyer: 1,
		},
		{
			Name: 'nail',
			Price: 0.1,
			Qty: 500,
			Active: false,
			Due: 1706745600,
			Seen: null,
			Kind: 'part',
			Tags: ['L', 'red', 'blue'],
			Buyer: 2,
		},
		{
			Name: 'Saw 100%',
			Price: 30,
			Qty: 1,
			Active: true,
			Due: null,
			Seen: 1709251200,
			Kind: 'tool',
			Tags: null,
			Buyer: 0,
		},
		{
			Name: '',
			Price: null,
			Qty: 0,
			Active: false,
			Due: 1709251200,
			Seen: null,
			Kind: 'kit',
			Tags: ['L', 'blue'],
			Buyer: 1,
		},
	]);
});
const run = resourceRunner(fx, 'record');
type Cond = Record<string, unknown>;
const search = async (conditions: Cond[], more: Record<string, unknown> = {}) =>
	await run({
		operation: 'getAll',
		document: rl('id', demo.docId),
		table: rl('id', 'Items'),
		returnAll: true,
		filterType: 'conditions',
		conditions: { conditions },
		...more,
	});
const names = (r: { items: Array<{ json: Record<string, unknown> }> }) =>
	r.items.map((i) => i.json.Name);
const sqlBody = () =>
	emu.log.find((e) => e.apiPath.endsWith('/sql'))?.body as { sql: string; args: unknown[] };

describe('conditions typed by the column', () => {
	it.each<[string, Cond[], unknown[]]>([
		['Numeric >', [{ column: 'Price', match: 'gt', values: '10' }], ['Hammer', 'Saw 100%']],
		[
			'Numeric <= (empty cells never match)',
			[{ column: 'Price', match: 'lte', values: '12.5' }],
			['Hammer', 'nail'],
		],
		[
			'Int between',
			[{ column: 'Qty', match: 'between', values: '1', value2: '3' }],
			['Hammer', 'Saw 100%'],
		],
		[
			'Date >= from ISO text',
			[{ column: 'Due', match: 'gte', values: '2024-02-01' }],
			['nail', ''],
		],
		[
			'Date between',
			[{ column: 'Due', match: 'between', values: '2024-01-01', value2: '2024-02-01' }],
			['Hammer', 'nail'],
		],
		[
			'DateTime < from ISO with offset',
			[{ column: 'Seen', match: 'lt', values: '2024-03-01T00:00:00+01:00' }],
			['Hammer'],
		],
		[
			'Bool equals',
			[{ column: 'Active', match: 'equals', values: 'true' }],
			['Hammer', 'Saw 100%'],
		],
		['Bool not equals', [{ column: 'Active', match: 'notEquals', values: 'true' }], ['nail', '']],
		['Choice is none of', [{ column: 'Kind', match: 'noneOf', values: 'tool, kit' }], ['nail']],
		['ChoiceList contains', [{ column: 'Tags', match: 'contains', values: 'blue' }], ['nail', '']],
		[
			'ChoiceList is one of',
			[
				{ column: 'Tags', match: 'anyOf', values: '["red"]' },
				{ column: 'Qty', match: 'gt', values: '5' },
			],
			['nail'],
		],
		[
			'ChoiceList is empty',
			[
				{ column: 'Tags', match: 'isEmpty' },
				{ column: 'Qty', match: 'lte', values: '100' },
			],
			['Saw 100%'],
		],
		['Ref by row id', [{ column: 'Buyer', match: 'equals', values: '1' }], ['Hammer', '']],
		[
			'Ref is empty (0)',
			[
				{ column: 'Buyer', match: 'isEmpty' },
				{ column: 'Qty', match: 'gte', values: '0' },
			],
			['Saw 100%'],
		],
		[
			'Text contains (case-sensitive)',
			[{ column: 'Name', match: 'contains', values: 'a' }],
			['Hammer', 'nail', 'Saw 100%'],
		],
		[
			'Text contains, ignoring case',
			[{ column: 'Name', match: 'contains', values: 'SAW', ignoreCase: true }],
			['Saw 100%'],
		],
		[
			'Text contains a LIKE wildcard literally',
			[{ column: 'Name', match: 'contains', values: '0%', ignoreCase: true }],
			['Saw 100%'],
		],
		['Text starts with', [{ column: 'Name', match: 'startsWith', values: 'Ha' }], ['Hammer']],
		[
			'Text ends with, ignoring case',
			[{ column: 'Name', match: 'endsWith', values: 'IL', ignoreCase: true }],
			['nail'],
		],
		[
			'Text is not empty',
			[{ column: 'Name', match: 'isNotEmpty' }],
			['Hammer', 'nail', 'Saw 100%'],
		],
		[
			'Text equals ignoring case',
			[{ column: 'Name', match: 'equals', values: 'NAIL', ignoreCase: true }],
			['nail'],
		],
		[
			'Text does not contain (empty cells included)',
			[{ column: 'Name', match: 'notContains', values: 'a' }],
			[''],
		],
		['row id greater than', [{ column: 'id', match: 'gt', values: '2' }], ['Saw 100%', '']],
	])('%s', async (_title, conditions, expected) => {
		const result = await search(conditions);
		expect(result.error).toBeUndefined();
		expect(names(result)).toEqual(expected);
		expect(emu.log.map((e) => `${e.method} ${e.apiPath.split('/').pop()}`)).toEqual([
			'GET columns',
			'POST sql',
		]);
	});

	it('an n8n date (luxon DateTime) as the value', async () => {
		const result = await run(
			{
				operation: 'getAll',
				document: rl('id', demo.docId),
				table: rl('id', 'Items'),
				returnAll: true,
				filterType: 'conditions',
				conditions: { conditions: [{ column: 'Due', match: 'lt', values: '={{ $json.when }}' }] },
			},
			{ input: [{ json: { when: DateTime.fromISO('2024-01-15T00:00:00Z') as never } }] },
		);
		expect(result.error).toBeUndefined();
		expect(names(result)).toEqual(['Hammer']);
	});
});

describe('AND / OR, sort, limit, and the SQL sent', () => {
	it('OR of two conditions, sorted descending with a limit: one parameterised statement', async () => {
		const result = await search(
			[
				{ column: 'Kind', match: 'anyOf', values: "part, it's" },
				{ column: 'Price', match: 'gte', values: '30' },
			],
			{
				combine: 'or',
				returnAll: false,
				limit: 5,
				sort: { rules: [{ column: 'Price', direction: 'desc' }] },
			},
		);
		expect(result.error).toBeUndefined();
		expect(names(result)).toEqual(['Saw 100%', 'nail']);
		const body = sqlBody();
		expect(body.sql).toBe(
			'SELECT * FROM "Items" WHERE ("Kind" IN (?, ?)) OR ((typeof("Price") IN (\'integer\', \'real\') AND "Price" >= ?)) ORDER BY "Price" DESC, "id" ASC LIMIT ?',
		);
		expect(body.args).toEqual(['part', "it's", 30, 5]);
	});

	it("equality conditions with AND keep using Grist's filter on GET /data (no SQL)", async () => {
		const result = await search([{ column: 'Kind', match: 'anyOf', values: 'tool' }]);
		expect(names(result)).toEqual(['Hammer', 'Saw 100%']);
		expect(emu.log.map((e) => `${e.method} ${e.apiPath.split('/').pop()}`)).toEqual([
			'GET columns',
			'GET data',
		]);
	});

	it('gives the same shapes as the /records path, Simplify on and off', async () => {
		for (const simplify of [true, false]) {
			const viaRecords = await search(
				[{ column: 'Kind', match: 'anyOf', values: 'tool, part, kit' }],
				{ simplify },
			);
			const viaSql = await search([{ column: 'Qty', match: 'gte', values: '0' }], { simplify });
			expect(viaSql.items.map((i) => i.json)).toEqual(viaRecords.items.map((i) => i.json));
			const hidden = await search([{ column: 'Qty', match: 'gte', values: '0' }], {
				simplify,
				options: { includeHidden: true },
			});
			const hiddenRecords = await search(
				[{ column: 'Kind', match: 'anyOf', values: 'tool, part, kit' }],
				{ simplify, options: { includeHidden: true } },
			);
			expect(hidden.items.map((i) => i.json)).toEqual(hiddenRecords.items.map((i) => i.json));
		}
	});

	it('sort with Empty Last and Order By Choice', async () => {
		const result = await search([{ column: 'Qty', match: 'gte', values: '0' }], {
			sort: {
				rules: [
					{ column: 'Kind', direction: 'asc', orderByChoice: true },
					{ column: 'Due', direction: 'asc', emptyLast: true },
				],
			},
		});
		expect(names(result)).toEqual(['Hammer', 'Saw 100%', 'nail', '']);
	});
});

describe('bad input and refusals', () => {
	it.each<[string, Cond[], RegExp]>([
		[
			'a number that is not a number',
			[{ column: 'Price', match: 'gt', values: 'cheap' }],
			/Condition 1 \(Price Greater Than\): the value "cheap" does not fit a Numeric column.*\(Conditions, item 0\)/,
		],
		[
			'a date that is not a date',
			[{ column: 'Due', match: 'lt', values: 'soon' }],
			/Condition 1 \(Due Less Than\).*Date column/,
		],
		[
			'an unknown column',
			[{ column: 'Nope', match: 'gt', values: '1' }],
			/Condition 1: the table has no column "Nope"/,
		],
		[
			'contains on a number',
			[{ column: 'Price', match: 'contains', values: '1' }],
			/not available for a Numeric column/,
		],
		[
			'between without To',
			[{ column: 'Qty', match: 'between', values: '1' }],
			/upper bound \(To\) is empty/,
		],
		[
			'greater than on a toggle',
			[{ column: 'Active', match: 'gt', values: 'true' }],
			/not available for a Bool column/,
		],
		[
			'a name for a Ref that shows the row ID',
			[{ column: 'Buyer', match: 'equals', values: 'Alice' }],
			/Condition 1 \(Buyer\): "Alice" is not a row ID.*\(Conditions, item 0\)/,
		],
	])('%s: an error naming the condition and item, no request', async (_t, conditions, message) => {
		const { error } = await search(conditions);
		expect(error?.message).toMatch(message);
		expect(emu.log.map((e) => e.apiPath.split('/').pop())).toEqual(['columns']);
	});

	it('Natural Sort cannot go through SQL: said clearly', async () => {
		const { error } = await search([{ column: 'Qty', match: 'gt', values: '0' }], {
			sort: { rules: [{ column: 'Name', naturalSort: true }] },
		});
		expect(error?.message).toMatch(
			/Natural Sort is not available with these conditions \(Sort, item 0\)/,
		);
	});

	it('a 403 from /sql (access rules) gets a clear message', async () => {
		emu.fault({
			path: /\/sql$/,
			status: 403,
			body: { error: 'insufficient document access' },
			times: 1,
		});
		const { error } = await search([{ column: 'Qty', match: 'gt', values: '0' }]);
		expect(error?.message).toBe('Insufficient document access');
		expect(error?.description).toMatch(/Is One Of and Is Empty conditions combined with AND/);
	});

	emulatorOnly('the OAuth2 token is issued by the emulator’s OAuth server (emu.oauth)').it(
		'an OAuth2 credential: a clear message before any SQL; equality conditions still work',
		async () => {
			const app = emu.oauth.registerApp({
				redirectUris: ['http://localhost:5678/rest/oauth2-credential/callback'],
			});
			const token = emu.oauth.issue({
				userId: demo.userId,
				clientId: app.clientId,
				scopes: ['offline_access', 'doc:read'],
			});
			const oauthRun = (conditions: Cond[]) =>
				run(
					{
						authentication: 'oAuth2',
						operation: 'getAll',
						document: rl('id', demo.docId),
						table: rl('id', 'Items'),
						returnAll: true,
						filterType: 'conditions',
						conditions: { conditions },
					},
					{ otherCredentials: oauth2Credential(fx.site, app, token) },
				);
			const refused = await oauthRun([{ column: 'Qty', match: 'gt', values: '0' }]);
			expect(refused.error?.message).toMatch(/refuses to OAuth2 connections \(item 0\)/);
			expect(emu.log.some((e) => e.apiPath.endsWith('/sql'))).toBe(false);
			const ok = await oauthRun([{ column: 'Kind', match: 'anyOf', values: 'kit' }]);
			expect(ok.error).toBeUndefined();
			expect(ok.items.map((i) => i.json.Kind)).toEqual(['kit']);
		},
	);
});
