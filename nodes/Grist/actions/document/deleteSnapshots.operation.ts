import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { listSnapshots, removeSnapshots } from '../../api/snapshots';
import { parseSnapshotIds } from '../../documents/versions';
import { withHint } from '../../errors/hints';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { itemParameter, itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Delete',
		name: 'select',
		type: 'options',
		options: [
			{ name: 'Chosen Snapshots', value: 'ids', description: 'The snapshots whose IDs you enter' },
			{
				name: 'All Past Snapshots',
				value: 'past',
				description: 'Every snapshot but the latest (e.g. after sensitive data got into them)',
			},
			{
				name: 'Unlisted Snapshots',
				value: 'unlisted',
				description: "Snapshots in storage that Grist's inventory does not list (a clean-up)",
			},
		],
		default: 'ids',
	},
	{
		displayName: 'Snapshot IDs',
		name: 'snapshotIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 6fc1ecd1-…, 0b2a55e4-…',
		description: 'The snapshots to delete, separated by commas (Get Snapshots outputs snapshotId)',
		displayOptions: { show: { select: ['ids'] } },
	},
];

export const description = operationDescription('document', 'deleteSnapshots', properties);

/**
 * POST /api/docs/{docId}/snapshots/remove. Chosen IDs are checked against the document's
 * snapshots first (Grist answers success for an ID it does not have).
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const select = itemParameter.call(this, 'select', itemIndex, 'ids') as
		| 'ids'
		| 'past'
		| 'unlisted';
	try {
		if (select !== 'ids') {
			const removed = await removeSnapshots(client, docId, { select }, itemIndex);
			return { docId, deleted: true, snapshotIds: removed };
		}
		let snapshotIds: string[];
		try {
			snapshotIds = parseSnapshotIds(
				itemParameterValue.call(this, 'snapshotIds', itemIndex, '' as unknown),
				'Snapshot IDs',
			);
		} catch (error) {
			throw new NodeOperationError(
				this.getNode(),
				`Snapshot IDs of item ${itemIndex}: ${(error as Error).message}`,
				{ itemIndex },
			);
		}
		const known = new Set(
			(await listSnapshots(client, docId, true, itemIndex)).map((s) => s.snapshotId),
		);
		const missing = snapshotIds.filter((id) => !known.has(id));
		if (missing.length > 0) {
			throw new NodeOperationError(
				this.getNode(),
				`The document "${docId}" has no snapshot ${missing.map((id) => `"${id}"`).join(', ')} (item ${itemIndex})`,
				{
					itemIndex,
					description:
						'Nothing was deleted. Check the Snapshot IDs: Document → Get Snapshots (with Include Unlisted) lists the snapshots of this document.',
				},
			);
		}
		const removed = await removeSnapshots(client, docId, { snapshotIds }, itemIndex);
		return { docId, deleted: true, snapshotIds: removed };
	} catch (error) {
		throw withHint(error, 'document.snapshots', { docId });
	}
});
