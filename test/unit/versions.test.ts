import {
	comparisonOutput,
	forkDocId,
	forkOutput,
	parseDocId,
	parseSnapshotIds,
	patchFailure,
	proposalOutput,
	proposalStatus,
	tableChanges,
	type GristProposal,
} from '../../nodes/Grist/documents/versions';

describe('fork IDs', () => {
	it('splits a fork ID into trunk, fork and user; a plain ID is a trunk', () => {
		expect(parseDocId('xx8CYJaW3kbdMrrAU8jF4h~nRrCMv1XXBqhy8wDboTuCL~5')).toEqual({
			trunkId: 'xx8CYJaW3kbdMrrAU8jF4h',
			forkId: 'nRrCMv1XXBqhy8wDboTuCL',
			forkUserId: 5,
		});
		expect(parseDocId('abcdefghijkl')).toEqual({ trunkId: 'abcdefghijkl' });
		expect(parseDocId('abcdefghijkl~v=_2E1')).toEqual({ trunkId: 'abcdefghijkl' });
		expect(parseDocId('abcdefghijkl~fork')).toEqual({ trunkId: 'abcdefghijkl', forkId: 'fork' });
	});

	it('builds a fork ID as Grist does, without a user part when there is none', () => {
		expect(forkDocId('trunk', 'fork', 5)).toBe('trunk~fork~5');
		expect(forkDocId('trunk', 'fork', null)).toBe('trunk~fork');
	});

	it("Fork's output: the fork's IDs, its trunk and URL", () => {
		expect(
			forkOutput(
				{ forkId: 'f', docId: 'trunkId~f~5', urlId: 'trunk~f~5' },
				'trunkId',
				'http://g/doc/trunk~f~5',
			),
		).toEqual({
			docId: 'trunkId~f~5',
			urlId: 'trunk~f~5',
			forkId: 'f',
			trunkId: 'trunkId',
			url: 'http://g/doc/trunk~f~5',
		});
	});
});

describe('tableChanges', () => {
	it('one entry per changed user table: rows added, updated (with previous values) and deleted', () => {
		const out = tableChanges('right', {
			tableRenames: [],
			tableDeltas: {
				Items: {
					updateRows: [1],
					removeRows: [2],
					addRows: [3],
					columnDeltas: {
						A: { '1': [['x'], ['changed']], '2': [['y'], null], '3': [null, ['new']] },
						manualSort: { '2': [[2], null], '3': [null, [3]] },
					},
					columnRenames: [],
				},
				_grist_Tables: { updateRows: [1], removeRows: [], addRows: [], columnDeltas: {} },
			},
		});
		expect(out).toEqual([
			{
				side: 'right',
				tableId: 'Items',
				columnsAdded: [],
				columnsRemoved: [],
				columnsRenamed: [],
				addedRows: 1,
				updatedRows: 1,
				deletedRows: 1,
				rows: [
					{
						change: 'updated',
						id: 1,
						values: { A: 'changed' },
						previous: { A: 'x' },
						changedColumns: ['A'],
					},
					{ change: 'deleted', id: 2, values: { A: 'y' } },
					{ change: 'added', id: 3, values: { A: 'new' } },
				],
			},
		]);
	});

	it('marks added, removed and renamed tables and columns, and incomplete deltas', () => {
		const out = tableChanges('left', {
			tableRenames: [
				[null, 'New'],
				['Old', 'Renamed'],
				['Gone', null],
			],
			tableDeltas: {
				New: {
					updateRows: [],
					removeRows: [],
					addRows: [1],
					columnDeltas: { A: { '1': [null, [1]] } },
					columnRenames: [[null, 'A']],
				},
				Renamed: {
					updateRows: [1],
					removeRows: [],
					addRows: [],
					columnDeltas: { B: { '1': [[1], '?'] } },
					columnRenames: [
						['X', 'Y'],
						['Z', null],
					],
					mayBeIncomplete: true,
				},
			},
		});
		expect(out.map((t) => [t.tableId, t.tableAdded, t.tableRemoved, t.renamedFrom])).toEqual([
			['New', true, undefined, undefined],
			['Renamed', undefined, undefined, 'Old'],
			['Gone', undefined, true, undefined],
		]);
		expect(out[0].columnsAdded).toEqual(['A']);
		expect(out[1]).toMatchObject({
			columnsRenamed: [['X', 'Y']],
			columnsRemoved: ['Z'],
			mayBeIncomplete: true,
		});
		// the new value of B was not recorded ("?"): B is changed, its value unknown
		expect(out[1].rows).toEqual([
			{
				change: 'updated',
				id: 1,
				values: {},
				previous: { B: 1 },
				changedColumns: ['B'],
				unknownColumns: ['B'],
			},
		]);
	});
});

describe('comparisonOutput', () => {
	const comparison = {
		left: { n: 2, h: 'l' },
		right: { n: 4, h: 'r' },
		parent: { n: 2, h: 'l' },
		summary: 'right',
		details: {
			leftChanges: { tableRenames: [], tableDeltas: {} },
			rightChanges: {
				tableRenames: [],
				tableDeltas: {
					T: {
						updateRows: [],
						removeRows: [],
						addRows: [1],
						columnDeltas: { A: { '1': [null, [5]] as [null, [number]] } },
					},
				},
			},
		},
	};

	it('the summary and the states; with changes, `tables` of both sides', () => {
		const out = comparisonOutput(comparison, { docId: 'a', otherDocId: 'b' }, true);
		expect(out).toMatchObject({
			docId: 'a',
			otherDocId: 'b',
			summary: 'right',
			left: { n: 2, h: 'l' },
		});
		expect(
			(out.tables as Array<{ side: string; tableId: string }>).map((t) => [t.side, t.tableId]),
		).toEqual([['right', 'T']]);
	});

	it('without changes, no `tables`; an unrelated pair has parent null', () => {
		const out = comparisonOutput(
			{ left: { n: 1, h: 'a' }, right: { n: 1, h: 'b' }, parent: null, summary: 'unrelated' },
			{},
			false,
		);
		expect(out).toEqual({
			summary: 'unrelated',
			left: { n: 1, h: 'a' },
			right: { n: 1, h: 'b' },
			parent: null,
		});
	});
});

describe('parseSnapshotIds', () => {
	it('splits on commas and new lines, trims, drops empties and repeats', () => {
		expect(parseSnapshotIds(' a, b\nc,,a ', 'Snapshot IDs')).toEqual(['a', 'b', 'c']);
		expect(parseSnapshotIds(['x', ' y '], 'Snapshot IDs')).toEqual(['x', 'y']);
	});
	it('an empty list is an input error naming the field', () => {
		expect(() => parseSnapshotIds(' , ', 'Snapshot IDs')).toThrow(/it is empty/);
	});
});

describe('proposals', () => {
	const proposal: GristProposal = {
		shortId: 3,
		status: {},
		srcDocId: 'forkId',
		destDocId: 'trunkId',
		createdAt: 'c',
		updatedAt: 'u',
		appliedAt: null,
		comparison: {
			comparison: {
				summary: 'left',
				details: {
					leftChanges: {
						tableRenames: [],
						tableDeltas: {
							T: {
								updateRows: [1],
								removeRows: [],
								addRows: [],
								columnDeltas: { A: { '1': [[1], [2]] } },
							},
						},
					},
					rightChanges: { tableRenames: [], tableDeltas: {} },
				},
			},
		},
		srcDoc: {
			id: 'forkId',
			name: 'Doc',
			creator: { id: 5, name: 'You', email: 'you@example.com' },
		},
		destDoc: { id: 'trunkId', name: 'Doc' },
	};

	it('an item per proposal: number, status, the fork ID, who and when; changes when asked', () => {
		expect(proposalOutput(proposal, false)).toEqual({
			proposalId: 3,
			status: 'open',
			forkDocId: 'trunkId~forkId~5',
			documentId: 'trunkId',
			documentName: 'Doc',
			proposedBy: { name: 'You', email: 'you@example.com' },
			createdAt: 'c',
			updatedAt: 'u',
			appliedAt: null,
		});
		const withChanges = proposalOutput(proposal, true);
		expect((withChanges.tables as Array<{ side: string; updatedRows: number }>)[0]).toMatchObject({
			side: 'left',
			tableId: 'T',
			updatedRows: 1,
		});
	});

	it('a fork Grist hides from non-owners has no fork ID', () => {
		expect(proposalOutput({ ...proposal, srcDocId: 'hidden' }, false).forkDocId).toBeNull();
	});

	it('status: open until Grist sets one', () => {
		expect(proposalStatus(proposal)).toBe('open');
		expect(proposalStatus({ ...proposal, status: { status: 'applied' } })).toBe('applied');
	});

	it("patchFailure: Grist's reason when a change failed", () => {
		expect(patchFailure({ changes: [{ msg: 'added a record' }], applied: true })).toBeUndefined();
		expect(
			patchFailure({
				changes: [{ msg: 'Error: table-level changes cannot be handled yet', fail: true }],
				applied: false,
			}),
		).toBe('Error: table-level changes cannot be handled yet');
	});
});
