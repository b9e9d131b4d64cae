/**
 * What the Grist Instant Trigger does with a delivery (a POST from Grist): checks its secret, and
 * turns its records into items.
 *
 * Grist sends the registration's secret as `Authorization: Bearer <secret>`; a request without it
 * gets 401 and starts nothing. Column types (for Simplify) are read once per activation (static
 * data), and again only when a delivery carries a column they do not know: those are kept in this
 * process's memory (`laterColumnTypes`), not in static data. n8n loads the workflow afresh for
 * every delivery, and in queue mode the webhook process does not save what `webhook()` writes
 * into static data (a single n8n does); writing there would also race with the main process's
 * writes.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	bearer,
	deliveredItem,
	secretsEqual,
	unknownColumns,
	type TriggerOn,
} from '../Grist/webhooks/webhookFields';
import { locatorValue } from '../Grist/parameters/locators';
import { nodeParameter } from '../Grist/parameters/read';
import { readTriggerReferenceDisplay } from '../Grist/parameters/referenceDisplayOption';
import { DISPLAY_KEY } from '../Grist/read/displayValues';
import { ReferenceDisplay } from '../Grist/read/referenceDisplay';
import { GristClient } from '../Grist/api/client';
import { fetchColumns } from '../Grist/api/columns';
import { type Target } from '../Grist/api/paths';
import { readColumnTypes, type Stored } from './webhookRegistration';
import { sentChange } from './exactChanges';
import { UNAUTHORIZED_DELIVERY, columnsUnread, displayUnread } from './webhookTriggerErrors';

/** Whether the request carries the registration's secret; if not, it is answered 401. */
export function authorized(fn: IWebhookFunctions, data: Stored): boolean {
	const given = fn.getRequestObject().headers.authorization;
	if (data.secret && typeof given === 'string' && secretsEqual(given, bearer(data.secret)))
		return true;
	fn.getResponseObject().status(401).json({ message: UNAUTHORIZED_DELIVERY });
	return false;
}

/**
 * Column types read by `webhook()` for columns added after activation, per registration (document,
 * webhook and table), in this process's memory; the oldest registration is dropped past 200.
 */
const laterColumnTypes = new Map<string, Record<string, string>>();
const LATER_COLUMN_TYPES_MAX = 200;

function rememberLaterColumnTypes(key: string, types: Record<string, string>): void {
	laterColumnTypes.delete(key);
	laterColumnTypes.set(key, types);
	while (laterColumnTypes.size > LATER_COLUMN_TYPES_MAX) {
		const oldest = laterColumnTypes.keys().next().value;
		if (oldest === undefined) break;
		laterColumnTypes.delete(oldest);
	}
}

/**
 * The column types for the delivered records: those of the activation, and the table's columns
 * read again when a record has a column they do not know (Simplify only). A failed read is logged
 * and the values of new columns are passed as sent.
 */
async function typesFor(
	fn: IWebhookFunctions,
	data: Stored,
	target: Target,
	records: Array<Record<string, unknown>>,
	simplify: boolean,
): Promise<Record<string, string>> {
	const laterKey = JSON.stringify([
		fn.getWorkflow().id ?? '',
		fn.getNode().name,
		target.docId,
		data.webhookId ?? '',
		target.tableId,
	]);
	const types = { ...data.columnTypes, ...laterColumnTypes.get(laterKey) };
	if (!simplify || unknownColumns(records, types).length === 0) return types;
	try {
		const client = await GristClient.create(fn);
		const read = await readColumnTypes(client, target.docId, target.tableId);
		rememberLaterColumnTypes(laterKey, read);
		return read;
	} catch (error) {
		fn.logger.warn(columnsUnread((error as Error).message));
		return types;
	}
}

/**
 * The delivered records as items' JSON (Changes: As Sent by Grist), with `_display` when the
 * option is on, then `_change` as the Grist Trigger's items have it: `type` from Trigger On
 * (`addedOrUpdated` for Row Added or Updated, which Grist's delivery does not tell apart).
 */
export async function deliveredItems(
	fn: IWebhookFunctions,
	data: Stored,
	records: Array<Record<string, unknown> & { id: number }>,
	on: TriggerOn,
): Promise<IDataObject[]> {
	const simplify = nodeParameter(fn, 'simplify', true) as boolean;
	const target = {
		docId: data.docId ?? locatorValue(fn, 'document'),
		tableId: locatorValue(fn, 'table'),
	};
	const types = await typesFor(fn, data, target, records, simplify);
	const items = records.map((r) => deliveredItem(r, simplify, types));
	await addDeliveredDisplay(fn, target, records, items, simplify);
	return items.map((item) => ({ ...item, _change: sentChange(on) }));
}

/**
 * `_display` on the delivered records when the option is on (the table's columns and the
 * referenced rows are read per delivery). A failed read is logged and the records start the
 * workflow without `_display`: an error answer would make Grist send the delivery again, and a
 * lasting failure (e.g. no access to the referenced table) would stall the document's webhook
 * queue.
 */
async function addDeliveredDisplay(
	fn: IWebhookFunctions,
	target: Target,
	records: Array<Record<string, unknown>>,
	outputs: IDataObject[],
	simplify: boolean,
): Promise<void> {
	if (!readTriggerReferenceDisplay(fn)) return;
	try {
		const client = await GristClient.create(fn);
		const columns = await fetchColumns(client, target);
		await new ReferenceDisplay(client).add(target, columns, records, outputs, simplify);
	} catch (error) {
		fn.logger.warn(displayUnread(DISPLAY_KEY, (error as Error).message));
	}
}
