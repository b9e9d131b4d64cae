/**
 * What both triggers (the polling Grist Trigger and the Grist Instant Trigger) read alike: the
 * table they watch, from their Document and Table fields.
 */
import type { IHookFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Target } from '../api/paths';
import { locatorValue } from '../parameters/locators';

/** The Document and Table of a trigger; an empty one is an error saying which field to fill in. */
export function triggerTarget(ctx: IPollFunctions | IHookFunctions): Target {
	const node = ctx.getNode();
	const docId = locatorValue(ctx, 'document');
	const tableId = locatorValue(ctx, 'table');
	if (!docId) {
		throw new NodeOperationError(node, 'No document selected', {
			description: 'Pick a document in the Document field.',
		});
	}
	if (!tableId) {
		throw new NodeOperationError(node, 'No table selected', {
			description: 'Pick a table in the Table field.',
		});
	}
	return { docId, tableId };
}
