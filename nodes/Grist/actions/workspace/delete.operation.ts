import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { noticeField } from '../../parameters/commonFields';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';
import { deleteWorkspace } from '../../api/workspaces';

const properties: INodeProperties[] = [
	noticeField(
		'deleteNotice',
		'Deleting a workspace permanently deletes every document in it. This cannot be undone.',
	),
	workspaceLocator,
];

export const description = operationDescription('workspace', 'delete', properties);

/** DELETE /api/workspaces/{wid}: permanent, with all its documents (needs the Owner role). */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	await deleteWorkspace(client, wid, itemIndex);
	return { deleted: true };
});
