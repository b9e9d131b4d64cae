/**
 * One poll of the Grist Trigger in trigger mode, whatever the event (the event's module:
 * ./events/pollEvent.ts); and the errors of a failed poll made to say what to fix.
 *
 * Static data (`getWorkflowStaticData('node')`): `{ key, cursor, updatedAt?, sqlRefused?,
 * apiLimited? }`.
 * `key` names what the cursor is about (document, table, event, columns, the Filter of Row Added
 * and Row Added or Updated); when the user
 * changes any of these, the next poll takes a new baseline. The cursor is written only after a
 * poll succeeded, together with the records it emits (n8n saves static data when a poll emits).
 * The first poll records the baseline and emits nothing.
 *
 * Idle polls, every event: a poll first reads the document's `updatedAt` from Grist's home
 * database (GET /api/docs/{docId}, answered without opening the document) and stops there when
 * it is the value stored (`updatedAt`) after the last poll that read the document. grist-core
 * pushes `updatedAt` after every user action that changes the document, at most once a minute
 * (HostedMetadataManager: 60 s after its previous push, for all documents of the server): so a
 * change reaches the trigger up to 60 s later than without the check. The value is read before
 * the document, so a change made while a poll runs moves it again and the next poll sees it.
 *
 * When `updatedAt` moved, the event's own idle check may still tell that nothing is due: Row
 * Added and Row Added or Updated ask Grist's `/sql` (cursor.ts, "Idle check"). Where `/sql` is
 * refused (403: OAuth tokens, access rules) the trigger remembers it (`sqlRefused`, until the
 * baseline is taken again) and reads records only.
 *
 * At the plan's API limit (Grist's 429 `Exceeded daily limit…`, not retried) the poll fails
 * saying so, and the next polls skip the `updatedAt` read: one request per poll while refused.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
} from 'n8n-workflow';

import { toNodeError } from '../Grist/errors/nodeErrors';
import { InputError } from '../Grist/errors/gristAnswers';
import { gristHint } from '../Grist/errors/hints';
import { getDocument } from '../Grist/api/documents';
import { isApiLimitError } from '../Grist/api/requestErrors';
import { checkColumns } from './columnChecks';
import type { StoredCursor } from './events';
import type { IdleMemo, PollContext, PollEvent } from './events/pollEvent';
import { TIMESTAMP_FIELD } from './pollErrors';
import { RECORD_EVENTS, type TriggerSettings } from './triggerSettings';

interface Stored extends IdleMemo {
	key?: string;
	/** The last poll was refused at the plan's API limit. */
	apiLimited?: boolean;
	cursor?: StoredCursor;
	/** The document's `updatedAt` read before the last poll that read the document. */
	updatedAt?: string;
}

/** What the cursor is about: a change of any of these takes a new baseline. */
function cursorKey(s: TriggerSettings): string {
	return JSON.stringify([
		s.docId,
		s.tableId,
		s.event,
		s.timestampColumn,
		s.creationColumn,
		// the change events' cursor is a history state, whatever the Filter
		RECORD_EVENTS.includes(s.event) ? (s.filter ?? null) : null,
	]);
}

/** A poll in trigger mode: baseline, idle, or the event's items since the cursor. */
export async function runPoll(
	ctx: PollContext,
	event: PollEvent<StoredCursor>,
): Promise<INodeExecutionData[][] | null> {
	const key = cursorKey(ctx.settings);
	const data = ctx.fn.getWorkflowStaticData('node') as IDataObject & Stored;
	const cursor =
		data.key === key && data.cursor?.kind === ctx.settings.event ? data.cursor : undefined;

	// The idle check: Grist's home database answers without opening the document. While the
	// plan's API limit refuses the document, a poll makes only the document's own request, which
	// tells when Grist answers again (explainFailure notes the refusal).
	const limited = data.apiLimited === true;
	delete data.apiLimited;
	const updatedAt = limited ? undefined : await documentUpdatedAt(ctx);
	if (cursor && updatedAt !== undefined && data.updatedAt === updatedAt) return null;

	if (!cursor) {
		// First poll (or the trigger now watches something else): record where things stand.
		await checkColumns(ctx);
		const baseline = await event.baseline(ctx);
		data.key = key;
		data.cursor = baseline;
		data.updatedAt = updatedAt;
		delete data.sqlRefused;
		return null;
	}
	if (await event.isIdle(ctx, cursor, data)) {
		data.updatedAt = updatedAt;
		return null;
	}
	const result = await event.poll(ctx, cursor);
	// The cursor moves only now, after every request of this poll succeeded.
	if (result.cursor) data.cursor = result.cursor;
	// A backlog left for the next polls must not wait for the document to change again.
	if (result.more) delete data.updatedAt;
	else data.updatedAt = updatedAt;
	return result.items.length > 0 ? [result.items] : null;
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
		const doc = await getDocument(ctx.client, ctx.settings.docId, 0);
		return typeof doc.updatedAt === 'string' ? doc.updatedAt : undefined;
	} catch (error) {
		if (error instanceof NodeApiError) return undefined;
		throw toNodeError(ctx.fn.getNode(), error);
	}
}

/** Turns a failure into an error that names what to fix. The cursor has not moved. */
export async function explainFailure(ctx: PollContext, error: unknown): Promise<Error> {
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
	if (isApiLimitError(error)) ctx.fn.getWorkflowStaticData('node').apiLimited = true;
	const { docId, tableId, timestampColumn } = ctx.settings;
	const status = Number(error.httpCode);
	const description = gristHint('trigger.poll', error.message, status, { docId, tableId });
	if (!description && (status === 400 || status === 500) && timestampColumn) {
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
