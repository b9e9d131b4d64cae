import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { authenticationProperty, credentialOptions } from '../Grist/parameters/authentication';
import { documentLocator, tableLocator } from '../Grist/parameters/locators';
import { nodeParameter } from '../Grist/parameters/read';
import { triggerTarget } from '../Grist/parameters/trigger';
import { simplifyRecord, type GristRecord } from '../Grist/helpers/cells';
import { columnTypes, isTimestampColumn, type GristColumn } from '../Grist/helpers/columns';
import { InputError } from '../Grist/helpers/errors';
import { parseJsonFilter, type GristFilter } from '../Grist/helpers/filters';
import { gristHint } from '../Grist/helpers/hints';
import { toNodeError } from '../Grist/errors';
import { listSearch } from '../Grist/methods';
import { GristClient } from '../Grist/transport';
import { fetchColumns, fetchRecords, runSql, type Target } from '../Grist/transport/api';
import {
	TIMESTAMP_FIELD,
	pollRowAdded,
	pollRowUpdated,
	rowAddedBaseline,
	rowAddedIdleQuery,
	rowAddedIsIdle,
	rowUpdatedBaseline,
	rowUpdatedIdleQuery,
	rowUpdatedIsIdle,
	type CursorState,
	type FetchRecords,
	type RowAddedState,
	type RowUpdatedState,
} from './cursor';
import { getCreationColumns, getTimestampColumns } from './loadOptions';

/**
 * Polls a Grist table for new (or new and updated) records. The cursor design is in ./cursor.ts.
 *
 * Static data (`getWorkflowStaticData('node')`): `{ key, cursor }`. `key` names what the cursor
 * is about (document, table, event, columns, filter); when the user changes any of these, the
 * next poll takes a new baseline. The cursor is written only after a poll succeeded, together with
 * the records it emits (n8n saves static data when a poll emits). The first poll in trigger mode
 * records the baseline and emits nothing; a manual poll returns the latest record as a sample and
 * neither reads nor writes the cursor.
 *
 * An idle poll first asks Grist's `/sql` whether anything is due (cursor.ts, "Idle check"): an
 * answer from the document's SQLite file, without loading the document. Where `/sql` is refused
 * (403: OAuth tokens, access rules) the trigger remembers it (`sqlRefused`, until the baseline is
 * taken again) and reads records only, as before.
 */
type Event = 'rowAdded' | 'rowAddedOrUpdated';

interface TriggerOptions {
	filter?: string;
	creationColumn?: string;
	maxRecords?: number;
}

interface Stored {
	key?: string;
	cursor?: CursorState;
	/** `/sql` answered 403 for this trigger: polls read records only. */
	sqlRefused?: boolean;
}

const DEFAULT_MAX_RECORDS = 500;

export class GristTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Grist Trigger',
		name: 'gristTrigger',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["event"] === "rowAddedOrUpdated" ? "Row added or updated" : "Row added" }}',
		// n8n's node panel shows this node and the Grist node as one entry ("Grist Records &
		// Documents"), with this description; the Grist Instant Trigger is an entry of its own. The
		// event options' `action` is what the panel lists under Triggers: both say how they start.
		description:
			'Read, create, update and delete records (rows) of Grist tables, manage documents, and start workflows when records are added or updated (polling: checks the table on a schedule, works anywhere)',
		documentationUrl: 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#grist-trigger',
		defaults: { name: 'Grist Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialOptions,
		properties: [
			authenticationProperty,
			documentLocator,
			tableLocator,
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Row Added',
						value: 'rowAdded',
						action: 'On row added (polling)',
						description:
							'Checks the table on a schedule (Poll Times) for new records; works anywhere',
					},
					{
						name: 'Row Added or Updated',
						value: 'rowAddedOrUpdated',
						action: 'On row added or updated (polling)',
						description:
							'Checks the table on a schedule (Poll Times) for added or changed records (needs a timestamp column); works anywhere',
					},
				],
				default: 'rowAdded',
			},
			{
				displayName: 'Timestamp Column Name or ID',
				name: 'timestampColumn',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: 'getTimestampColumns',
					loadOptionsDependsOn: ['document.value', 'table.value'],
				},
				required: true,
				default: '',
				displayOptions: { show: { event: ['rowAddedOrUpdated'] } },
				description:
					'A Date, DateTime or Numeric column that changes whenever the record changes, e.g. a DateTime column with the trigger formula NOW() applied on any change. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description:
					"Whether to return flat records (the row ID next to the fields) with dates as ISO text, instead of Grist's raw form with the fields nested",
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Creation Column Name or ID',
						name: 'creationColumn',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getCreationColumns',
							loadOptionsDependsOn: ['document.value', 'table.value'],
						},
						default: '',
						displayOptions: { show: { '/event': ['rowAdded'] } },
						description:
							'A column set once when a record is created (e.g. a DateTime with the trigger formula NOW() on new records only). Lets the trigger tell new records that got the IDs of just-deleted last records from edits of those records. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Filter (JSON)',
						name: 'filter',
						type: 'json',
						default: '',
						placeholder: '{"Status": ["Open", "Done"]}',
						description:
							'Only records matching this Grist filter trigger: keys are column IDs, values arrays of stored values (ORed); keys are ANDed',
					},
					{
						displayName: 'Max Records per Poll',
						name: 'maxRecords',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_MAX_RECORDS,
						description:
							'Most records one poll emits; a larger backlog is emitted over the next polls, in order',
					},
				],
			},
		],
	};

	methods = { listSearch, loadOptions: { getTimestampColumns, getCreationColumns } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const node = this.getNode();
		const { docId, tableId } = triggerTarget(this);
		const event = nodeParameter(this, 'event', 'rowAdded') as Event;
		const simplify = nodeParameter(this, 'simplify', true) as boolean;
		const options = nodeParameter(this, 'options', {}) as TriggerOptions;
		const timestampColumn =
			event === 'rowAddedOrUpdated'
				? String(nodeParameter(this, 'timestampColumn', '' as unknown) ?? '').trim()
				: '';
		if (event === 'rowAddedOrUpdated' && !timestampColumn) {
			throw new NodeOperationError(node, 'No timestamp column selected', {
				description:
					'Row Added or Updated needs a Date, DateTime or Numeric column that changes with the record: pick it in Timestamp Column.',
			});
		}
		const creationColumn = event === 'rowAdded' ? String(options.creationColumn ?? '').trim() : '';
		const maxRecords = Number(options.maxRecords ?? DEFAULT_MAX_RECORDS);
		if (!Number.isFinite(maxRecords) || maxRecords < 1) {
			throw new NodeOperationError(node, 'Max Records per Poll must be a number of at least 1', {
				description: 'Fix Options → Max Records per Poll.',
			});
		}
		let filter: GristFilter | undefined;
		try {
			const raw = options.filter as unknown;
			filter = parseJsonFilter(raw === undefined ? '' : raw, 'Filter (JSON)');
			if (Object.keys(filter).length === 0) filter = undefined;
		} catch (error) {
			throw toNodeError(node, error, { hint: 'Fix Options → Filter (JSON).' });
		}

		const client = await GristClient.create(this);
		const ctx: PollContext = { fn: this, client, docId, tableId, timestampColumn, creationColumn };
		const fetch = recordsFetcher(client, { docId, tableId });
		try {
			if (this.getMode() === 'manual') {
				return await sample(ctx, event, fetch, filter, simplify);
			}

			const key = JSON.stringify([
				docId,
				tableId,
				event,
				timestampColumn,
				creationColumn,
				filter ?? null,
			]);
			const data = this.getWorkflowStaticData('node') as IDataObject & Stored;
			const stored = data.key === key ? data.cursor : undefined;

			if (!stored || stored.kind !== event) {
				// First poll (or the trigger now watches something else): record where the table stands.
				await checkColumns(ctx);
				const cursor =
					event === 'rowAdded'
						? await rowAddedBaseline(fetch, { markColumn: creationColumn || undefined })
						: await rowUpdatedBaseline(fetch, { column: timestampColumn, filter });
				data.key = key;
				data.cursor = cursor;
				delete data.sqlRefused;
				return null;
			}

			if (await nothingDue(ctx, data, stored)) return null;

			const budgetMs = pollBudgetMs(this);
			const started = Date.now();
			const limits = { maxRecords, outOfTime: () => Date.now() - started > budgetMs / 2 };
			const outcome =
				stored.kind === 'rowAdded'
					? await pollRowAdded(
							stored,
							fetch,
							{ filter, markColumn: creationColumn || undefined },
							limits,
						)
					: await pollRowUpdated(
							stored as RowUpdatedState,
							fetch,
							{ column: timestampColumn, filter },
							limits,
						);

			let items: INodeExecutionData[] = [];
			if (outcome.records.length > 0) {
				const columns = await checkColumns(ctx);
				items = toOutput(this, outcome.records, simplify, columns);
			}
			// The cursor moves only now, after every request of this poll succeeded.
			if (outcome.changed) data.cursor = outcome.state as RowAddedState | RowUpdatedState;
			return items.length > 0 ? [items] : null;
		} catch (error) {
			throw await explain(ctx, error);
		}
	}
}

interface PollContext {
	fn: IPollFunctions;
	client: GristClient;
	docId: string;
	tableId: string;
	timestampColumn: string;
	creationColumn: string;
}

function pollBudgetMs(fn: IPollFunctions): number {
	const get = (fn as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	const value = typeof get === 'function' ? get.call(fn) : NaN;
	return Number.isFinite(value) && value > 0 ? value : 60_000;
}

/** Longest time Grist may spend on the idle check's SQL (Grist caps it at 1 s by default). */
const SQL_TIMEOUT_MS = 1000;

/**
 * The idle check (cursor.ts): whether `/sql` says for sure that nothing is due. False when it
 * cannot tell, fails (the records reads then give the real error) or is refused: a 403 is
 * remembered, so later polls do not ask again.
 */
async function nothingDue(
	ctx: PollContext,
	data: IDataObject & Stored,
	stored: CursorState,
): Promise<boolean> {
	// OAuth2 tokens may not call /sql (Grist answers 403; the transport stops it before sending).
	if (data.sqlRefused || ctx.client.isOAuth) return false;
	const markColumn = ctx.creationColumn || undefined;
	const query =
		stored.kind === 'rowAdded'
			? rowAddedIdleQuery(ctx.tableId, markColumn)
			: rowUpdatedIdleQuery(ctx.tableId, ctx.timestampColumn, stored);
	let rows: Array<Record<string, unknown>>;
	try {
		rows = await runSql(ctx.client, ctx.docId, query.sql, query.args, SQL_TIMEOUT_MS);
	} catch (error) {
		if (error instanceof NodeApiError && Number(error.httpCode) === 403) data.sqlRefused = true;
		return false;
	}
	return stored.kind === 'rowAdded'
		? rowAddedIsIdle(stored, rows, markColumn)
		: rowUpdatedIsIdle(stored, rows);
}

function recordsFetcher(client: GristClient, target: Target): FetchRecords {
	return async (query) => {
		const qs: IDataObject = {};
		if (query.filter) qs.filter = JSON.stringify(query.filter);
		if (query.sort) qs.sort = query.sort;
		if (query.limit !== undefined) qs.limit = query.limit;
		return await fetchRecords(client, target, qs);
	};
}

/** Fetches the columns and checks the columns the trigger relies on. */
async function checkColumns(ctx: PollContext): Promise<GristColumn[]> {
	const columns = await fetchColumns(ctx.client, { docId: ctx.docId, tableId: ctx.tableId });
	const node = ctx.fn.getNode();
	if (ctx.timestampColumn) {
		const column = columns.find((c) => c.id === ctx.timestampColumn);
		if (!column) {
			throw new NodeOperationError(
				node,
				`The timestamp column "${ctx.timestampColumn}" does not exist in table "${ctx.tableId}"`,
				{
					description:
						'It was deleted or renamed: pick the column again in Timestamp Column and save the workflow.',
				},
			);
		}
		if (!isTimestampColumn(column)) {
			throw new NodeOperationError(
				node,
				`The timestamp column "${column.id}" is a ${column.type} column, not Date, DateTime or Numeric`,
				{
					description:
						'Pick a Date, DateTime or Numeric column in Timestamp Column, or change the column type in Grist (e.g. a DateTime column with the trigger formula NOW()).',
				},
			);
		}
	}
	if (ctx.creationColumn && !columns.some((c) => c.id === ctx.creationColumn)) {
		throw new NodeOperationError(
			node,
			`The creation column "${ctx.creationColumn}" does not exist in table "${ctx.tableId}"`,
			{
				description:
					'It was deleted or renamed: pick it again in Options → Creation Column, or remove that option.',
			},
		);
	}
	return columns;
}

function toOutput(
	fn: IPollFunctions,
	records: GristRecord[],
	simplify: boolean,
	columns: GristColumn[],
): INodeExecutionData[] {
	const types = columnTypes(columns);
	const json: IDataObject[] = records.map((r) => {
		if (simplify) return simplifyRecord(r, types);
		const raw: IDataObject = { id: r.id, fields: r.fields as IDataObject };
		if (r.errors && Object.keys(r.errors).length > 0) raw.errors = r.errors as IDataObject;
		return raw;
	});
	return fn.helpers.returnJsonArray(json);
}

/** Manual run ("Fetch test event"): the latest record as a sample; the cursor is not touched. */
async function sample(
	ctx: PollContext,
	event: Event,
	fetch: FetchRecords,
	filter: GristFilter | undefined,
	simplify: boolean,
): Promise<INodeExecutionData[][] | null> {
	const columns = await checkColumns(ctx);
	const sort = event === 'rowAdded' ? '-id' : `-${ctx.timestampColumn},-id`;
	const records = await fetch({ sort, limit: 1, filter });
	if (records.length === 0) {
		throw new NodeOperationError(
			ctx.fn.getNode(),
			`No record in table "${ctx.tableId}" to show as a sample`,
			{
				description: filter
					? 'Add a record that matches the filter in Grist, or loosen Options → Filter (JSON), then fetch again.'
					: 'Add a record to the table in Grist, then fetch again.',
			},
		);
	}
	return [toOutput(ctx.fn, records, simplify, columns)];
}

/** Turns a failure into an error that names what to fix. The cursor has not moved. */
async function explain(ctx: PollContext, error: unknown): Promise<Error> {
	if (error instanceof InputError && error.field === TIMESTAMP_FIELD) {
		// A cell that is not a timestamp: a column of the wrong type says so better.
		try {
			await checkColumns(ctx);
		} catch (columnError) {
			return columnError as Error;
		}
		return toNodeError(ctx.fn.getNode(), error);
	}
	if (!(error instanceof NodeApiError)) return error as Error;
	const status = Number(error.httpCode);
	const description = gristHint('trigger.poll', error.message, status, {
		docId: ctx.docId,
		tableId: ctx.tableId,
	});
	if (!description && (status === 400 || status === 500) && ctx.timestampColumn) {
		// Sorting by a column that no longer exists: say which column.
		try {
			await checkColumns(ctx);
		} catch (columnError) {
			if (columnError instanceof NodeOperationError) return columnError;
		}
	}
	if (description) error.description = description;
	return error;
}
