import type { INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getWorkspace } from '../../api/workspaces';
import { getWorkspaceTrash, restoreFromTrash } from '../../api/trash';
import { noticeField } from '../../parameters/commonFields';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'restoreNotice',
		"Brings a workspace back from Grist's trash, with its documents. Workspaces in the trash are not in the list: enter the ID.",
	),
	workspaceLocator,
];

export const description = operationDescription('workspace', 'restore', properties);

/**
 * GET /api/workspaces/{wid}?showRemoved=1 (is it in the trash? Grist's unremove would silently
 * succeed otherwise), POST /api/workspaces/{wid}/unremove, then returns the workspace.
 */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	const inTrash = await getWorkspaceTrash(client, wid, itemIndex).then(
		(ws) => Boolean(ws.removedAt),
		(error: unknown) => {
			if (error instanceof NodeApiError && error.httpCode === '404') return false;
			throw error;
		},
	);
	if (!inTrash) {
		throw new NodeOperationError(
			this.getNode(),
			`The workspace ${wid} is not in the trash (item ${itemIndex})`,
			{
				description:
					'Nothing to restore: it is active, was deleted permanently, or the ID is wrong. To restore one document of it, use Document → Restore.',
				itemIndex,
			},
		);
	}
	await restoreFromTrash(client, { kind: 'workspace', wid }, itemIndex);
	return await getWorkspace(client, wid, itemIndex);
});
