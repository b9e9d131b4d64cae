/**
 * The pure part of Options → Add Reference Display Values (read/displayValues.ts): which
 * columns are references and what they show, the IDs to read, and the `_display` object.
 */
import { toColumn } from '../../nodes/Grist/cells/tableColumns';
import {
	cellRowIds,
	displaySources,
	displayValues,
	referencedIds,
	shownColumn,
	type DisplayLookup,
} from '../../nodes/Grist/read/displayValues';

const col = (id: string, fields: Record<string, unknown>) =>
	toColumn({ id, fields: fields as never });

const columns = [
	col('Name', { type: 'Text', colRef: 1 }),
	col('Client', { type: 'Ref:Clients', colRef: 2, visibleCol: 11 }),
	col('Contacts', { type: 'RefList:Clients', colRef: 3, visibleCol: 11 }),
	col('Since', { type: 'Ref:Clients', colRef: 4, visibleCol: 12 }),
	col('Plain', { type: 'Ref:Clients', colRef: 5, visibleCol: 0 }),
	col('Owner', { type: 'Ref:People', colRef: 6, visibleCol: 21 }),
];
const clients = [
	col('Name', { type: 'Text', colRef: 11 }),
	col('Since', { type: 'Date', colRef: 12 }),
];

describe('displaySources / shownColumn', () => {
	it('lists the Ref and RefList columns with their target table and shown column', () => {
		expect(displaySources(columns)).toEqual([
			{ column: 'Client', table: 'Clients', list: false, visibleCol: 11 },
			{ column: 'Contacts', table: 'Clients', list: true, visibleCol: 11 },
			{ column: 'Since', table: 'Clients', list: false, visibleCol: 12 },
			{ column: 'Plain', table: 'Clients', list: false, visibleCol: 0 },
			{ column: 'Owner', table: 'People', list: false, visibleCol: 21 },
		]);
	});

	it('finds the shown column by its column reference; none for 0 or a removed column', () => {
		expect(shownColumn(12, clients)?.id).toBe('Since');
		expect(shownColumn(0, clients)).toBeUndefined();
		expect(shownColumn(99, clients)).toBeUndefined();
	});
});

describe('cellRowIds / referencedIds', () => {
	it('reads Ref numbers and RefList lists; 0, empty and text cells reference nothing', () => {
		expect(cellRowIds(3, false)).toEqual([3]);
		expect(cellRowIds(0, false)).toBeNull();
		expect(cellRowIds(null, false)).toBeNull();
		expect(cellRowIds('Acme', false)).toBeNull();
		expect(cellRowIds(['L', 1, 2], true)).toEqual([1, 2]);
		expect(cellRowIds([4, 5], true)).toEqual([4, 5]);
		expect(cellRowIds(['L'], true)).toEqual([]);
		expect(cellRowIds(null, true)).toBeNull();
		expect(cellRowIds(['L', 1, 'x'], true)).toEqual([1, undefined]);
	});

	it('collects the IDs by target table, once each, over all rows and columns', () => {
		const ids = referencedIds(
			[
				{ Client: 1, Contacts: ['L', 1, 2], Since: 3, Plain: 0, Owner: 7 },
				{ Client: 2, Contacts: null, Since: 9, Plain: 1, Owner: 0 },
				undefined,
			],
			displaySources(columns),
		);
		expect([...ids].map(([t, s]) => [t, [...s].sort((a, b) => a - b)])).toEqual([
			['Clients', [1, 2, 3, 9]],
			['People', [7]],
		]);
	});
});

describe('displayValues', () => {
	const cells: Record<string, Record<number, unknown>> = {
		'Clients.Name': { 1: 'Acme Ltd', 2: 'Globex', 3: 'Initech' },
		'Clients.Since': { 1: 1704067200, 2: null, 3: 1706745600 },
		'People.Email': { 7: 'ann@example.com' },
	};
	const lookup: DisplayLookup = {
		shown: (s) =>
			s.visibleCol === 11
				? { colId: 'Name', type: 'Text' }
				: s.visibleCol === 12
					? { colId: 'Since', type: 'Date' }
					: s.visibleCol === 21
						? { colId: 'Email', type: 'Text' }
						: { colId: 'id' },
		cell: (table, colId, id) => {
			if (colId === 'id') return id <= 3 ? id : undefined;
			const column = cells[`${table}.${colId}`];
			return column && id in column ? column[id] : undefined;
		},
	};
	const sources = displaySources(columns);

	it('gives the shown cell per Ref, an array per RefList, null for empty and dangling references', () => {
		expect(
			displayValues(
				{ Client: 1, Contacts: ['L', 2, 99, 3], Since: 3, Plain: 2, Owner: 7 },
				sources,
				lookup,
				true,
			),
		).toEqual({
			Client: 'Acme Ltd',
			Contacts: ['Globex', null, 'Initech'],
			Since: '2024-02-01',
			Plain: 2,
			Owner: 'ann@example.com',
		});
		expect(
			displayValues(
				{ Client: 0, Contacts: null, Since: 99, Plain: 99, Owner: 8 },
				sources,
				lookup,
				true,
			),
		).toEqual({ Client: null, Contacts: null, Since: null, Plain: null, Owner: null });
	});

	it('keeps the cells as Grist gives them without Simplify (a Date as seconds)', () => {
		expect(displayValues({ Since: 1, Contacts: ['L'] }, sources, lookup, false)).toMatchObject({
			Since: 1704067200,
			Contacts: [],
			Client: null,
		});
	});
});
