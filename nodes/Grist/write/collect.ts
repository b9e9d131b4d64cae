/**
 * The first stage of a record write: an operation reads each input item (its target, the table's
 * columns, its records) and hands it to `addItem`, which sizes it and puts it in its batch
 * (plan.ts). Every item is read before any write request, so that bad input is refused first
 * (report.ts); send.ts then checks, plans and sends the batches.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readTarget } from '../parameters/locators';
import { SameForAllItems } from '../parameters/read';
import { readAllowDangling, readBatchSize } from '../parameters/writeOptions';
import type { GristClient } from '../api/client';
import { NamedReference } from '../cells/referenceInput';
import { ColumnCache, type TableInfo } from '../api/schemaCache';
import { type Target } from '../api/paths';
import { DEFAULT_MAX_BYTES } from './chunking';
import { oversizedItemText } from './outcomeTexts';
import {
	assignBatch,
	newGrouping,
	placeUnit,
	sizeRecords,
	type Batches,
	type Grouping,
	type ItemGrouping,
	type WriteOptions,
	type WriteUnit,
} from './plan';
import { refColumns, type ReferencingRecord } from './referenceCheck';
import { newReport, type WriteReport } from './report';

/** What is particular to a kind of write, besides how its items are read and sent. */
export interface WriteSpec {
	/** Bytes of the JSON envelope around the records, e.g. `{"records":[` + `]}`. */
	envelopeBytes: number;
	/** "written" (default), "deleted"… for the messages of refused and failed items. */
	verb?: string;
	/** Whether the items need the table's columns (read once per table and execution). */
	columns?: boolean;
	/** Whether Options → Batch Size applies (else 500 records per request). */
	batchSize?: boolean;
	/** Whether referenced row IDs are checked before any write, unless Options → Allow Dangling References. */
	references?: boolean;
}

/**
 * One execution's record write. Parameters without an expression (target, Batch Size, Allow
 * Dangling References) are read for the first item only: the same for all.
 */
export interface RecordWrite<R> {
	ctx: IExecuteFunctions;
	client: GristClient;
	spec: WriteSpec;
	report: WriteReport;
	/** Bytes one item's records may take in a request body. */
	budget: number;
	grouping: Grouping;
	batches: Batches<R>;
	targets: SameForAllItems<Target>;
	batchSizes?: SameForAllItems<number>;
	dangling?: SameForAllItems<boolean>;
	columns: ColumnCache;
	/** The tables' columns by target object, once known (no promise per item after the first). */
	tables: Map<Target, TableInfo>;
	/**
	 * Items held back until the names of their references are looked up (referenceNames.ts): the
	 * first item holding a name and every item after it, so that items keep their order.
	 */
	pending: Array<PendingItem<R>>;
	/**
	 * Rows the name lookup found, by `docId\u0000table` (referenceNames.ts): they exist, so the
	 * reference check does not read them again.
	 */
	foundRows: Map<string, Set<number>>;
}

/** How an item's records are grouped, or how to find it from its records once they are final. */
export type GroupingOf<R> = ItemGrouping | GroupingFunction<R>['of'];

/** (A method's type, so that a write of records R is a write of unknown records too.) */
interface GroupingFunction<R> {
	of(records: R[]): ItemGrouping;
}

/** An item read but not yet put in its batch: what `addItem` was given. */
export interface PendingItem<R> {
	itemIndex: number;
	target: Target;
	table: TableInfo;
	records: R[];
	grouping: GroupingOf<R>;
	options: WriteOptions;
}

/** The table of a write that does not read the columns. */
export const NO_TABLE: TableInfo = { columns: [], byId: new Map(), types: {} };

/** The options of a write without any. */
const NO_OPTIONS: WriteOptions = {};

export function startWrite<R>(
	ctx: IExecuteFunctions,
	client: GristClient,
	itemCount: number,
	spec: WriteSpec,
): RecordWrite<R> {
	return {
		ctx,
		client,
		spec,
		report: newReport(ctx, itemCount, spec.verb ?? 'written'),
		budget: DEFAULT_MAX_BYTES - spec.envelopeBytes,
		grouping: newGrouping(),
		batches: new Map(),
		targets: new SameForAllItems(ctx, (itemIndex) => readTarget.call(ctx, itemIndex)),
		batchSizes: spec.batchSize
			? new SameForAllItems(ctx, (itemIndex) => readBatchSize.call(ctx, itemIndex))
			: undefined,
		dangling: spec.references
			? new SameForAllItems(ctx, (itemIndex) => readAllowDangling.call(ctx, itemIndex))
			: undefined,
		columns: new ColumnCache(client),
		tables: new Map(),
		pending: [],
		foundRows: new Map(),
	};
}

/** The document and table of item `itemIndex`. */
export function itemTarget(write: RecordWrite<unknown>, itemIndex: number): Target {
	return write.targets.of(itemIndex);
}

/** The columns of the item's table: a value once known, else a promise (one GET per table). */
export function itemTable(
	write: RecordWrite<unknown>,
	target: Target,
	itemIndex: number,
): TableInfo | Promise<TableInfo> {
	if (!write.spec.columns) return NO_TABLE;
	const known = write.tables.get(target);
	if (known) return known;
	return write.columns.info(target, itemIndex).then((info) => {
		write.tables.set(target, info);
		return info;
	});
}

/**
 * Adds item `itemIndex`'s records to its batch: by table, `options` (the item's flags and query
 * values), Batch Size, Allow Dangling References and `grouping` (field set, round key). An item
 * too large for one request is refused (thrown, for the operation's `failItem`). An item whose
 * references hold names (and every item after it) waits for their lookup (`pending`).
 */
export function addItem<R>(
	write: RecordWrite<R>,
	itemIndex: number,
	target: Target,
	table: TableInfo,
	records: R[],
	grouping: GroupingOf<R> = {},
	options: WriteOptions = NO_OPTIONS,
): void {
	if (write.pending.length > 0 || holdsNames(table, records)) {
		write.pending.push({ itemIndex, target, table, records, grouping, options });
		return;
	}
	placeItem(write, itemIndex, target, table, records, grouping, options);
}

/** Puts item `itemIndex`'s final records in their batch (see `addItem`). */
export function placeItem<R>(
	write: RecordWrite<R>,
	itemIndex: number,
	target: Target,
	table: TableInfo,
	records: R[],
	grouping: GroupingOf<R>,
	options: WriteOptions,
): void {
	const batchSize = write.batchSizes?.of(itemIndex);
	const allowDangling = write.dangling?.of(itemIndex);
	const { key, group } = assignBatch(
		write.grouping,
		target,
		table.types,
		typeof grouping === 'function' ? grouping(records) : grouping,
		options,
		batchSize,
		allowDangling,
	);
	const unit = sizedUnit(write.ctx, itemIndex, group, records, write.budget);
	placeUnit(write.batches, key, group, unit);
}

/** Whether the records' fields (or upsert `require`) hold a reference given by name. */
function holdsNames(table: TableInfo, records: unknown[]): boolean {
	const refs = refColumns(table.types);
	if (refs.length === 0) return false;
	for (const record of records) {
		const { fields, require } = record as ReferencingRecord;
		for (const ref of refs) {
			if (fields?.[ref.column] instanceof NamedReference) return true;
			if (require?.[ref.column] instanceof NamedReference) return true;
		}
	}
	return false;
}

/**
 * Item `itemIndex`'s records as a unit of `group`, with their JSON size; refused (thrown) when
 * they alone are more than `budget` bytes, what one request may carry.
 */
export function sizedUnit<R, G>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	group: G,
	records: R[],
	budget: number,
): WriteUnit<R, G> {
	const { bytes, exact } = sizeRecords(records, budget);
	if (bytes > budget) {
		const text = oversizedItemText(itemIndex, bytes, budget, records);
		throw new NodeOperationError(ctx.getNode(), text.message, {
			itemIndex,
			description: text.description,
		});
	}
	return { itemIndex, group, records, bytes, exact };
}
