import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { encodeFields } from '../../nodes/Grist/write/fields';
import { columnMap, type GristColumn } from '../../nodes/Grist/cells/tableColumns';
import { readRawFields } from '../../nodes/Grist/parameters/writeOptions';

const col = (id: string, type: string, formula = ''): GristColumn => ({
	id,
	label: id,
	type,
	isFormula: formula !== '',
	formula,
	widgetOptions: {},
	hidden: false,
	fields: {},
});

const columns = columnMap([
	col('Name', 'Text'),
	col('Score', 'Int'),
	col('Total', 'Numeric', '$Score * 2'),
	col('When', 'Date'),
]);

const ctx = (input: IDataObject[] = [], parameters: IDataObject = {}) =>
	({
		getNode: () => ({ name: 'Grist', type: 'n8n-nodes-grist.grist', typeVersion: 1, parameters }),
		getInputData: () => input.map((json) => ({ json })),
		getNodeParameter: (name: string, _i: number, fallback: unknown) => {
			let v: unknown = parameters;
			for (const part of name.split('.')) v = (v as IDataObject | undefined)?.[part];
			return v ?? fallback;
		},
	}) as unknown as IExecuteFunctions;

describe('encodeFields (copy only on change)', () => {
	test('values that encode to themselves: the same object comes back, unchanged', () => {
		const fields = { Name: 'Ann', Score: 3, Other: 'x' };
		const out = encodeFields.call(ctx(), fields, columns, 0);
		expect(out).toBe(fields);
		expect(fields).toEqual({ Name: 'Ann', Score: 3, Other: 'x' });
	});

	test('a changed value in the middle: a new object, same key order, input untouched', () => {
		const fields = { Name: 'Ann', Score: '7', When: '2024-01-02', Other: 1 };
		const out = encodeFields.call(ctx(), fields, columns, 0);
		expect(out).not.toBe(fields);
		expect(Object.entries(out)).toEqual([
			['Name', 'Ann'],
			['Score', 7],
			['When', 1704153600],
			['Other', 1],
		]);
		expect(fields).toEqual({ Name: 'Ann', Score: '7', When: '2024-01-02', Other: 1 });
	});

	test('formula columns and undefined values of known columns are dropped; unknown keys kept even when undefined', () => {
		const fields: IDataObject = { Total: 4, Name: 'Ann', Score: undefined, Unknown: undefined };
		const out = encodeFields.call(ctx(), fields, columns, 0);
		expect(Object.keys(out)).toEqual(['Name', 'Unknown']);
		expect(out.Unknown).toBeUndefined();
		expect(Object.keys(fields)).toEqual(['Total', 'Name', 'Score', 'Unknown']);
		expect(
			Object.keys(encodeFields.call(ctx(), fields, columns, 0, { keepFormulas: true })),
		).toEqual(['Total', 'Name', 'Unknown']);
	});

	test('a value that does not fit its column fails naming the field and the item', () => {
		expect(() => encodeFields.call(ctx(), { Name: 'Ann', Score: 'abc' }, columns, 4)).toThrow(
			'Field "Score" of item 4',
		);
	});
});

describe('readRawFields with automatic mapping', () => {
	const params = { dataMode: 'mapper', columns: { mappingMode: 'autoMapInputData' } };

	test('an item without id/errors: its json as it is (not copied)', () => {
		const input = [{ Name: 'Ann', Score: 1 }];
		const c = ctx(input, params);
		const json = c.getInputData()[0].json;
		const { fields } = readRawFields.call(c, 0);
		expect(fields).toBe(json);
		expect(encodeFields.call(c, fields, columns, 0)).toBe(json);
	});

	test('an item with id and errors (a read record): both left out, the input untouched', () => {
		const c = ctx([{ id: 5, Name: 'Ann', errors: { Total: 'x' }, Score: 2 }], params);
		const json = c.getInputData()[0].json;
		const { fields } = readRawFields.call(c, 0);
		expect(Object.entries(fields)).toEqual([
			['Name', 'Ann'],
			['Score', 2],
		]);
		expect(json).toEqual({ id: 5, Name: 'Ann', errors: { Total: 'x' }, Score: 2 });
	});
});
