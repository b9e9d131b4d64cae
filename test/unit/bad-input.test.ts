/**
 * Pure texts and lookups of bad input to the writes (README, Bad input): refusal summaries with compressed item runs, the item a refused request is blamed
 * on, and the references of encoded records.
 */
import {
	blamedItems,
	itemsPhrase,
	refusalSummary,
	refusedRequestNote,
} from '../../nodes/Grist/write/outcomeTexts';
import {
	danglingText,
	describeIds,
	forEachReference,
	refColumns,
} from '../../nodes/Grist/write/referenceCheck';
import { sqlIdList } from '../../nodes/Grist/query/sqlQuery';

describe('refusalSummary', () => {
	const noColumn = (i: number) => ({
		itemIndex: i,
		message: `Table "T" has no column "X" (item ${i})`,
		description: 'Use column IDs.',
	});

	it('compresses runs of items refused for one reason and says that nothing was written', () => {
		const refusals = [600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610].map(noColumn);
		const s = refusalSummary(refusals, 1500, 'written');
		expect(s.message).toBe('Table "T" has no column "X" (items 600–610); no item was written');
		expect(s.description).toBe(
			"Refused before any request: items 600–610 (11 of 1500 items). Nothing was sent, so none of the 1500 items was written: fix or remove the refused items and run again, or set the node's On Error to Continue to write the others (the refused ones then come out as errors). Use column IDs.",
		);
		expect(s.itemIndex).toBe(600);
	});

	it('does not mistake item 60 for item 600; grammar of "Item N has"', () => {
		const s = refusalSummary(
			[
				{ itemIndex: 6, message: 'Item 6 has no value for the match column "E"' },
				{ itemIndex: 60, message: 'Item 60 has no value for the match column "E"' },
			],
			100,
			'written',
		);
		expect(s.message).toBe(
			'Items 6, 60 have no value for the match column "E"; no item was written',
		);
	});

	it('lists reasons of different kinds with their items; a message without its item gets them added', () => {
		const s = refusalSummary(
			[
				noColumn(1),
				{ itemIndex: 2, message: 'Odd' },
				noColumn(4),
				{ itemIndex: 3, message: 'Odd' },
			],
			5,
			'deleted',
		);
		expect(s.message).toBe('4 items were refused (items 1–4); no item was deleted');
		expect(s.description).toContain('Table "T" has no column "X" (items 1, 4). Use column IDs.');
		expect(s.description).toContain('Odd (items 2–3).');
		expect(s.description).toContain('to delete the others');
		expect(s.itemIndex).toBe(1);
	});

	it('itemsPhrase', () => {
		expect(itemsPhrase([3])).toBe('item 3');
		expect(itemsPhrase([5, 3, 4, 9])).toBe('items 3–5, 9');
	});
});

describe('blamedItems and refusedRequestNote', () => {
	const units = [
		{ itemIndex: 0, records: [{ id: 1, fields: { A: 1 } }] },
		{ itemIndex: 1, records: [{ id: 999999, fields: { A: 2 } }] },
		{ itemIndex: 2, records: [{ id: 3, fields: { A: 3, X: 1 } }] },
	];

	it('finds the item of a missing row id or an invalid column; none for other messages', () => {
		expect(blamedItems('Invalid row id 999999', units)).toEqual({
			items: [1],
			what: 'the row ID 999999',
		});
		expect(blamedItems('Invalid column "X"', units)).toEqual({
			items: [2],
			what: 'the column "X"',
		});
		expect(blamedItems('Invalid row id 5', [{ itemIndex: 4, records: [5, 6] }]).items).toEqual([4]);
		expect(
			blamedItems('Invalid row id 7', [{ itemIndex: 0, records: [{ require: { id: 7 } }] }]).items,
		).toEqual([0]);
		expect(blamedItems('Error manipulating data: [Sandbox] odd', units).items).toEqual([]);
	});

	it('tells each item what happened to it', () => {
		const base = {
			indices: [0, 1, 2],
			blamed: [1],
			what: 'the row ID 999999',
			gristMessage: 'Invalid row id 999999',
			verb: 'written',
			request: 'request 2 of 3',
		};
		expect(refusedRequestNote({ ...base, itemIndex: 1 })).toEqual({
			note: 'Item 1 was refused because of the row ID 999999. Grist applies a request entirely or not at all, so the other items of that request (request 2 of 3, holding items 0–2) were not written either.',
		});
		expect(refusedRequestNote({ ...base, itemIndex: 0 })).toEqual({
			message: 'Not written: item 1 was refused in the same request ("Invalid row id 999999")',
			note: 'Grist applies a request entirely or not at all, and it refused the whole request (request 2 of 3, holding items 0–2) because of item 1 (the row ID 999999). Grist reported no problem with item 0 (it stops at the first one it finds): run it again without item 1 to write it.',
		});
		expect(refusedRequestNote({ ...base, blamed: [], what: '', itemIndex: 2 })).toEqual({
			note: 'Not written: Grist refused the whole request (request 2 of 3, holding items 0–2) with this error, and its answer does not say which item caused it; none of the items of that request was written.',
		});
	});
});

describe('references of encoded records', () => {
	const types = {
		Name: 'Text',
		Owner: 'Ref:People',
		Helpers: 'RefList:People',
		Files: 'Attachments',
	};

	it('refColumns: Ref and RefList columns with their table, once per types object', () => {
		expect(refColumns(types)).toEqual([
			{ column: 'Owner', table: 'People', list: false },
			{ column: 'Helpers', table: 'People', list: true },
		]);
		expect(refColumns(types)).toBe(refColumns(types));
	});

	it('forEachReference visits row IDs only: not 0, not text (looked up by Grist), not null', () => {
		const seen: Array<[string, number]> = [];
		const visit = (ref: { column: string }, id: number) => seen.push([ref.column, id]);
		const refs = refColumns(types);
		forEachReference({ Owner: 3, Helpers: ['L', 1, 2] }, refs, visit);
		forEachReference({ Owner: 0, Helpers: null }, refs, visit);
		forEachReference({ Owner: 'Bob', Helpers: ['L'] }, refs, visit);
		forEachReference(undefined, refs, visit);
		expect(seen).toEqual([
			['Owner', 3],
			['Helpers', 1],
			['Helpers', 2],
		]);
	});

	it('danglingText names item, column, IDs and table; sqlIdList takes row IDs only', () => {
		expect(
			danglingText(4, [
				{ column: 'Owner', table: 'People', ids: [99999] },
				{ column: 'Helpers', table: 'Ghost', ids: [1], tableMissing: true },
			]).message,
		).toBe(
			'References to missing rows in item 4: "Owner" points at row 99999 of table "People", which does not exist; "Helpers" points at table "Ghost", which does not exist',
		);
		expect(describeIds([3, 1, 2])).toBe('1, 2, 3');
		expect(describeIds([5, 4, 3, 2, 1], 2)).toBe('1, 2, … (5 in all)');
		expect(sqlIdList([1, 22])).toBe('[1,22]');
		expect(() => sqlIdList([1, 0.5])).toThrow('Not a row ID: 0.5');
	});
});
