import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { listSnapshots } from '../../api/snapshots';
import { withHint } from '../../errors/hints';
import { optionsCollection } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	optionsCollection([
		{
			displayName: 'Include Unlisted',
			name: 'raw',
			type: 'boolean',
			default: false,
			description:
				"Whether to list the storage's snapshots directly, including ones missing from Grist's inventory",
		},
	]),
];

export const description = operationDescription('document', 'getSnapshots', properties);

/**
 * GET /api/docs/{docId}/snapshots: one item per snapshot, newest first (a server without snapshot
 * storage lists only `current`).
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const raw = Boolean(itemParameter.call(this, 'options.raw', itemIndex, false));
	try {
		const snapshots = await listSnapshots(client, docId, raw, itemIndex);
		return snapshots.map((s) => ({ ...s }));
	} catch (error) {
		throw withHint(error, 'document.snapshots', { docId });
	}
});
