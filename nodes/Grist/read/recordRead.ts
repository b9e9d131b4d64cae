/**
 * What Record → Get Many and Record → Get share once they know what to read: the records with the
 * table's columns when the output needs their types, and each record's output JSON, so that one
 * row reads the same from both operations.
 */
import type { IDataObject } from 'n8n-workflow';

import { simplifyRecord, type GristRecord } from '../cells/cellValues';
import { columnarToRecords, columnarToSimplified } from '../cells/columnarRecords';
import type { FetchedRows } from '../api/records';
import type { GristColumn } from '../cells/tableColumns';
import type { GristClient } from '../api/client';
import type { ColumnCache } from '../api/schemaCache';
import type { Target } from '../api/paths';

/**
 * `read()` (the records), and the table's columns when `withColumns` (Simplify needs their
 * types: Date and DateTime cells are numbers in the answer) and `columns` are not read already.
 * With an API key both requests go out together, the records' first, so that the columns' is
 * answered while Grist builds the records; with OAuth2 one after the other, as n8n refreshes an
 * expired token on each request's 401 and a rotated refresh token works once. A failed column
 * read is the error shown (it came first when the reads were sequential).
 */
export async function recordsAndColumns<R>(
	client: GristClient,
	target: Target,
	read: () => Promise<R>,
	opts: {
		cache: ColumnCache;
		columns: GristColumn[] | undefined;
		withColumns: boolean;
		itemIndex: number;
	},
): Promise<{ records: R; columns: GristColumn[] | undefined }> {
	const { cache, itemIndex } = opts;
	if (!opts.withColumns || opts.columns) return { records: await read(), columns: opts.columns };
	if (client.isOAuth) {
		const columns = await cache.get(target, itemIndex);
		return { records: await read(), columns };
	}
	const [records, columns] = await Promise.allSettled([read(), cache.get(target, itemIndex)]);
	if (columns.status === 'rejected') throw columns.reason;
	if (records.status === 'rejected') throw records.reason;
	return { records: records.value, columns: columns.value };
}

/**
 * A record's output JSON: with Simplify flat, dates as ISO text and lists as arrays (`types`: the
 * table's column types); without, Grist's `{ id, fields }` as read.
 */
export function recordJson(
	record: GristRecord,
	simplify: boolean,
	types: Record<string, string>,
): IDataObject {
	return simplify ? simplifyRecord(record, types) : (record as unknown as IDataObject);
}

/** The records of `rows`, as GET …/records gives them. */
export function fetchedRecords(rows: FetchedRows): GristRecord[] {
	return 'records' in rows ? rows.records : columnarToRecords(rows.columns, rows.includeHidden);
}

/**
 * The output JSON of each of `rows`, as `recordJson` of each of its records; with Simplify, rows
 * read as columns are built straight from them.
 */
export function fetchedJson(
	rows: FetchedRows,
	simplify: boolean,
	types: Record<string, string>,
): IDataObject[] {
	if (simplify && 'columns' in rows)
		return columnarToSimplified(rows.columns, rows.includeHidden, types);
	return fetchedRecords(rows).map((record) => recordJson(record, simplify, types));
}
