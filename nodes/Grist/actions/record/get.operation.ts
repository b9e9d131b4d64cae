import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IDataObject,
} from 'n8n-workflow';
import { NodeOperationError, deepCopy } from 'n8n-workflow';

import type { GristRecord } from '../../cells/cellValues';
import { columnTypes } from '../../cells/tableColumns';
import { recordJson, recordsAndColumns } from '../../read/recordRead';
import { ReferenceDisplay } from '../../read/referenceDisplay';
import type { GristClient } from '../../api/client';
import { documentLocator, readTarget, tableLocator } from '../../parameters/locators';
import {
	readIncludeHidden,
	readSimplify,
	recordReadOptions,
	recordSimplifyField,
} from '../../parameters/recordReadOptions';
import { readReferenceDisplay } from '../../parameters/referenceDisplayOption';
import { readRowId } from '../../parameters/rowIds';
import { ColumnCache } from '../../api/schemaCache';
import { fetchRecordsById } from '../../api/records';
import { targetKey, type Target } from '../../api/paths';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';
import { failedItem } from '../items';

const properties: INodeProperties[] = [
	documentLocator,
	tableLocator,
	{
		displayName: 'Row ID',
		name: 'rowId',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'The row ID of the record to get: the whole number Grist gives each record of a table (its ID field)',
		hint: 'Grist\'s "id" of the record. After a record read or a Grist trigger, map it with the expression $json.id',
	},
	recordSimplifyField,
	recordReadOptions,
];

export const description = operationDescription('record', 'get', properties);

/** One input item: the row it asks for and how its output is shaped. */
interface Wanted {
	itemIndex: number;
	rowId: number;
	simplify: boolean;
	display: boolean;
}

/** The items of one table of one document (and one Include Hidden Columns setting): one read. */
interface Group {
	target: Target;
	hidden: boolean;
	wanted: Wanted[];
}

/** What the items of one execution share: the columns read and the reference display values. */
interface Reads {
	cache: ColumnCache;
	display: ReferenceDisplay;
	/** Records an item's error: an error item with Continue On Fail, else thrown. */
	fail: (error: unknown, itemIndex: number) => void;
}

const ONE_ROW = 'Get one record per input item; use several items to get several records.';

/**
 * Grist's filter `{"id":[…]}` (fetchRecordsById: in the URL for a few IDs, in one POST
 * …/records/list body for many): every item is read first (a bad Row ID fails before any
 * request), then the items of one table share one read (plus one GET of the columns per table
 * when Simplify needs their types). One output item per input item, in
 * input order, shaped as Get Many gives the same row; a row ID the table does not have is that
 * item's error.
 */
export const execute: OperationExecute = async function (client, items) {
	const out = new Array<INodeExecutionData>(items.length);
	const cache = new ColumnCache(client);
	const reads: Reads = {
		cache,
		display: new ReferenceDisplay(client, cache),
		fail: (error, itemIndex) => {
			out[itemIndex] = failedItem.call(this, error, itemIndex);
		},
	};
	const groups = new Map<string, Group>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = readTarget.call(this, itemIndex);
			const rowId = readRowId.call(this, itemIndex, ONE_ROW);
			const hidden = readIncludeHidden.call(this, itemIndex);
			const key = hidden ? `${targetKey(target)} hidden` : targetKey(target);
			let group = groups.get(key);
			if (!group) groups.set(key, (group = { target, hidden, wanted: [] }));
			group.wanted.push({
				itemIndex,
				rowId,
				simplify: readSimplify.call(this, itemIndex),
				display: readReferenceDisplay.call(this, itemIndex),
			});
		} catch (error) {
			reads.fail(error, itemIndex);
		}
	}
	for (const group of groups.values()) await readGroup.call(this, client, group, reads, out);
	return out;
};

/** Reads the rows of one group and sets the output of each of its items. */
async function readGroup(
	this: IExecuteFunctions,
	client: GristClient,
	group: Group,
	reads: Reads,
	out: INodeExecutionData[],
): Promise<void> {
	const { target, wanted } = group;
	const first = wanted[0].itemIndex;
	const ids = [...new Set(wanted.map((w) => w.rowId))];
	let read: Awaited<ReturnType<typeof recordsAndColumns<GristRecord[]>>>;
	try {
		read = await recordsAndColumns(
			client,
			target,
			async () =>
				await fetchRecordsById(client, target, ids, group.hidden ? { hidden: 1 } : {}, first),
			{
				cache: reads.cache,
				columns: undefined,
				withColumns: wanted.some((w) => w.simplify),
				itemIndex: first,
			},
		);
	} catch (error) {
		for (const w of wanted) reads.fail(error, w.itemIndex);
		return;
	}
	const byId = new Map<number, GristRecord>();
	for (const record of read.records) byId.set(record.id, record);
	const types = columnTypes(read.columns ?? []);
	// A record asked for by several items is given to each as its own object (raw records are the
	// answer's objects, and reference display values are added to the output in place).
	const given = new Set<number>();
	const withDisplay: Array<{ record: GristRecord; w: Wanted }> = [];
	for (const w of wanted) {
		const record = byId.get(w.rowId);
		if (!record) {
			reads.fail(notFound.call(this, target, w), w.itemIndex);
			continue;
		}
		let json: IDataObject = recordJson(record, w.simplify, types);
		if (!w.simplify && given.has(record.id)) json = deepCopy(json);
		given.add(record.id);
		out[w.itemIndex] = { json, pairedItem: { item: w.itemIndex } };
		if (w.display) withDisplay.push({ record, w });
	}
	// The referenced rows are read once for the group: one call per output form.
	for (const simplify of [true, false]) {
		const list = withDisplay.filter((d) => d.w.simplify === simplify);
		if (list.length === 0) continue;
		const itemIndex = list[0].w.itemIndex;
		try {
			await reads.display.add(
				target,
				read.columns ?? (await reads.cache.get(target, itemIndex)),
				list.map((d) => d.record.fields),
				list.map((d) => out[d.w.itemIndex].json),
				simplify,
				itemIndex,
			);
		} catch (error) {
			for (const d of list) reads.fail(error, d.w.itemIndex);
		}
	}
}

/** The error of an item whose row ID the table does not have. */
function notFound(this: IExecuteFunctions, target: Target, w: Wanted): NodeOperationError {
	return new NodeOperationError(
		this.getNode(),
		`No record with row ID ${w.rowId} in table "${target.tableId}" (item ${w.itemIndex})`,
		{
			itemIndex: w.itemIndex,
			description:
				"Check the Row ID: it is Grist's id of the record (Record → Get Many lists them). The record may have been deleted, or access rules may hide it from the user of this credential.",
		},
	);
}
