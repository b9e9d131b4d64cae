import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { timingItems } from '../../admin/formulaTimings';
import { getTiming } from '../../api/timing';
import { withHint } from '../../errors/hints';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('document', 'getTiming', properties);

/**
 * GET /api/docs/{docId}/timing: while timing runs, one item per formula column measured so far
 * (slowest first, times in ms, `status` "active"); else one item with the `status` ("disabled",
 * or "pending" while the document is busy).
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	try {
		const answer = await getTiming(client, docId, itemIndex);
		return timingItems(docId, answer.status, answer.timing);
	} catch (error) {
		throw withHint(error, 'document.timing', { itemIndex, docId });
	}
});
