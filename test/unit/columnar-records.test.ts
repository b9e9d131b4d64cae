/**
 * Grist's column-oriented /data answer turned into the records /records gives for the same rows
 * (grist-core DocApi `asRecords`): field order, hidden columns, formula errors; and Simplify's
 * output built straight from the columns, the same JSON text as Simplify of those records.
 */
import { simplifyRecord } from '../../nodes/Grist/cells/cellValues';
import { columnarToRecords, columnarToSimplified } from '../../nodes/Grist/cells/columnarRecords';

const data = {
	id: [1, 2, 3],
	manualSort: [1, 2, 3],
	Name: ['a', 'b', 'c'],
	Ratio: [0.5, ['E', 'ZeroDivisionError', 'division by zero', ''], ['E']],
	gristHelper_Display: ['x', 'y', 'z'],
	Tags: [['L', 'p'], null, ['L']],
};

test('the fields in the answer’s order without the helper columns; an error is a null cell plus errors[col] after fields', () => {
	const records = columnarToRecords(data, false);
	expect(JSON.stringify(records)).toBe(
		JSON.stringify([
			{ id: 1, fields: { Name: 'a', Ratio: 0.5, Tags: ['L', 'p'] } },
			{
				id: 2,
				fields: { Name: 'b', Ratio: null, Tags: null },
				errors: { Ratio: 'ZeroDivisionError' },
			},
			// an error without a name: Grist's `errors` is there but empty
			{ id: 3, fields: { Name: 'c', Ratio: null, Tags: ['L'] }, errors: {} },
		]),
	);
	expect(Object.keys(records[1])).toEqual(['id', 'fields', 'errors']);
});

test('hidden columns kept when asked, in their place', () => {
	const [first] = columnarToRecords(data, true);
	expect(Object.keys(first.fields)).toEqual([
		'manualSort',
		'Name',
		'Ratio',
		'gristHelper_Display',
		'Tags',
	]);
});

test('an empty table, and a table of no columns but id', () => {
	expect(columnarToRecords({ id: [] }, false)).toEqual([]);
	expect(columnarToRecords({ id: [4] }, false)).toEqual([{ id: 4, fields: {} }]);
});

const DAY = 86_400;
const typed = {
	id: [1, 2, 3, 4, 5],
	manualSort: [5, 4, 3, 2, 1],
	Name: ['a', null, '', 'd', ['E', 'TypeError']],
	Amount: [1.5, 0, -2, null, ['E']],
	Qty: [1, 2, 3, 4, 5],
	Active: [true, false, null, true, false],
	Due: [19_000 * DAY, 19_000 * DAY, null, -800_000 * DAY, 'not a date'],
	Updated: [1_700_000_000.5, 0, null, ['E', 'ValueError', 'bad', ''], 1_700_000_000],
	Local: [1_700_000_000, 1_700_000_001, null, 3, 4],
	Status: ['New', 'Open', null, '', 'New'],
	Tags: [['L', 'red'], ['L'], null, ['L', 'red', 'blue'], 'text'],
	Owner: [1, 0, 2, 0, 3],
	Owners: [['L', 1, 2], null, ['L'], ['r', 'People', [3]], ['R', 'People', 4]],
	Any: [['d', 19_000 * DAY], ['D', 1_700_000_000, 'UTC'], ['O', { a: 1 }], { x: 1 }, 'x'],
	gristHelper_Display: ['x', 'y', 'z', 'w', 'v'],
};
const types = {
	Name: 'Text',
	Amount: 'Numeric',
	Qty: 'Int',
	Active: 'Bool',
	Due: 'Date',
	Updated: 'DateTime:UTC',
	Local: 'DateTime:America/New_York',
	Status: 'Choice',
	Tags: 'ChoiceList',
	Owner: 'Ref:People',
	Owners: 'RefList:People',
	Any: 'Any',
};

test.each([false, true])(
	'Simplify from the columns is the JSON text of Simplify of the records (hidden columns: %s)',
	(includeHidden) => {
		const expected = columnarToRecords(typed, includeHidden).map((r) => simplifyRecord(r, types));
		const simplified = columnarToSimplified(typed, includeHidden, types);
		expect(JSON.stringify(simplified)).toBe(JSON.stringify(expected));
		expect(simplified[0].Due).toBe('2022-01-08');
		expect(simplified[3].errors).toEqual({ Updated: 'ValueError' });
		expect(Object.keys(simplified[4]).at(-1)).toBe('errors');
	},
);

test('Simplify from the columns: an empty table, and no column types', () => {
	expect(columnarToSimplified({ id: [] }, false, {})).toEqual([]);
	expect(JSON.stringify(columnarToSimplified(typed, false, {}))).toBe(
		JSON.stringify(columnarToRecords(typed, false).map((r) => simplifyRecord(r, {}))),
	);
});
