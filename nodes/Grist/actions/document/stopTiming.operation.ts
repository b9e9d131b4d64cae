import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { timingItems } from '../../admin/formulaTimings';
import { stopTiming } from '../../api/timing';
import { withHint } from '../../errors/hints';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('document', 'stopTiming', properties);

/**
 * POST /api/docs/{docId}/timing/stop: one item per formula column measured (slowest first,
 * times in ms, `status` "stopped"); one item with just the status when none was calculated.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	try {
		const timing = await stopTiming(client, docId, itemIndex);
		return timingItems(docId, 'stopped', timing);
	} catch (error) {
		throw withHint(error, 'document.timing', { itemIndex, docId });
	}
});
