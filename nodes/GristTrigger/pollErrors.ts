/**
 * Every error and warning text of the Grist Trigger (polling), in one place: each function makes
 * the error a poll throws, naming what to fix.
 */
import { NodeOperationError, type INode } from 'n8n-workflow';

import type { GristColumn } from '../Grist/cells/tableColumns';
import { InputError } from '../Grist/errors/gristAnswers';

/** The field of the Row Added or Updated event whose cells are the timestamps. */
export const TIMESTAMP_FIELD = 'Timestamp Column';

/** What to fix when Filter (JSON) is not a filter. */
export const FILTER_HINT = 'Fix the Filter (JSON) field.';

/** What to fix when a condition of Filter → Conditions cannot run. */
export const CONDITIONS_HINT = 'Fix the Conditions field.';

/** Logged when the history was lost and Options → If Change History Is Lost says start again. */
export const HISTORY_RESTARTED =
	"Grist Trigger: the document's history since the last poll is gone; starting again from now (changes in between not emitted)";

function fail(node: INode, message: string, description: string): NodeOperationError {
	return new NodeOperationError(node, message, { description });
}

export function noTimestampColumn(node: INode): NodeOperationError {
	return fail(
		node,
		'No timestamp column selected',
		'Row Added or Updated needs a Date, DateTime or Numeric column that changes with the record: pick it in Timestamp Column.',
	);
}

export function badMaxRecords(node: INode): NodeOperationError {
	return fail(
		node,
		'Max Records per Poll must be a number of at least 1',
		'Fix Options → Max Records per Poll.',
	);
}

/** What to do when the timestamp or creation column is not in the table any more. */
const REPICK = {
	timestamp:
		'It was deleted or renamed: pick the column again in Timestamp Column and save the workflow.',
	creation:
		'It was deleted or renamed: pick it again in Options → Creation Column, or remove that option.',
};

/** The timestamp or creation column is not in the table. */
export function columnMissing(
	node: INode,
	which: keyof typeof REPICK,
	column: string,
	tableId: string,
): NodeOperationError {
	return fail(
		node,
		`The ${which} column "${column}" does not exist in table "${tableId}"`,
		REPICK[which],
	);
}

export function timestampColumnType(node: INode, column: GristColumn): NodeOperationError {
	return fail(
		node,
		`The timestamp column "${column.id}" is a ${column.type} column, not Date, DateTime or Numeric`,
		'Pick a Date, DateTime or Numeric column in Timestamp Column, or change the column type in Grist (e.g. a DateTime column with the trigger formula NOW()).',
	);
}

/** A cell of the timestamp column that is neither a number nor empty: the column has the wrong type. */
export function notATimestamp(column: string, rowId: number): InputError {
	return new InputError(
		`The timestamp column "${column}" holds a value that is not a date or number (row ${rowId})`,
		TIMESTAMP_FIELD,
		'Pick a Date, DateTime or Numeric column in Timestamp Column.',
	);
}

/** A manual run ("Fetch test event") found no record to show. */
export function noSample(node: INode, tableId: string, filtered: boolean): NodeOperationError {
	return fail(
		node,
		`No record in table "${tableId}" to show as a sample`,
		filtered
			? 'Add a record that matches the Filter in Grist, or loosen the Filter, then fetch again.'
			: 'Add a record to the table in Grist, then fetch again.',
	);
}

export function tableDeleted(node: INode, tableId: string): NodeOperationError {
	return fail(
		node,
		`The table "${tableId}" was deleted`,
		'Pick another table in the Table field, or turn the workflow off.',
	);
}

/** `/compare` answered 403 "insufficient access". */
export function historyForbidden(node: INode): NodeOperationError {
	return fail(
		node,
		"The credential's user cannot read the whole document, which Grist's change history needs",
		'Grist lists changes only to users no access rule restricts (403 "insufficient access"). Use the API key of an owner of the document, or of a user no access rule limits; or use the Row Added or Row Added or Updated event, which read records only.',
	);
}

/** The cursor's history state is no longer in Grist's history. */
export function historyLost(node: INode): NodeOperationError {
	return fail(
		node,
		"Grist no longer has the document's history from this trigger's last poll: the changes since then cannot be listed",
		'Grist keeps about the last 1,000 actions of a document (edits in any table count), and a replaced or restored document has another history. Nothing was emitted and the trigger stays where it was. To go on from the document as it is now (the changes in between are not emitted), set Options → If Change History Is Lost to "Start Again From Now"; poll more often, or use the Grist Instant Trigger, so that it does not happen again.',
	);
}

/** Conditions that need Grist's /sql, with an OAuth2 credential (Grist refuses it /sql). */
export function conditionsNeedSql(node: INode): NodeOperationError {
	return fail(
		node,
		"These conditions need Grist's SQL endpoint, which Grist refuses to OAuth2 connections",
		"Set Authentication to API Key, or use only Is One Of and Is Empty conditions combined with AND (Grist's record filter works with OAuth2).",
	);
}
