/**
 * Grist's column-oriented /data answer turned into the records /records gives for the same rows
 * (grist-core DocApi `asRecords`): field order, hidden columns, formula errors.
 */
import { columnarToRecords } from '../../nodes/Grist/cells/columnarRecords';

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
