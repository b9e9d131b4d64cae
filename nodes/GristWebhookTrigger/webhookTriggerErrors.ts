/**
 * Every error and warning text of the Grist Instant Trigger, in one place (what Grist answers is
 * explained by the hints of the `trigger.webhook` scope, and an unreachable n8n URL by
 * webhooks/webhookFields.ts `unreachableUrlProblem`).
 */
import { NodeOperationError, type INode } from 'n8n-workflow';

/** The answer (401) to a delivery without the registration's secret. */
export const UNAUTHORIZED_DELIVERY = 'Authorization is missing or wrong';

export function noConditionsOnServer(node: INode): NodeOperationError {
	return new NodeOperationError(node, 'This Grist server cannot filter webhook rows', {
		description:
			'A Filter needs Grist 1.7.12 or later (GET /triggers answered 404). Update Grist, or set Filter to None and filter in the workflow (e.g. with an If node).',
	});
}

export function noWebhookId(node: INode): NodeOperationError {
	return new NodeOperationError(node, 'Grist did not return a webhook ID');
}

/** An error with the hint of an input error (a condition that cannot be built, a URL Grist cannot reach). */
export function inputProblem(node: INode, message: string, hint?: string): NodeOperationError {
	return new NodeOperationError(node, message, { description: hint });
}

export const notGristsDelivery = (problem: string) =>
	`Grist Instant Trigger: ignored a delivery that is not Grist's: ${problem}`;

export const columnsUnread = (reason: string) =>
	`Grist Instant Trigger: could not read the table's columns, values of new columns are passed as sent: ${reason}`;

export const displayUnread = (key: string, reason: string) =>
	`Grist Instant Trigger: could not read the reference display values, records are passed without ${key}: ${reason}`;

/** Changes: Exact could not save the trigger's state: nothing is emitted, Grist sends it again. */
export function stateNotSaved(node: INode, reason: string): NodeOperationError {
	return new NodeOperationError(node, `Could not save where the trigger stands: ${reason}`, {
		description:
			"With Changes: Exact, the trigger saves its place in the document's history through its own webhook URL before it emits, so n8n must be able to reach that URL itself. Nothing was emitted; Grist sends the delivery again, and the changes arrive once it succeeds.",
	});
}

export function tableGone(node: INode, tableId: string): NodeOperationError {
	return new NodeOperationError(node, `The table "${tableId}" was deleted in Grist`, {
		description: 'Pick another table and publish the workflow again.',
	});
}

export function anyChangeNeedsExact(node: INode): NodeOperationError {
	return new NodeOperationError(
		node,
		'Trigger On "Row Added, Updated or Deleted" needs Changes: Exact, from the Document\'s History',
		{
			description:
				'Grist sends no webhook for a deleted row: only its history lists deletions. Set Changes to "Exact, from the Document\'s History", or pick another Trigger On.',
		},
	);
}

export const historyGone = () =>
	"Grist Instant Trigger: the document's history since the trigger's saved state is gone; the delivered rows are emitted as Grist sent them (_change.fromDeliveryOnly), and the trigger goes on from now";

export function exactWithCondition(node: INode): NodeOperationError {
	return new NodeOperationError(
		node,
		"Filter and When work with Changes: As Sent by Grist, not with Exact, from the Document's History",
		{
			description:
				'Grist applies a Filter to the rows it sends, not to its history. Set Filter to None and filter in the workflow (e.g. with an If node), or set Changes to "As Sent by Grist".',
		},
	);
}
