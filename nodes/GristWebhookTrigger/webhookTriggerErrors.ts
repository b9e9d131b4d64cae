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
