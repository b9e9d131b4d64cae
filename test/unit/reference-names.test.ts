/**
 * References given by name, the pure part (docs/REFERENCES.md): what a typed value is (row ID,
 * name, empty), the value a name is looked up by, the verdict on what the lookup found, the
 * texts of a refusal, and names in Get Many's conditions.
 */
import {
	NamedReference,
	encodeReferenceInput,
	indexRows,
	lookupKey,
	nameLookupValue,
	referenceNameText,
	resolveNamedReference,
	type NameFinding,
	type ShownColumn,
} from '../../nodes/Grist/cells/referenceInput';
import { columnTypeText } from '../../nodes/Grist/cells/tableColumns';
import { conditionNames, withReferenceIds } from '../../nodes/Grist/query/conditionNames';
import { buildFilter } from '../../nodes/Grist/query/filters';

const named = (list: boolean, ...parts: Array<number | string>) => new NamedReference(list, parts);

describe('what a typed Reference value is', () => {
	it.each<[string, unknown, unknown]>([
		['a number is a row ID', 12, 12],
		['text of digits is a row ID (spaces ignored)', ' 12 ', 12],
		['0 clears', 0, 0],
		['empty text clears', '', 0],
		['spaces only clear', '   ', 0],
		['null clears', null, 0],
		['other text is a name, trimmed', '  Alice Martin ', named(false, 'Alice Martin')],
		['a negative number is a name', '-3', named(false, '-3')],
		['a decimal is a name', '12.5', named(false, '12.5')],
	])('Ref: %s', (_t, value, expected) => {
		expect(encodeReferenceInput(value, 'Ref:People')).toEqual(expected);
	});

	it('Ref: what is neither a row ID nor text is refused, saying what fits', () => {
		expect(() => encodeReferenceInput(true, 'Ref:People')).toThrow(
			'The value true does not fit a Ref:People column: a reference must be a row ID or the shown value of the referenced row (text)',
		);
		expect(() => encodeReferenceInput(1.5, 'Ref:People')).toThrow(
			'a reference must be a row ID (a whole number)',
		);
		expect(() => encodeReferenceInput(-1, 'Ref:People')).toThrow('a row ID');
	});

	it.each<[string, unknown, unknown]>([
		['an n8n array of IDs', [1, 2], ['L', 1, 2]],
		['an n8n array mixing IDs and names', ['Ann', 2, '3'], named(true, 'Ann', 2, 3)],
		['Grist’s ["L", …]', ['L', 4], ['L', 4]],
		['a JSON array (a name with a comma)', '["Dee, Jr.", 4]', named(true, 'Dee, Jr.', 4)],
		['comma-separated text, trimmed', ' Ann , 2 ,Cy ', named(true, 'Ann', 2, 'Cy')],
		['one number', 7, ['L', 7]],
		['empty entries are left out', 'Ann, , 2', named(true, 'Ann', 2)],
		['empty text clears', '', null],
		['an empty array clears', [], null],
		['null clears', null, null],
	])('RefList: %s', (_t, value, expected) => {
		expect(encodeReferenceInput(value, 'RefList:People')).toEqual(expected);
	});

	it('RefList: an object is refused', () => {
		expect(() => encodeReferenceInput({ a: 1 }, 'RefList:People')).toThrow(
			'expected row IDs or shown values',
		);
	});
});

describe('the value a name is looked up by', () => {
	const shown = (type: string): ShownColumn => ({ id: 'C', type, label: 'Label' });

	it('text columns: the name as it is', () => {
		expect(nameLookupValue('Ann', shown('Text'))).toEqual({ value: 'Ann' });
		expect(nameLookupValue('New', shown('Choice'))).toEqual({ value: 'New' });
		expect(nameLookupValue('x', shown('Any'))).toEqual({ value: 'x' });
	});

	it('numbers, dates and toggles: converted as a write stores them', () => {
		expect(nameLookupValue('12.5', shown('Numeric'))).toEqual({ value: 12.5 });
		expect(nameLookupValue('2024-01-31', shown('Date'))).toEqual({ value: 1706659200 });
		expect(nameLookupValue('yes', shown('Bool'))).toEqual({ value: true });
		expect(nameLookupValue('soon', shown('Date'))).toEqual({
			refused: '"soon" is neither a row ID nor a value of Label (Date)',
		});
	});

	it('list and reference columns cannot be matched by a name', () => {
		expect(nameLookupValue('a', shown('ChoiceList'))).toEqual({
			refused: '"a" is not a row ID, and rows are not found by their Label (a ChoiceList column)',
		});
	});

	it('keys: text and numbers apart; the index keeps every row of a value', () => {
		expect(lookupKey('12')).not.toBe(lookupKey(12));
		const index = indexRows([
			{ id: 2, value: 'Bob' },
			{ id: 3, value: 'Bob' },
			{ id: 1, value: 'Ann' },
			{ id: 4, value: null },
			{ id: 5, value: 1867 },
		]);
		expect(index.get(lookupKey('Bob'))).toEqual([2, 3]);
		expect(index.get(lookupKey(1867))).toEqual([5]);
		expect(index.size).toBe(3);
	});
});

describe('the verdict for a write', () => {
	const findings: Record<string, NameFinding> = {
		Ann: { ids: [1] },
		Bob: { ids: [2, 3] },
		Anne: { ids: [] },
		'x!': { refused: '"x!" is not a row ID' },
	};
	const findingOf = (name: string) => findings[name];

	it('each name gives its one row: a Ref its ID, a RefList the IDs in the order given', () => {
		expect(resolveNamedReference(named(false, 'Ann'), findingOf)).toEqual({ value: 1 });
		expect(resolveNamedReference(named(true, 4, 'Ann', 2), findingOf)).toEqual({
			value: ['L', 4, 1, 2],
		});
	});

	it('a name no row has or several rows have is a problem, each name once', () => {
		expect(resolveNamedReference(named(true, 'Bob', 'Anne', 'Bob', 'Ann'), findingOf)).toEqual({
			problems: [
				{ name: 'Bob', finding: { ids: [2, 3] } },
				{ name: 'Anne', finding: { ids: [] } },
			],
		});
	});

	it('the refusal names item, column, table, shown column and value, and says what to do', () => {
		const text = referenceNameText(3, 'Owner', 'People', 'Full name', [
			{ name: 'Anne', finding: { ids: [] } },
			{ name: 'Bob', finding: { ids: [3, 2] } },
		]);
		expect(text.message).toBe(
			'Item 3, column "Owner": no row of table "People" has Full name "Anne"; 2 rows of table "People" have Full name "Bob" (rows 2, 3)',
		);
		expect(text.description).toBe(
			'Names are matched exactly with the Full name of the referenced rows, case included (spaces around the value are ignored). Check the spelling, give the row ID, or add the row first. Give the row ID of the row you mean (e.g. 2), or make the Full name values unique in Grist. The item is not sent.',
		);
		const byId = referenceNameText(0, 'Plain', 'People', undefined, [
			{ name: 'x!', finding: findings['x!'] },
		]);
		expect(byId.message).toBe('Item 0, column "Plain": "x!" is not a row ID');
		expect(byId.description).toContain('takes row IDs only');
	});
});

describe('names in Get Many conditions', () => {
	const types = { Owner: 'Ref:People', Helpers: 'RefList:People', Title: 'Text', Qty: 'Int' };
	const ids: Record<string, number[]> = { Ann: [1], Bob: [2, 3], Anne: [] };
	const resolve = (conditions: Array<Record<string, unknown>>) =>
		withReferenceIds(
			conditions as never,
			types,
			(_column, name) => ({ ids: ids[name] ?? [] }),
			() => 'Name',
		);

	it('collects the names of Reference conditions only (not IDs, not other columns, not ranges)', () => {
		const names = conditionNames(
			[
				{ column: 'Owner', match: 'anyOf', values: 'Ann, 4, Bob' },
				{ column: 'Helpers', match: 'contains', values: 'Cy' },
				{ column: 'Title', match: 'equals', values: 'Ann' },
				{ column: 'Owner', match: 'gt', values: 'Dee' },
				{ column: 'Owner', values: ' Eve ' },
			],
			types,
		);
		expect([...names].map(([c, n]) => [c, [...n]])).toEqual([
			['Owner', ['Ann', 'Bob', 'Eve']],
			['Helpers', ['Cy']],
		]);
	});

	it('names become the IDs of every row that has them; one value of several rows widens the match', () => {
		expect(
			resolve([
				{ column: 'Owner', match: 'anyOf', values: 'Ann, 4, Bob' },
				{ column: 'Owner', match: 'equals', values: 'Bob' },
				{ column: 'Owner', match: 'notEquals', values: 'Ann' },
				{ column: 'Helpers', match: 'notContains', values: 'Bob' },
				{ column: 'Title', match: 'equals', values: 'Ann' },
			]),
		).toEqual([
			{ column: 'Owner', match: 'anyOf', values: [1, '4', 2, 3] },
			{ column: 'Owner', match: 'anyOf', values: [2, 3] },
			{ column: 'Owner', match: 'notEquals', values: [1] },
			{ column: 'Helpers', match: 'noneOf', values: [2, 3] },
			{ column: 'Title', match: 'equals', values: 'Ann' },
		]);
	});

	it("the IDs go into Grist's filter as numbers", () => {
		const [c] = resolve([{ column: 'Owner', match: 'anyOf', values: 'Bob, 7' }]);
		expect(buildFilter([c as never], types)).toEqual({ Owner: [2, 3, 7] });
	});

	it('a name no row has is refused, naming the condition, the shown column and the name', () => {
		expect(() => resolve([{ column: 'Owner', match: 'anyOf', values: 'Ann, Anne' }])).toThrow(
			'Condition 1 (Owner): no row of table "People" has Name "Anne"',
		);
	});
});

describe('the mapper label of a Reference', () => {
	it('names the shown column, or the row ID only', () => {
		expect(columnTypeText('Ref:People', 'Full name')).toBe(
			'Reference to People: row ID or Full name',
		);
		expect(columnTypeText('RefList:People', 'Name')).toBe(
			'Reference List to People: row IDs or Name, separated by commas (or a JSON array)',
		);
		expect(columnTypeText('Ref:People')).toBe('Reference to People: row ID');
	});
});
