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
import { simplifyRecord, type GristRecord } from '../Grist/cells/cellValues';
import { columnTypes, isTimestampColumn, type GristColumn } from '../Grist/cells/tableColumns';
import { InputError } from '../Grist/errors/gristAnswers';
import { parseJsonFilter, type GristFilter } from '../Grist/query/filters';
import { gristHint } from '../Grist/errors/hints';
import { toNodeError } from '../Grist/errors/nodeErrors';
import { listSearch } from '../Grist/methods';
import { GristClient } from '../Grist/transport';
import {
	fetchColumns,
	fetchRecords,
	getDocument,
	runSql,
	type Target,
} from '../Grist/transport/api';
import { classifyChanges, tableIdAfter } from '../Grist/helpers/changes';
import { columnIdList } from '../Grist/webhooks/webhookFields';
import { getWatchColumns } from '../Grist/methods/webhookOptions';
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
import {
	CHANGE_EVENTS,
	changeItem,
	compareSince,
	currentRows,
	latestState,
	withValuesAtDeletion,
	wanted,
	type ChangeEvent,
	type ChangesState,
	type LostHistory,
} from './history';
import { getCreationColumns, getTimestampColumns } from './loadOptions';
import { addPolledDisplay } from '../Grist/actions/referenceDisplay';
import { referenceDisplayOption } from '../Grist/parameters/referenceDisplay';

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
 * Row Deleted, Row Updated and Any Change read Grist's document history instead (./history.ts).
 *
 * Idle polls, every event: a poll first reads the document's `updatedAt` from Grist's home
 * database (GET /api/docs/{docId}, answered without opening the document) and stops there when
 * it is the value stored (`updatedAt`) after the last poll that read the document. grist-core
 * pushes `updatedAt` after every user action that changes the document, at most once a minute
 * (HostedMetadataManager: 60 s after its previous push, for all documents of the server): so a
 * change reaches the trigger up to 60 s later than without the check. The value is read before
 * the document, so a change made while a poll runs moves it again and the next poll sees it.
 *
 * When `updatedAt` moved, Row Added and Row Added or Updated first ask Grist's `/sql` whether
 * anything is due (cursor.ts, "Idle check"). Where `/sql` is refused (403: OAuth tokens, access
 * rules) the trigger remembers it (`sqlRefused`, until the baseline is taken again) and reads
 * records only, as before.
 */
type Event = 'rowAdded' | 'rowAddedOrUpdated' | ChangeEvent;

interface TriggerOptions {
	filter?: string;
	creationColumn?: string;
	maxRecords?: number;
	watchedColumns?: string[] | string;
	onLostHistory?: LostHistory;
}

interface Stored {
	key?: string;
	cursor?: CursorState | ChangesState;
	/** The document's `updatedAt` read before the last poll that read the document. */
	updatedAt?: string;
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
			'={{ {"rowAddedOrUpdated": "Row added or updated", "rowDeleted": "Row deleted", "rowUpdated": "Row updated", "anyChange": "Any change"}[$parameter["event"]] || "Row added" }}',
		// n8n's node panel shows this node and the Grist node as one entry ("Grist Records &
		// Documents"), with this description; the Grist Instant Trigger is an entry of its own. The
		// event options' `action` is what the panel lists under Triggers: both say how they start.
		description:
			'Records with upsert, conditions and SQL; tables, files; polling trigger (works anywhere)',
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
						name: 'Any Change',
						value: 'anyChange',
						action: 'On row added, updated or deleted (polling)',
						description:
							"Checks the document's change history on a schedule for added, updated and deleted records, each saying which; works anywhere",
					},
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
					{
						name: 'Row Deleted',
						value: 'rowDeleted',
						action: 'On row deleted (polling)',
						description:
							"Checks the document's change history on a schedule for deleted records, with their last values; works anywhere",
					},
					{
						name: 'Row Updated',
						value: 'rowUpdated',
						action: 'On row updated (polling)',
						description:
							"Checks the document's change history on a schedule for changed records, with their previous values; works anywhere",
					},
				],
				default: 'rowAdded',
			},
			{
				displayName:
					'Row Added or Updated needs a column that Grist updates on every change of a record. Set it up once in Grist: a DateTime column, "Set trigger formula" NOW(), "Apply on changes to: Any field". Columns without one are listed last, "not updated automatically".',
				name: 'timestampNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { event: ['rowAddedOrUpdated'] } },
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
					'A Date, DateTime or Numeric column that changes whenever the record changes: a trigger formula NOW() on any change (listed first). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
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
						displayOptions: { show: { '/event': ['rowAdded', 'rowAddedOrUpdated'] } },
						placeholder: '{"Status": ["Open", "Done"]}',
						description:
							'Only records matching this Grist filter trigger: keys are column IDs, values arrays of stored values (ORed); keys are ANDed',
					},
					{
						displayName: 'If Change History Is Lost',
						name: 'onLostHistory',
						type: 'options',
						options: [
							{
								name: 'Stop With an Error',
								value: 'error',
								description:
									'Each poll fails, saying so, until you choose the other option or change the trigger',
							},
							{
								name: 'Start Again From Now',
								value: 'restart',
								description:
									'Go on from the document as it is now; the changes in between are not emitted',
							},
						],
						default: 'error',
						displayOptions: { show: { '/event': ['rowDeleted', 'rowUpdated', 'anyChange'] } },
						description:
							'What to do when Grist no longer has the history since the last poll (it keeps about the last 1,000 actions of the document; a replaced or restored document has another history)',
					},
					{
						displayName: 'Max Records per Poll',
						name: 'maxRecords',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_MAX_RECORDS,
						displayOptions: { show: { '/event': ['rowAdded', 'rowAddedOrUpdated'] } },
						description:
							'Most records one poll emits; a larger backlog is emitted over the next polls, in order',
					},
					referenceDisplayOption,
					{
						displayName: 'Watched Column Names or IDs',
						name: 'watchedColumns',
						type: 'multiOptions',
						typeOptions: {
							loadOptionsMethod: 'getWatchColumns',
							loadOptionsDependsOn: ['document.value', 'table.value'],
						},
						default: [],
						displayOptions: { show: { '/event': ['rowUpdated', 'anyChange'] } },
						description:
							'Updates trigger only when one of these columns changed (empty: any column). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
				],
			},
		],
	};

	methods = {
		listSearch,
		loadOptions: { getTimestampColumns, getCreationColumns, getWatchColumns },
	};

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
			const changeEvent = CHANGE_EVENTS.includes(event) ? (event as ChangeEvent) : undefined;
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

			// The idle check: Grist's home database answers without opening the document.
			const updatedAt = await documentUpdatedAt(ctx);
			if (stored?.kind === event && updatedAt !== undefined && data.updatedAt === updatedAt)
				return null;

			if (!stored || stored.kind !== event) {
				// First poll (or the trigger now watches something else): record where the table stands.
				await checkColumns(ctx);
				const cursor = changeEvent
					? { kind: changeEvent, h: await latestState(client, docId) }
					: event === 'rowAdded'
						? await rowAddedBaseline(fetch, { markColumn: creationColumn || undefined })
						: await rowUpdatedBaseline(fetch, { column: timestampColumn, filter });
				data.key = key;
				data.cursor = cursor;
				data.updatedAt = updatedAt;
				delete data.sqlRefused;
				return null;
			}

			if (changeEvent) {
				return await pollChanges(ctx, data, stored as ChangesState, {
					event: changeEvent,
					simplify,
					updatedAt,
					watchedColumns: columnIdList(options.watchedColumns ?? []),
					lost: options.onLostHistory === 'restart' ? 'restart' : 'error',
				});
			}
			const cursorState = stored as CursorState;

			if (await nothingDue(ctx, data, cursorState)) {
				data.updatedAt = updatedAt;
				return null;
			}

			const budgetMs = pollBudgetMs(this);
			const started = Date.now();
			const limits = { maxRecords, outOfTime: () => Date.now() - started > budgetMs / 2 };
			const outcome =
				cursorState.kind === 'rowAdded'
					? await pollRowAdded(
							cursorState,
							fetch,
							{ filter, markColumn: creationColumn || undefined },
							limits,
						)
					: await pollRowUpdated(
							cursorState as RowUpdatedState,
							fetch,
							{ column: timestampColumn, filter },
							limits,
						);

			let items: INodeExecutionData[] = [];
			if (outcome.records.length > 0) {
				const columns = await checkColumns(ctx);
				items = toOutput(this, outcome.records, simplify, columns);
				await addPolledDisplay(this, client, { docId, tableId }, columns, outcome.records, items);
			}
			// The cursor moves only now, after every request of this poll succeeded.
			if (outcome.changed) data.cursor = outcome.state as RowAddedState | RowUpdatedState;
			// A backlog left for the next polls must not wait for the document to change again.
			if (outcome.more) delete data.updatedAt;
			else data.updatedAt = updatedAt;
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

/**
 * The document's `updatedAt` from Grist's home database (GET /api/docs/{docId}: no document
 * load). Undefined for OAuth2 credentials, or when the answer has none or is an error: the poll
 * then reads the document, whose requests give the error that says what to fix.
 */
async function documentUpdatedAt(ctx: PollContext): Promise<string | undefined> {
	// Grist does not let OAuth apps call GET /api/docs/{docId}: those polls read the document.
	if (ctx.client.isOAuth) return undefined;
	try {
		const doc = await getDocument(ctx.client, ctx.docId, 0);
		return typeof doc.updatedAt === 'string' ? doc.updatedAt : undefined;
	} catch (error) {
		if (error instanceof NodeApiError) return undefined;
		throw toNodeError(ctx.fn.getNode(), error);
	}
}

interface ChangeOptions {
	event: ChangeEvent;
	simplify: boolean;
	updatedAt: string | undefined;
	watchedColumns: string[];
	lost: LostHistory;
}

/** Row Deleted, Row Updated, Any Change: the changes since the cursor's history state. */
async function pollChanges(
	ctx: PollContext,
	data: IDataObject & Stored,
	stored: ChangesState,
	opts: ChangeOptions,
): Promise<INodeExecutionData[][] | null> {
	const node = ctx.fn.getNode();
	const since = await compareSince(ctx.client, node, ctx.docId, stored.h, opts.lost);
	if ('restartAt' in since) {
		ctx.fn.logger.warn(
			`Grist Trigger: the document's history since the last poll is gone; starting again from now (changes in between not emitted)`,
		);
		data.cursor = { kind: opts.event, h: since.restartAt };
		data.updatedAt = opts.updatedAt;
		return null;
	}
	// A table renamed in Grist is followed: the cursor keeps its new id.
	const tableId = tableIdAfter(since.summary, stored.table ?? ctx.tableId);
	if (tableId === null) {
		throw new NodeOperationError(node, `The table "${ctx.tableId}" was deleted`, {
			description: 'Pick another table in the Table field, or turn the workflow off.',
		});
	}
	const delta = since.summary?.tableDeltas?.[tableId];
	let items: INodeExecutionData[] = [];
	if (delta) {
		const columns = await fetchColumns(ctx.client, { docId: ctx.docId, tableId });
		const types = columnTypes(columns);
		const classify = { columns: columns.map((c) => c.id), types };
		const changes = await withValuesAtDeletion(
			ctx.client,
			ctx.docId,
			since,
			stored.table ?? ctx.tableId,
			classifyChanges(delta, { ...classify, watchedColumns: opts.watchedColumns }).filter((c) =>
				wanted(opts.event, c),
			),
			classify,
		);
		const live = changes.filter((c) => c.change !== 'deleted').map((c) => c.id);
		const current = await currentRows(ctx.client, ctx.docId, tableId, [...new Set(live)]);
		items = ctx.fn.helpers.returnJsonArray(
			changes.map((c) =>
				changeItem(c, c.change === 'deleted' ? undefined : current.get(c.id), opts.simplify, types),
			),
		);
		// Add Reference Display Values: from the current row, or a deleted row's last values.
		const shown = changes.map((c) =>
			c.change === 'deleted'
				? { id: c.id, fields: c.values }
				: (current.get(c.id) ?? { id: c.id, fields: c.values }),
		);
		await addPolledDisplay(
			ctx.fn,
			ctx.client,
			{ docId: ctx.docId, tableId },
			columns,
			shown,
			items,
		);
	}
	// The cursor moves only now, after every request of this poll succeeded.
	data.cursor =
		tableId === ctx.tableId
			? { kind: opts.event, h: since.right.h }
			: { kind: opts.event, h: since.right.h, table: tableId };
	data.updatedAt = opts.updatedAt;
	return items.length > 0 ? [items] : null;
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
	const sort = event === 'rowAddedOrUpdated' ? `-${ctx.timestampColumn},-id` : '-id';
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
	if (CHANGE_EVENTS.includes(event)) {
		// The latest record, shaped as the event's items (a change needs a poll to be seen).
		const [record] = records;
		const change =
			event === 'rowDeleted' ? 'deleted' : event === 'rowUpdated' ? 'updated' : 'added';
		const item = changeItem(
			{
				change,
				id: record.id,
				values: record.fields ?? {},
				...(change === 'updated' ? { previous: {}, changedColumns: [] } : {}),
			},
			change === 'deleted' ? undefined : record,
			simplify,
			columnTypes(columns),
		);
		const items = ctx.fn.helpers.returnJsonArray([item]);
		const shown =
			change === 'deleted' ? [{ id: record.id, fields: record.fields ?? {} }] : [record];
		await addPolledDisplay(ctx.fn, ctx.client, ctx, columns, shown, items);
		return [items];
	}
	const items = toOutput(ctx.fn, records, simplify, columns);
	await addPolledDisplay(ctx.fn, ctx.client, ctx, columns, records, items);
	return [items];
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
