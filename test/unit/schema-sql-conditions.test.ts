/** Pure helpers of the Table, Column and SQL operations: column specs (cells/columnSpecs.ts), SQL checks and decoding (query/sqlQuery.ts), conditions → SQL (query/recordConditions.ts). */
import { emptyTest } from '../../nodes/Grist/query/conditionSql';
import { buildConditionQuery, needsSql, sqlRecord } from '../../nodes/Grist/query/recordConditions';
import { InputError } from '../../nodes/Grist/errors/gristAnswers';
import {
	columnFields,
	columnSpecs,
	composeType,
	parseChoices,
	tableItem,
} from '../../nodes/Grist/cells/columnSpecs';
import {
	checkSqlQuery,
	countPlaceholders,
	decodeSqlValue,
	isSelectStatement,
	mainStatementAfterWith,
	normalizeSqlStatement,
	parseSqlArgs,
	referencedTables,
	resultColumnTypes,
	secondStatementAt,
	sqlToCellValue,
} from '../../nodes/Grist/query/sqlQuery';

describe('cells/columnSpecs', () => {
	it('composes types with time zone and referenced table, refusing bad ones', () => {
		expect(composeType({ type: 'DateTime' })).toBe('DateTime:UTC');
		expect(composeType({ type: 'DateTime', timezone: 'America/New_York' })).toBe(
			'DateTime:America/New_York',
		);
		expect(composeType({ type: 'Ref', refTable: 'People' })).toBe('Ref:People');
		expect(composeType({ type: 'RefList:People' })).toBe('RefList:People');
		expect(composeType({ type: 'Bool' })).toBe('Bool');
		expect(() => composeType({ type: 'Money' })).toThrow(/not a Grist column type/);
		expect(() => composeType({ type: 'Text:x' })).toThrow(/not a Grist column type/);
		expect(() => composeType({ type: 'RefList' })).toThrow(InputError);
		expect(() => composeType({ type: 'DateTime', timezone: 'Nowhere/Land' })).toThrow(
			/not a time zone/,
		);
	});

	it('parses choices from comma text, JSON arrays and arrays; anything else is refused', () => {
		expect(parseChoices('a, b ,, a')).toEqual(['a', 'b']);
		expect(parseChoices('["x, y", "z"]')).toEqual(['x, y', 'z']);
		expect(parseChoices(['p', 2])).toEqual(['p', '2']);
		expect(() => parseChoices('{"a": 1}')).toThrow(/must be a list/);
		expect(() => parseChoices(42)).toThrow(/must be a list/);
		expect(() => parseChoices('[{"a": 1}]')).toThrow(/list of texts/);
		expect(() => parseChoices('[1,')).toThrow(/not valid JSON/);
	});

	it('builds create and update fields; choices merge into the current widget options', () => {
		expect(columnFields({ type: 'Choice', choices: 'a,b', label: 'L' })).toEqual({
			type: 'Choice',
			label: 'L',
			isFormula: false,
			widgetOptions: '{"choices":["a","b"]}',
		});
		expect(columnFields({ formula: '$A + 1' })).toEqual({
			type: 'Text',
			formula: '$A + 1',
			isFormula: true,
		});
		expect(columnFields({ formula: 'NOW()', formulaKind: 'default', type: 'DateTime' })).toEqual({
			type: 'DateTime:UTC',
			formula: 'NOW()',
			isFormula: false,
			recalcWhen: 0,
		});
		expect(
			columnFields(
				{ choices: ['c'], type: 'ChoiceList' },
				{ update: true, currentWidgetOptions: { choices: ['a'], alignment: 'left' } },
			),
		).toEqual({ type: 'ChoiceList', widgetOptions: '{"choices":["c"],"alignment":"left"}' });
		expect(columnFields({ newId: 'B2', label: '' }, { update: true })).toEqual({ colId: 'B2' });
		expect(() => columnFields({ type: 'Numeric', choices: 'a' })).toThrow(/Choices are for Choice/);
		expect(() => columnFields({ formula: 'x', formulaKind: 'weird' })).toThrow(
			/not a formula kind/,
		);
	});

	it('checks ids and duplicates (case-insensitive, also against existing columns)', () => {
		expect(columnSpecs([{ id: 'A' }, { id: 'B', type: 'Int' }]).map((s) => s.id)).toEqual([
			'A',
			'B',
		]);
		expect(() => columnSpecs([{ id: 'A' }, { id: 'a' }])).toThrow(
			/used twice \(column 2 and column 1\)/,
		);
		expect(() => columnSpecs([{ id: 'Name' }], { existing: ['name'] })).toThrow(/and the table/);
		expect(() => columnSpecs([{ id: 'my col' }])).toThrow(/not valid/);
		expect(() => columnSpecs([{ id: '' }])).toThrow(/empty/);
		expect(() => columnSpecs([{ id: 'manualSort' }])).toThrow(/reserved/);
		try {
			columnSpecs([{ id: 'X', type: 'Nope' }]);
		} catch (error) {
			expect((error as InputError).field).toBe('Columns (column 1): Type');
			expect((error as Error).message).toBe('Column "X": "Nope" is not a Grist column type');
		}
	});

	it('marks summary tables', () => {
		expect(tableItem({ id: 'T', fields: { tableRef: 1, summarySourceTable: 0 } })).toEqual({
			id: 'T',
			isSummary: false,
			tableRef: 1,
		});
		expect(
			tableItem({ id: 'T_summary_A', fields: { tableRef: 2, summarySourceTable: 1 } }, []),
		).toEqual({
			id: 'T_summary_A',
			isSummary: true,
			tableRef: 2,
			summarySourceTable: 1,
			columns: [],
		});
	});
});

describe('query/sqlQuery', () => {
	it('recognises SELECT (and WITH) past comments; counts ? outside strings and comments', () => {
		expect(isSelectStatement('  -- hi\n/* x */ select 1')).toBe(true);
		expect(isSelectStatement('WITH a AS (SELECT 1) SELECT * FROM a')).toBe(true);
		expect(isSelectStatement("delete from T where x = 'select'")).toBe(false);
		expect(countPlaceholders(`select '?', "a?" from T where x = ? -- ?\n and y = ? /* ? */`)).toBe(
			2,
		);
		expect(countPlaceholders("select 'it''s ?' where a = ?")).toBe(1);
	});

	it('parses parameters as a list; booleans 1/0, dates epoch seconds; objects refused', () => {
		expect(parseSqlArgs('')).toEqual([]);
		expect(parseSqlArgs('[1, "a", true, null]')).toEqual([1, 'a', 1, null]);
		expect(parseSqlArgs([new Date('2024-01-01T00:00:00Z')])).toEqual([1704067200]);
		expect(() => parseSqlArgs('1, 2')).toThrow(/not a JSON array/);
		expect(() => parseSqlArgs('{"a":1}')).toThrow(/must be a list/);
		expect(() => parseSqlArgs([{ a: 1 }])).toThrow(/Parameter 1 is an object/);
		expect(() => parseSqlArgs([Infinity])).toThrow(/finite/);
	});

	it('normalises what Grist would trip over: trailing semicolons, a last-line -- comment', () => {
		expect(normalizeSqlStatement(' select 1 ;; \n')).toBe('select 1');
		expect(normalizeSqlStatement('select 1 -- the one')).toBe('select 1');
		expect(normalizeSqlStatement("select '--;' ; /* end */ -- x")).toBe("select '--;'");
		expect(normalizeSqlStatement('select [a;]')).toBe('select [a;]');
		expect(normalizeSqlStatement('select 1\nfrom T')).toBe('select 1\nfrom T');
	});

	it('checks a query before the request', () => {
		expect(() => checkSqlQuery('select ?', [1])).not.toThrow();
		expect(() => checkSqlQuery('update T set a = 1', [])).toThrow(/Only SELECT/);
		expect(() => checkSqlQuery('select ?, ?', [1])).toThrow(
			/2 placeholders \(\?\) but 1 parameter was given/,
		);
	});

	it('refuses a second statement: ; inside strings, quoted names and comments, and a trailing ;, do not count', () => {
		expect(secondStatementAt('select 1')).toBe(-1);
		expect(secondStatementAt('select 1 ;; -- done\n')).toBe(-1);
		expect(secondStatementAt(`select ';', "a;b", [c;], \`d;\` from T -- x; y\n /* ; */`)).toBe(-1);
		expect(secondStatementAt('SELECT 1; DELETE FROM T')).toBe(8);
		expect(secondStatementAt("select 'a'';' ; select 2")).toBe(14);
		expect(() => checkSqlQuery('SELECT 1; DELETE FROM T', [])).toThrow(
			/more than one statement \(a ; at character 9 is followed by more SQL\)/,
		);
		expect(() => checkSqlQuery('select 1; -- only a comment after', [])).not.toThrow();
		expect(() => checkSqlQuery("select ';' as s;", [])).not.toThrow();
	});

	it('refuses a WITH whose main statement is not a SELECT', () => {
		expect(mainStatementAfterWith('WITH x AS (SELECT 1) DELETE FROM T')).toBe('delete');
		expect(
			mainStatementAfterWith(
				'with recursive "a b"(n) as (select 1 union all select n+1 from "a b" where n < 3), c as not materialized (select 2) select * from "a b", c',
			),
		).toBe('select');
		expect(mainStatementAfterWith('(WITH x AS (SELECT ")") SELECT * FROM x)')).toBe('select');
		expect(mainStatementAfterWith('select 1')).toBeUndefined();
		expect(mainStatementAfterWith('with x as select 1')).toBeUndefined();
		expect(() => checkSqlQuery('WITH x AS (SELECT 1) DELETE FROM T', [])).toThrow(
			/statement after WITH is a DELETE, not a SELECT/,
		);
		expect(() => checkSqlQuery('with x as (select 1) insert into T select * from x', [])).toThrow(
			/is an INSERT/,
		);
		expect(() => checkSqlQuery('WITH x AS (SELECT ?) SELECT * FROM x', [1])).not.toThrow();
	});

	it('finds referenced tables and decodes values by their column types', () => {
		expect(
			referencedTables('select * from Orders o join "Big Table" b on 1 left join [X] '),
		).toEqual(['Orders', 'Big Table', 'X']);
		const types = resultColumnTypes(
			[
				{
					id: 'A',
					columns: [
						{ id: 'When', type: 'Date' },
						{ id: 'N', type: 'Int' },
					],
				},
				{
					id: 'B',
					columns: [
						{ id: 'N', type: 'Text' },
						{ id: 'Ok', type: 'Bool' },
					],
				},
				{ id: 'C', columns: [{ id: 'Z', type: 'Bool' }] },
			],
			['a', 'B'],
		);
		expect(types).toEqual({ When: 'Date', Ok: 'Bool' });
		expect(decodeSqlValue(1704067200, 'Date')).toBe('2024-01-01');
		expect(decodeSqlValue(1, 'Bool')).toBe(true);
		expect(decodeSqlValue('["a","b"]', 'ChoiceList')).toEqual(['a', 'b']);
		expect(decodeSqlValue('[3]', 'RefList:T')).toEqual([3]);
		expect(decodeSqlValue(5, undefined)).toBe(5);
		expect(sqlToCellValue('["a"]', 'ChoiceList')).toEqual(['L', 'a']);
		expect(sqlToCellValue('', 'ChoiceList')).toBeNull();
		expect(sqlToCellValue('not json', 'ChoiceList')).toBe('not json');
	});
});

describe('query/recordConditions', () => {
	const types = {
		Name: 'Text',
		N: 'Numeric',
		D: 'Date',
		B: 'Bool',
		L: 'ChoiceList',
		R: 'Ref:T',
		manualSort: 'ManualSortPos',
	};

	it('needs SQL for OR of several conditions and for matches beyond Is One Of / Is Empty', () => {
		expect(
			needsSql(
				[
					{ column: 'N', match: 'anyOf' },
					{ column: 'N', match: 'isEmpty' },
				],
				'and',
			),
		).toBe(false);
		expect(needsSql([{ column: 'N' }], 'or')).toBe(false);
		expect(needsSql([{ column: 'N' }, { column: 'Name' }], 'or')).toBe(true);
		expect(needsSql([{ column: 'N', match: 'gt' }], 'and')).toBe(true);
	});

	it('builds one parameterised SELECT; values never in the text', () => {
		const q = buildConditionQuery({
			tableId: 'My"Table',
			conditions: [
				{ column: 'Name', match: 'startsWith', values: "O'Brien" },
				{ column: 'D', match: 'between', values: '2024-01-01', value2: '2024-01-31' },
				{ column: 'B', match: 'equals', values: 'yes' },
				{ column: 'L', match: 'anyOf', values: 'a, b' },
			],
			combine: 'and',
			types,
			limit: 10,
		});
		expect(q.sql).not.toContain("O'Brien");
		expect(q.sql).toBe(
			'SELECT * FROM "My""Table" WHERE ((substr("Name", 1, length(?)) = ?)) AND ((typeof("D") IN (\'integer\', \'real\') AND "D" BETWEEN ? AND ?)) AND ("B" = ?) AND (EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid("L") THEN "L" ELSE \'[]\' END) WHERE value IN (?, ?))) ORDER BY "id" ASC LIMIT ?',
		);
		expect(q.args).toEqual(["O'Brien", "O'Brien", 1704067200, 1706659200, 1, 'a', 'b', 10]);
	});

	it('ignore case, empty tests by type, sort options', () => {
		const q = buildConditionQuery({
			tableId: 'T',
			conditions: [{ column: 'Name', match: 'contains', values: '50%_off', ignoreCase: true }],
			combine: 'or',
			types,
			choices: { Name: [] },
			sort: [{ column: 'N', direction: 'desc', emptyLast: true }],
		});
		expect(q.sql).toBe(
			'SELECT * FROM "T" WHERE (("Name" LIKE ? ESCAPE \'\\\')) ORDER BY CASE WHEN "N" IS NULL THEN 1 ELSE 0 END, "N" DESC, "id" ASC',
		);
		expect(q.args).toEqual(['%50\\%\\_off%']);
		expect(emptyTest('"R"', 'Ref:T')).toBe('("R" IS NULL OR "R" = 0)');
		expect(emptyTest('"Name"', 'Choice')).toBe('("Name" IS NULL OR "Name" = \'\')');
		expect(emptyTest('"N"', 'Numeric')).toBe('"N" IS NULL');
	});

	it('refuses what does not fit, as input errors naming the condition', () => {
		const build = (c: Record<string, unknown>) => () =>
			buildConditionQuery({ tableId: 'T', conditions: [c as never], combine: 'and', types });
		expect(build({ column: 'N', match: 'gt', values: 'x' })).toThrow(InputError);
		expect(build({ column: 'N', match: 'gt', values: 'x' })).toThrow(
			/Condition 1 \(N Greater Than\)/,
		);
		expect(build({ column: 'N', match: 'gt', values: '1, 2' })).toThrow(/exactly one value/);
		expect(build({ column: 'L', match: 'gt', values: 'a' })).toThrow(
			/not available for a ChoiceList/,
		);
		expect(build({ column: 'id', match: 'isEmpty' })).toThrow(/never empty/);
		expect(build({ column: 'N', match: 'near' })).toThrow(/"near" is not a condition/);
		expect(build({ column: '', match: 'gt' })).toThrow(/has no column/);
	});

	it('turns SQL rows back into /records records, hidden columns only on request', () => {
		const row = { id: 3, manualSort: 3, Name: 'x', B: 0, L: '["a"]', D: 1704067200 };
		expect(sqlRecord(row, types)).toEqual({
			id: 3,
			fields: { Name: 'x', B: false, L: ['L', 'a'], D: 1704067200 },
		});
		expect(sqlRecord(row, types, true).fields.manualSort).toBe(3);
		const marshalled = { id: 4, Name: { type: 'Buffer', data: [0x45] } };
		expect(sqlRecord(marshalled, types)).toEqual({ id: 4, fields: { Name: null } });
	});
});
