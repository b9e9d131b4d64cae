import { InputError } from '../../nodes/Grist/errors/gristAnswers';
import {
	buildFilter,
	buildSort,
	conditionValues,
	emptyCellValues,
	parseJsonFilter,
} from '../../nodes/Grist/query/filters';

/** The error `fn` throws. */
function thrown(fn: () => unknown): unknown {
	try {
		fn();
	} catch (error) {
		return error;
	}
	throw new Error('expected an error');
}

const types = {
	Name: 'Text',
	Age: 'Int',
	Score: 'Numeric',
	Born: 'Date',
	Seen: 'DateTime:UTC',
	Owner: 'Ref:People',
	Active: 'Bool',
	Tags: 'ChoiceList',
};

describe('buildFilter', () => {
	it('types values by column: text that looks like a number stays text', () => {
		expect(
			buildFilter(
				[
					{ column: 'Name', values: '00123, 7' },
					{ column: 'Age', values: '30,41' },
					{ column: 'Score', values: [1.5] },
					{ column: 'Born', values: '2024-01-10' },
					{ column: 'Seen', values: '2024-01-10T00:00:00Z' },
					{ column: 'Owner', values: '3' },
					{ column: 'Active', values: 'true' },
					{ column: 'id', values: '1,2' },
				],
				types,
			),
		).toEqual({
			Name: ['00123', '7'],
			Age: [30, 41],
			Score: [1.5],
			Born: [1704844800],
			Seen: [1704844800],
			Owner: [3],
			Active: [true],
			id: [1, 2],
		});
	});

	it('keeps JSON-array values whole, merges repeated columns, and passes unknown columns as they are', () => {
		expect(
			buildFilter(
				[
					{ column: 'Name', values: '["a, b", 5]' },
					{ column: 'Name', values: 'c' },
					{ column: 'Other', values: '5' },
				],
				types,
			),
		).toEqual({ Name: ['a, b', '5', 'c'], Other: ['5'] });
		expect(conditionValues('')).toEqual(['']);
		expect(buildFilter([{ column: 'Age', values: '' }], types)).toEqual({ Age: [null] });
	});

	it('rejects values that do not fit the column, naming it', () => {
		expect(() => buildFilter([{ column: 'Age', values: 'old' }], types)).toThrow(InputError);
		expect(thrown(() => buildFilter([{ column: 'Age', values: 'old' }], types))).toMatchObject({
			field: 'Conditions',
		});
		expect(() => buildFilter([{ column: 'Age', values: 'old' }], types)).toThrow(
			'Filter on column "Age"',
		);
		expect(() => buildFilter([{ column: 'Owner', values: 'Alice' }], types)).toThrow('row ID');
		expect(() => buildFilter([{ column: ' ', values: '1' }], types)).toThrow(
			'Filter condition 1 has no column',
		);
	});
});

describe('"Is Empty" conditions', () => {
	it('match the empty cell of each column type (text: empty or none; reference: row 0; others: no value)', () => {
		expect(
			buildFilter(
				[
					{ column: 'Name', match: 'isEmpty', values: 'ignored' },
					{ column: 'Age', match: 'isEmpty' },
					{ column: 'Score', match: 'isEmpty' },
					{ column: 'Born', match: 'isEmpty' },
					{ column: 'Owner', match: 'isEmpty' },
					{ column: 'Active', match: 'isEmpty' },
					{ column: 'Tags', match: 'isEmpty' },
					{ column: 'Formula', match: 'isEmpty' },
				],
				types,
			),
		).toEqual({
			Name: ['', null],
			Age: [null],
			Score: [null],
			Born: [null],
			Owner: [0],
			Active: [null],
			Tags: [null],
			Formula: ['', null],
		});
		expect(emptyCellValues('Choice')).toEqual(['', null]);
		expect(emptyCellValues('RefList:People')).toEqual([null]);
	});

	it('merge with "Is One Of" values of the same column (ORed)', () => {
		expect(
			buildFilter(
				[
					{ column: 'Name', match: 'anyOf', values: 'Ann' },
					{ column: 'Name', match: 'isEmpty' },
				],
				types,
			),
		).toEqual({ Name: ['Ann', '', null] });
	});

	it('conditions saved before "Match" existed (no match key) keep their meaning, empty Values included', () => {
		expect(
			buildFilter(
				[
					{ column: 'Name', values: '' },
					{ column: 'Age', values: '30' },
				],
				types,
			),
		).toEqual({
			Name: [''],
			Age: [30],
		});
	});

	it('refuse the row ID, which is never empty', () => {
		expect(() => buildFilter([{ column: 'id', match: 'isEmpty' }], types)).toThrow(
			'Filter condition 1: the row ID (id) is never empty',
		);
	});
});

describe('parseJsonFilter', () => {
	it('parses objects of arrays', () => {
		expect(parseJsonFilter('{"Status": ["Open"], "id": [1]}')).toEqual({
			Status: ['Open'],
			id: [1],
		});
		expect(parseJsonFilter({ A: [1] })).toEqual({ A: [1] });
		expect(parseJsonFilter('  ')).toEqual({});
	});

	it.each([
		['{"Status": ["Open"]', 'is not valid JSON'],
		['["Open"]', 'must be a JSON object'],
		['{"Status": "Open"}', 'value for column "Status" must be an array'],
		['42', 'must be a JSON object'],
	])('rejects %s before any request', (input, message) => {
		expect(() => parseJsonFilter(input)).toThrow(InputError);
		expect(thrown(() => parseJsonFilter(input))).toMatchObject({ field: 'Filter (JSON)' });
		expect(() => parseJsonFilter(input)).toThrow(message);
	});
});

describe('buildSort', () => {
	it("writes Grist's sort syntax with its real option names", () => {
		expect(buildSort([{ column: 'Name' }])).toBe('Name');
		expect(
			buildSort([
				{ column: 'Age', direction: 'desc', emptyLast: true },
				{ column: 'Name', naturalSort: true, orderByChoice: true },
			]),
		).toBe('-Age:emptyLast,Name:naturalSort;orderByChoice');
		expect(() => buildSort([{ column: '' }])).toThrow('Sort rule 1 has no column');
	});
});
