import {
	classifyChanges,
	tableIdAfter,
	type TableDelta,
} from '../../nodes/Grist/history/rowChangeDecoding';

describe('classifyChanges', () => {
	it('classifies the measured update + delete (previous values, changed columns, last values)', () => {
		const delta: TableDelta = {
			updateRows: [1],
			removeRows: [2],
			addRows: [],
			columnDeltas: {
				Qty: { '1': [[3], [4]], '2': [[5], null] },
				Name: { '2': [['pear'], null] },
				manualSort: { '2': [[2], null] },
			},
			columnRenames: [],
		};
		expect(classifyChanges(delta, { columns: ['Name', 'Qty', 'Due'] })).toEqual([
			{
				change: 'updated',
				id: 1,
				values: { Qty: 4 },
				previous: { Qty: 3 },
				changedColumns: ['Qty'],
			},
			// Due was absent: it was empty
			{ change: 'deleted', id: 2, values: { Qty: 5, Name: 'pear', Due: null } },
		]);
	});

	it("gives a deleted row's column that Grist left out its type's default", () => {
		// measured: a removal lists no cell of a column that held its default in every removed row
		const delta: TableDelta = {
			removeRows: [4, 5],
			columnDeltas: {
				Name: { '4': [[''], null], '5': [['e'], null] },
				manualSort: { '4': [[4], null], '5': [[5], null] },
			},
		};
		const types = {
			Name: 'Text',
			St: 'Choice',
			Score: 'Int',
			Amount: 'Numeric',
			Who: 'Ref:People',
			Ok: 'Bool',
			Due: 'Date',
			At: 'DateTime:Europe/Paris',
			Tags: 'ChoiceList',
			Refs: 'RefList:People',
			Files: 'Attachments',
			F: 'Any',
		};
		const empty = {
			St: '',
			Score: 0,
			Amount: 0,
			Who: 0,
			Ok: false,
			Due: null,
			At: null,
			Tags: null,
			Refs: null,
			Files: null,
			F: null,
		};
		expect(classifyChanges(delta, { columns: Object.keys(types), types })).toEqual([
			{ change: 'deleted', id: 4, values: { Name: '', ...empty } },
			{ change: 'deleted', id: 5, values: { Name: 'e', ...empty } },
		]);
	});

	it('gives addRows precedence over updateRows, and hides manualSort', () => {
		const delta: TableDelta = {
			updateRows: [7],
			removeRows: [],
			addRows: [7],
			columnDeltas: { A: { '7': [null, ['x']] }, manualSort: { '7': [null, [7]] } },
		};
		expect(classifyChanges(delta)).toEqual([{ change: 'added', id: 7, values: { A: 'x' } }]);
	});

	it('reports a reused id as the old row deleted, then the new row added', () => {
		const delta: TableDelta = {
			updateRows: [],
			removeRows: [2],
			addRows: [2],
			columnDeltas: { Name: { '2': [['b'], ['z']] }, manualSort: { '2': [[2], [3]] } },
		};
		expect(classifyChanges(delta, { columns: ['Name'] })).toEqual([
			{ change: 'deleted', id: 2, values: { Name: 'b' } },
			{ change: 'added', id: 2, values: { Name: 'z' } },
		]);
	});

	it('marks "?" and unrecorded rows as unknown instead of guessing', () => {
		const delta: TableDelta = {
			updateRows: [1, 3],
			removeRows: [5, 6],
			addRows: [],
			columnDeltas: {
				Qty: { '1': [[1], '?'], '5': [[9], null] },
				manualSort: { '5': [[5], null] },
			},
			mayBeIncomplete: true,
		};
		expect(classifyChanges(delta, { columns: ['Qty', 'Name'] })).toEqual([
			{ change: 'updated', id: 1, values: {}, previous: { Qty: 1 }, changedColumns: ['Qty'] },
			// row 3: Grist kept no cell of it, so what changed is not known
			{ change: 'updated', id: 3, values: {}, previous: {} },
			{ change: 'deleted', id: 5, values: { Qty: 9, Name: null } },
			{ change: 'deleted', id: 6, values: {}, unknownColumns: ['Qty', 'Name'] },
		]);
	});

	it('keeps only updates of watched columns (unknown ones stay), never adds or deletes', () => {
		const delta: TableDelta = {
			updateRows: [1, 2, 4],
			removeRows: [3],
			addRows: [],
			columnDeltas: {
				Status: { '1': [['open'], ['done']] },
				Note: { '2': [['a'], ['b']], '3': [['c'], null] },
				manualSort: { '3': [[3], null] },
			},
		};
		const out = classifyChanges(delta, { watchedColumns: ['Status'] });
		expect(out.map((c) => [c.change, c.id])).toEqual([
			['updated', 1],
			['deleted', 3],
			['updated', 4],
		]);
	});

	it("lists changed columns in the table's column order", () => {
		const delta: TableDelta = {
			updateRows: [1],
			columnDeltas: { Qty: { '1': [[1], [2]] }, Status: { '1': [['a'], ['b']] } },
		};
		expect(classifyChanges(delta, { columns: ['Status', 'Qty'] })[0].changedColumns).toEqual([
			'Status',
			'Qty',
		]);
	});

	it('ignores a column added in the range, hidden columns and unchanged values', () => {
		const delta: TableDelta = {
			updateRows: [1, 2],
			removeRows: [],
			addRows: [],
			columnDeltas: {
				New: { '1': [null, [0]], '2': [null, [0]] },
				manualSort: { '1': [[1], [5]] },
				gristHelper_Display: { '2': [['a'], ['b']] },
				Same: { '2': [[1], [1]] },
			},
			columnRenames: [[null, 'New']],
		};
		expect(classifyChanges(delta)).toEqual([]);
		expect(classifyChanges(undefined)).toEqual([]);
	});
});

describe('tableIdAfter', () => {
	it('follows renames in order and reports a removed table as null', () => {
		expect(tableIdAfter({ tableRenames: [] }, 'Items')).toBe('Items');
		expect(
			tableIdAfter(
				{
					tableRenames: [
						['Items', 'Goods'],
						['Goods', 'Stock'],
					],
				},
				'Items',
			),
		).toBe('Stock');
		expect(tableIdAfter({ tableRenames: [['Items', null]] }, 'Items')).toBeNull();
		expect(tableIdAfter(undefined, 'Items')).toBe('Items');
	});
});
