/**
 * The in-memory Filter of the polling trigger's change events (query/rowMatch.ts) against the SQL
 * that Record → Get Many sends (query/recordConditions.ts), run on a real SQLite (sql.js) holding
 * the rows as Grist stores them: every condition must pick the same rows both ways.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- sql.js ships no types; CommonJS */
import type { Condition } from '../../nodes/Grist/query/conditionSql';
import { buildConditionQuery, sqlRecord } from '../../nodes/Grist/query/recordConditions';
import { checkConditions, filterMatches, rowMatches } from '../../nodes/Grist/query/rowMatch';
import { InputError } from '../../nodes/Grist/errors/gristAnswers';

interface SqlDatabase {
	run(sql: string, params?: unknown[]): void;
	exec(sql: string, params?: unknown[]): Array<{ columns: string[]; values: unknown[][] }>;
}

const types: Record<string, string> = {
	Name: 'Text',
	Status: 'Choice',
	Qty: 'Numeric',
	Day: 'Date',
	Ok: 'Bool',
	Tags: 'ChoiceList',
	Owner: 'Ref:People',
};

/** Rows as Grist's SQLite holds them (toggles 1/0, lists as JSON text, dates as epoch seconds). */
const ROWS: Array<Record<string, unknown>> = [
	{
		id: 1,
		Name: 'Apple',
		Status: 'Open',
		Qty: 5,
		Day: 1704067200,
		Ok: 1,
		Tags: '["a","b"]',
		Owner: 1,
	},
	{ id: 2, Name: 'apricot', Status: 'Done', Qty: 0, Day: null, Ok: 0, Tags: null, Owner: 0 },
	{ id: 3, Name: '', Status: '', Qty: 12.5, Day: 1706745600, Ok: 0, Tags: '["B"]', Owner: 2 },
	{
		id: 4,
		Name: 'Banana, ripe',
		Status: 'open',
		Qty: -3,
		Day: 1704067200,
		Ok: 1,
		Tags: '[]',
		Owner: 1,
	},
	{ id: 5, Name: null, Status: null, Qty: null, Day: null, Ok: null, Tags: '', Owner: null },
];

let db: SqlDatabase;

beforeAll(async () => {
	const sqlJs = await (require('sql.js') as () => Promise<{ Database: new () => SqlDatabase }>)();
	db = new sqlJs.Database();
	db.run(
		'CREATE TABLE "T" (id INTEGER PRIMARY KEY, "Name" TEXT, "Status" TEXT, "Qty" NUMERIC, "Day" NUMERIC, "Ok" INTEGER, "Tags" TEXT, "Owner" INTEGER)',
	);
	for (const r of ROWS)
		db.run('INSERT INTO "T" VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
			r.id,
			r.Name,
			r.Status,
			r.Qty,
			r.Day,
			r.Ok,
			r.Tags,
			r.Owner,
		]);
});

/** The ids the SQL picks. */
function sqlIds(conditions: Condition[], combine = 'and'): number[] {
	const q = buildConditionQuery({ tableId: 'T', conditions, combine, types });
	const [result] = db.exec(q.sql, q.args);
	return (result?.values ?? []).map((v) => Number(v[0]));
}

/** The ids the in-memory matcher picks, on the rows as /records gives them. */
function matchedIds(conditions: Condition[], combine = 'and'): number[] {
	checkConditions(conditions, types);
	return ROWS.map((r) => sqlRecord(r, types))
		.filter((row) => rowMatches(conditions, combine, types, row))
		.map((row) => row.id);
}

const CASES: Array<[string, Condition[], string?]> = [
	['Is One Of text', [{ column: 'Status', match: 'anyOf', values: 'Open, Done' }]],
	[
		'Is One Of, Ignore Case',
		[{ column: 'Status', match: 'anyOf', values: 'OPEN', ignoreCase: true }],
	],
	['Is One Of empty', [{ column: 'Name', match: 'anyOf', values: '' }]],
	['Is None Of', [{ column: 'Status', match: 'noneOf', values: 'Open' }]],
	['Equals number', [{ column: 'Qty', match: 'equals', values: '5' }]],
	['Not Equals number', [{ column: 'Qty', match: 'notEquals', values: '5' }]],
	['Equals toggle', [{ column: 'Ok', match: 'equals', values: 'true' }]],
	['Greater Than', [{ column: 'Qty', match: 'gt', values: '0' }]],
	['Greater Than or Equal', [{ column: 'Qty', match: 'gte', values: '5' }]],
	['Less Than', [{ column: 'Qty', match: 'lt', values: '5' }]],
	['Less Than or Equal date', [{ column: 'Day', match: 'lte', values: '2024-01-01' }]],
	[
		'Between dates',
		[{ column: 'Day', match: 'between', values: '2024-01-01', value2: '2024-02-01' }],
	],
	['Greater Than text', [{ column: 'Name', match: 'gt', values: 'B' }]],
	['Contains', [{ column: 'Name', match: 'contains', values: 'ap' }]],
	[
		'Contains, Ignore Case',
		[{ column: 'Name', match: 'contains', values: 'AP', ignoreCase: true }],
	],
	['Does Not Contain', [{ column: 'Name', match: 'notContains', values: 'a' }]],
	['Starts With', [{ column: 'Name', match: 'startsWith', values: 'Ban' }]],
	[
		'Ends With, Ignore Case',
		[{ column: 'Name', match: 'endsWith', values: 'RIPE', ignoreCase: true }],
	],
	['Is Empty text', [{ column: 'Name', match: 'isEmpty' }]],
	['Is Empty number', [{ column: 'Qty', match: 'isEmpty' }]],
	['Is Not Empty reference', [{ column: 'Owner', match: 'isNotEmpty' }]],
	['Is Empty list', [{ column: 'Tags', match: 'isEmpty' }]],
	['list Contains', [{ column: 'Tags', match: 'contains', values: 'a' }]],
	[
		'list Is One Of, Ignore Case',
		[{ column: 'Tags', match: 'anyOf', values: 'b', ignoreCase: true }],
	],
	['list Is None Of', [{ column: 'Tags', match: 'noneOf', values: 'a, B' }]],
	['reference Is One Of', [{ column: 'Owner', match: 'anyOf', values: '1' }]],
	['row ID Between', [{ column: 'id', match: 'between', values: '2', value2: '4' }]],
	[
		'AND',
		[
			{ column: 'Status', match: 'anyOf', values: 'Open', ignoreCase: true },
			{ column: 'Qty', match: 'gt', values: '0' },
		],
	],
	[
		'OR',
		[
			{ column: 'Status', match: 'equals', values: 'Done' },
			{ column: 'Day', match: 'isEmpty' },
		],
		'or',
	],
];

describe('the in-memory Filter picks the rows the SQL picks', () => {
	// a rest parameter: jest takes a third declared parameter of a two-column row for `done`
	it.each(CASES)('%s', (...[, conditions, combine]) => {
		const expected = sqlIds(conditions, combine);
		expect(matchedIds(conditions, combine)).toEqual(expected);
	});

	it('the cases are not trivial: each picks some rows and leaves some', () => {
		for (const [, conditions, combine] of CASES) {
			const n = sqlIds(conditions, combine).length;
			expect(n).toBeGreaterThan(0);
			expect(n).toBeLessThan(ROWS.length);
		}
	});

	it('no conditions: every row', () => {
		expect(rowMatches([], 'and', types, { id: 1, fields: {} })).toBe(true);
	});

	it('refuses what the SQL refuses, with the same message', () => {
		const bad: Condition[] = [{ column: 'Ok', match: 'gt', values: '1' }];
		expect(() => checkConditions(bad, types)).toThrow(InputError);
		expect(() => checkConditions(bad, types)).toThrow(
			'Condition 1 (Ok Greater Than): not available for a Bool column',
		);
		expect(() => checkConditions([{ column: 'Nope', values: 'x' }], types)).toThrow(
			'Condition 1: the table has no column "Nope"',
		);
	});
});

describe('a JSON filter on a row', () => {
	it("is Grist's record filter: keys ANDed, values ORed, stored values", () => {
		const row = { id: 7, fields: { Status: 'Open', Qty: 3, Ok: true } };
		expect(filterMatches({ Status: ['Open', 'Done'], Qty: [3] }, row)).toBe(true);
		expect(filterMatches({ Status: ['Done'] }, row)).toBe(false);
		expect(filterMatches({ id: [7], Ok: [true] }, row)).toBe(true);
		expect(filterMatches({ Missing: [null] }, row)).toBe(true);
	});
});
