import {
	CellValueError,
	baseType,
	decodeCellValue,
	simplifyFields,
	simplifyRecord,
	type GristRecord,
} from '../../nodes/Grist/cells/cellValues';
import { encodeCellValue } from '../../nodes/Grist/cells/cellEncoding';

const JAN_10_2024 = 1704844800; // 2024-01-10T00:00:00Z

describe('decodeCellValue', () => {
	it('turns Date epoch seconds into YYYY-MM-DD and DateTime into ISO', () => {
		expect(decodeCellValue(JAN_10_2024, 'Date')).toBe('2024-01-10');
		expect(decodeCellValue(JAN_10_2024 + 3600.5, 'DateTime:America/New_York')).toBe(
			'2024-01-10T01:00:00.500Z',
		);
		expect(decodeCellValue(-86400, 'Date')).toBe('1969-12-31');
	});

	it('unwraps lists and typed codes; leaves the rest', () => {
		expect(decodeCellValue(['L', 'a', 'b'], 'ChoiceList')).toEqual(['a', 'b']);
		expect(decodeCellValue(['L', 1, 2])).toEqual([1, 2]);
		expect(decodeCellValue(['d', JAN_10_2024])).toBe('2024-01-10');
		expect(decodeCellValue(['D', JAN_10_2024, 'UTC'])).toBe('2024-01-10T00:00:00.000Z');
		expect(decodeCellValue(['R', 'People', 17])).toBe(17);
		expect(decodeCellValue(['r', 'People', [1, 2]])).toEqual([1, 2]);
		expect(decodeCellValue(['E', 'ZeroDivisionError'])).toEqual(['E', 'ZeroDivisionError']);
		expect(decodeCellValue(JAN_10_2024, 'Int')).toBe(JAN_10_2024);
		expect(decodeCellValue('not a date', 'Date')).toBe('not a date');
		expect(decodeCellValue(null, 'Date')).toBeNull();
		expect(decodeCellValue(JAN_10_2024)).toBe(JAN_10_2024);
	});
});

describe('simplifyRecord', () => {
	it('flattens, decodes by type and keeps formula errors', () => {
		expect(
			simplifyRecord(
				{
					id: 3,
					fields: { D: JAN_10_2024, L: ['L', 'x'], F: null },
					errors: { F: 'ZeroDivisionError' },
				},
				{ D: 'Date', L: 'ChoiceList', F: 'Numeric' },
			),
		).toEqual({ id: 3, D: '2024-01-10', L: ['x'], F: null, errors: { F: 'ZeroDivisionError' } });
		expect(simplifyRecord({ id: 1, fields: { A: 1 }, errors: {} })).toEqual({ id: 1, A: 1 });
	});
});

describe('simplifyRecord: the spread, then only the cells that need decoding', () => {
	const types = { D: 'Date', T: 'DateTime:UTC', L: 'ChoiceList', N: 'Numeric', fields: 'Any' };
	const records = (): GristRecord[] => [
		{
			id: 1,
			fields: { D: JAN_10_2024, T: JAN_10_2024 + 0.5, L: ['L', 'x'], N: 2, fields: ['O', {}] },
		},
		{ id: 2, fields: { D: null, T: 'soon', L: null, N: 'many', fields: ['d', JAN_10_2024] } },
		{ id: 3, fields: { D: ['C'], N: JAN_10_2024, fields: ['R', 'People', 4] } },
		{ id: 4, fields: { N: 1 }, errors: {} },
		{ id: 5 } as GristRecord,
	];

	it('gives what the cell-by-cell decoder (simplifyFields) gives, key order included', () => {
		const cellByCell = records().map((r) => simplifyFields(r.id, r.fields, types));
		const spread = records().map((r) => simplifyRecord(r, types));
		expect(spread).toEqual(cellByCell);
		expect(spread.map((r) => Object.keys(r))).toEqual(cellByCell.map((r) => Object.keys(r)));
		expect(spread[0]).toEqual({
			id: 1,
			D: '2024-01-10',
			T: '2024-01-10T00:00:00.500Z',
			L: ['x'],
			N: 2,
			fields: ['O', {}],
		});
		expect(spread[1].fields).toBe('2024-01-10');
		expect(spread[2]).toEqual({ id: 3, D: ['C'], N: JAN_10_2024, fields: 4 });
	});

	it('puts formula errors last and leaves the answer as it was', () => {
		const record: GristRecord = { id: 7, fields: { A: null, B: ['L', 1] }, errors: { A: 'X' } };
		const out = simplifyRecord(record, { A: 'Numeric', B: 'RefList:T' });
		expect(Object.keys(out)).toEqual(['id', 'A', 'B', 'errors']);
		expect(out.B).toEqual([1]);
		expect(record).toEqual({ id: 7, fields: { A: null, B: ['L', 1] }, errors: { A: 'X' } });
	});
});

describe('encodeCellValue', () => {
	it('encodes dates: ISO, JS Date, luxon-like DateTime, epoch seconds', () => {
		expect(encodeCellValue('2024-01-10', 'Date')).toBe(JAN_10_2024);
		expect(encodeCellValue('2024-01-10T23:30:00Z', 'Date')).toBe(JAN_10_2024);
		expect(encodeCellValue(new Date('2024-01-10T05:00:00Z'), 'Date')).toBe(JAN_10_2024);
		const luxonLike = {
			isLuxonDateTime: true,
			isValid: true,
			year: 2024,
			month: 1,
			day: 10,
			toMillis: () => 0,
		};
		expect(encodeCellValue(luxonLike, 'Date')).toBe(JAN_10_2024);
		expect(encodeCellValue(JAN_10_2024, 'Date')).toBe(JAN_10_2024);
		expect(encodeCellValue('', 'Date')).toBeNull();
	});

	it('encodes date-times with offsets, Z, and the column time zone for local times', () => {
		expect(encodeCellValue('2024-01-10T00:00:00Z', 'DateTime:UTC')).toBe(JAN_10_2024);
		expect(encodeCellValue('2024-01-10T01:00:00+01:00', 'DateTime:UTC')).toBe(JAN_10_2024);
		expect(encodeCellValue('2024-01-09T19:00:00', 'DateTime:America/New_York')).toBe(JAN_10_2024);
		// summer time in New York is UTC-4
		expect(encodeCellValue('2024-07-01T20:00:00', 'DateTime:America/New_York')).toBe(
			Date.UTC(2024, 6, 2) / 1000,
		);
		expect(encodeCellValue('2024-01-10T00:00:00.250Z', 'DateTime')).toBe(JAN_10_2024 + 0.25);
		const luxonLike = {
			isLuxonDateTime: true,
			isValid: true,
			year: 1,
			month: 1,
			day: 1,
			toMillis: () => JAN_10_2024 * 1000,
		};
		expect(encodeCellValue(luxonLike, 'DateTime:UTC')).toBe(JAN_10_2024);
	});

	it('encodes lists, references and scalars', () => {
		expect(encodeCellValue(['a', 'b'], 'ChoiceList')).toEqual(['L', 'a', 'b']);
		expect(encodeCellValue('a, b', 'ChoiceList')).toEqual(['L', 'a', 'b']);
		expect(encodeCellValue('["a,1","b"]', 'ChoiceList')).toEqual(['L', 'a,1', 'b']);
		expect(encodeCellValue([], 'ChoiceList')).toBeNull();
		expect(encodeCellValue([1, '2'], 'RefList:People')).toEqual(['L', 1, 2]);
		expect(encodeCellValue(5, 'RefList:People')).toEqual(['L', 5]);
		expect(encodeCellValue(['L', 7], 'Attachments')).toEqual(['L', 7]);
		expect(encodeCellValue('12', 'Ref:People')).toBe(12);
		expect(encodeCellValue(null, 'Ref:People')).toBe(0);
		expect(encodeCellValue('Alice', 'Ref:People')).toBe('Alice');
		expect(encodeCellValue('3.5', 'Numeric')).toBe(3.5);
		expect(encodeCellValue('7', 'Int')).toBe(7);
		expect(encodeCellValue('yes', 'Bool')).toBe(true);
		expect(encodeCellValue(0, 'Bool')).toBe(false);
		expect(encodeCellValue(123, 'Text')).toBe('123');
		expect(encodeCellValue('00123', 'Text')).toBe('00123');
		expect(encodeCellValue('x', 'Choice')).toBe('x');
		expect(encodeCellValue([1, 2], 'Any')).toEqual(['L', 1, 2]);
		expect(encodeCellValue(undefined, 'Text')).toBeNull();
	});

	it.each([
		['abc', 'Numeric'],
		['1.5', 'Int'],
		['maybe', 'Bool'],
		['10/01/2024', 'Date'],
		['2024-02-30', 'Date'],
		['tomorrow', 'DateTime:UTC'],
		[{ a: 1 }, 'Text'],
		[-1, 'Ref:People'],
		[[1.5], 'RefList:People'],
		[['x'], 'Attachments'],
		[[{ a: 1 }], 'ChoiceList'],
	])('rejects %j for a %s column with a CellValueError', (value, type) => {
		expect(() => encodeCellValue(value, type)).toThrow(CellValueError);
		expect(() => encodeCellValue(value, type)).toThrow(`does not fit a ${type} column`);
	});

	it('round-trips every column type through decode', () => {
		const cases: Array<[string, unknown]> = [
			['Text', 'hello'],
			['Numeric', 2.5],
			['Int', 42],
			['Bool', true],
			['Date', '2024-01-10'],
			['DateTime:UTC', '2024-01-10T12:34:56.000Z'],
			['Choice', 'Open'],
			['ChoiceList', ['a', 'b']],
			['Ref:People', 3],
			['RefList:People', [1, 2]],
			['Attachments', [9]],
		];
		for (const [type, value] of cases) {
			expect({ type, value: decodeCellValue(encodeCellValue(value, type), type) }).toEqual({
				type,
				value,
			});
		}
		expect(baseType('DateTime:Europe/Paris')).toBe('DateTime');
	});
});
