/**
 * SQL Query → Run Query against the emulator's /sql (a real SQLite): `?` parameters
 * sent as a list, one item per row, values decoded by the queried tables' column types, and the
 * errors: non-SELECT, parameter count, timeout, SQLite errors, 403, OAuth2.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { oauth2Credential, rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => {
	({ emu, demo } = fx);
});
const run = resourceRunner(fx, 'sql');
const query = (q: string, parameters: unknown = '', options: Record<string, unknown> = {}) =>
	run({ operation: 'query', document: rl('id', demo.docId), query: q, parameters, options });
const calls = () =>
	emu.log.map((e) => `${e.method} ${e.apiPath.replace(`/api/docs/${demo.docId}`, '')}`);

describe('sql.query', () => {
	it('binds ? parameters from a JSON list and returns one decoded item per row', async () => {
		const { items, error } = await query(
			'SELECT id, Amount, Ordered, Tags, Status FROM Orders WHERE Amount > ? AND Status != ? ORDER BY Amount DESC',
			'[50, "New"]',
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{ id: 1, Amount: 120.5, Ordered: '2024-06-01', Tags: ['rush'], Status: 'Paid' },
		]);
		expect(calls()).toEqual(['POST /sql', 'GET /tables']);
		expect(emu.log[0].body).toEqual({
			sql: 'SELECT id, Amount, Ordered, Tags, Status FROM Orders WHERE Amount > ? AND Status != ? ORDER BY Amount DESC',
			args: [50, 'New'],
			timeout: 1000,
		});
		expect(emu.log[1].query).toEqual({ expand: 'column' });
	});

	it("with Decode Values off returns Grist's raw SQLite values; an array expression works as parameters", async () => {
		const { items } = await run({
			operation: 'query',
			document: rl('id', demo.doc2Id),
			query: 'SELECT Title, Done, Due FROM Tasks WHERE Done = ?',
			parameters: '={{ [true] }}',
			options: { decode: false },
		});
		expect(items.map((i) => i.json)).toEqual([{ Title: 'Write spec', Done: 1, Due: 1717243200 }]);
		expect(emu.log.map((e) => e.method)).toEqual(['POST']);
		expect((emu.log[0].body as { args: unknown[] }).args).toEqual([1]);
		emu.clearLog();
		const decoded = await run({
			operation: 'query',
			document: rl('id', demo.doc2Id),
			query: 'SELECT Title, Done, Due, 1 + 1 AS two FROM Tasks ORDER BY id',
		});
		expect(decoded.items.map((i) => i.json)).toEqual([
			{ Title: 'Write spec', Done: true, Due: '2024-06-01T12:00:00.000Z', two: 2 },
			{ Title: 'Build emulator', Done: false, Due: '2024-06-02T12:00:00.000Z', two: 2 },
		]);
	});

	it('a trailing semicolon (with spaces) and a last-line comment work, as typed in an editor', async () => {
		const { items, error } = await query(
			'SELECT Name FROM Customers WHERE id = ? ; \n-- first one',
			'[1]',
			{
				decode: false,
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ Name: 'Alice Martin' }]);
		expect((emu.log[0].body as { sql: string }).sql).toBe(
			'SELECT Name FROM Customers WHERE id = ?',
		);
	});

	it('a value containing quotes is bound, never spliced into the statement', async () => {
		const { items, error } = await query('SELECT Name FROM Customers WHERE Name = ?', [
			"x' OR '1'='1",
		]);
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	});

	it('refuses non-SELECT statements, a parameter count mismatch and bad parameters before any request', async () => {
		const cases: Array<[string, unknown, RegExp]> = [
			['DELETE FROM Orders', '', /Only SELECT statements.*\(Query, item 0\)/],
			[
				'SELECT * FROM Orders WHERE Amount > ?',
				'',
				/1 placeholder \(\?\) but 0 parameters were given/,
			],
			["SELECT '?' AS q FROM Orders WHERE id = ?", '[1, 2]', /1 placeholder .* 2 parameters/],
			['SELECT * FROM Orders WHERE id = ?', '{"a": 1}', /Parameters must be a list/],
			['SELECT * FROM Orders WHERE id = ?', '[[1]]', /Parameter 1 is a list/],
			['  ', '', /The Query is empty/],
		];
		for (const [sql, params, message] of cases) {
			emu.clearLog();
			const { error } = await query(sql, params);
			expect(error?.message).toMatch(message);
			expect(emu.log).toEqual([]);
		}
	});

	it('refuses a second statement and a WITH … DELETE before any request; a ; in a string is fine', async () => {
		const cases: Array<[string, RegExp]> = [
			[
				'SELECT 1; DELETE FROM Orders',
				/more than one statement \(a ; at character 9 is followed by more SQL\): Grist runs a single SELECT \(Query, item 0\)/,
			],
			["SELECT ';' AS s; DELETE FROM Orders;", /more than one statement \(a ; at character 16/],
			[
				'WITH x AS (SELECT 1) DELETE FROM Orders',
				/The statement after WITH is a DELETE, not a SELECT: only SELECT statements can be run \(Query, item 0\)/,
			],
		];
		for (const [sql, message] of cases) {
			emu.clearLog();
			const { error } = await query(sql);
			expect(error?.message).toMatch(message);
			expect(error?.description).toMatch(/Record operations/);
			expect(emu.log).toEqual([]);
		}
		emu.clearLog();
		const ok = await query("WITH x AS (SELECT ';' AS s) SELECT s FROM x; -- one statement", '', {
			decode: false,
		});
		expect(ok.error).toBeUndefined();
		expect(ok.items.map((i) => i.json)).toEqual([{ s: ';' }]);
		expect(calls()).toEqual(['POST /sql']);
	});

	it("passes Grist's errors with a hint: SQLite error, slow statement, 403", async () => {
		const bad = await query('SELECT Nope FROM Orders');
		expect(bad.error?.message).toMatch(/no such column: Nope/);
		expect(bad.error?.description).toMatch(/case-sensitive/);
		const slow = await query(
			'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT x FROM c',
			'',
			{ timeout: 5 },
		);
		expect(slow.error?.message).toBe('A slow statement resulted in a database interrupt');
		expect(slow.error?.description).toMatch(/longer than the timeout/);
		emu.fault({
			path: /\/sql$/,
			status: 403,
			body: { error: 'insufficient document access' },
			times: 1,
		});
		const denied = await query('SELECT * FROM Orders');
		expect(denied.error?.message).toBe('Insufficient document access');
		expect(denied.error?.description).toMatch(/read access to the whole document/);
	});

	it('with an OAuth2 credential: a clear message and no request', async () => {
		const result = await run(
			{
				authentication: 'oAuth2',
				operation: 'query',
				document: rl('id', demo.docId),
				query: 'SELECT 1',
			},
			{
				otherCredentials: oauth2Credential(
					fx.site,
					{ clientId: 'c', clientSecret: 's' },
					{ access_token: 'grist_at_x', token_type: 'Bearer' },
				),
			},
		);
		expect(result.error?.message).toMatch(/OAuth/);
		expect(result.error?.description).toMatch(/API Key/);
		expect(emu.log).toEqual([]);
	});
});
