import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { startTiming } from '../../api/timing';
import { withHint } from '../../errors/hints';
import { noticeField } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'timingNotice',
		'Grist measures how long each formula column takes to calculate until Stop Timing, which returns the times. Measuring slows the document down a little: stop it when done.',
	),
	documentLocator,
];

export const description = operationDescription('document', 'startTiming', properties);

/** POST /api/docs/{docId}/timing/start (needs the Owner role). */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	try {
		await startTiming(client, docId, itemIndex);
	} catch (error) {
		throw withHint(error, 'document.timing', { itemIndex, docId });
	}
	return { documentId: docId, status: 'active' };
});
