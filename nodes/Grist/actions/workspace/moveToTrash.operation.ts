import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { moveToTrash } from '../../api/trash';
import { noticeField } from '../../parameters/commonFields';
import { workspaceIdValue, workspaceLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'trashNotice',
		"Moves the workspace and its documents to Grist's trash, from where Restore brings them back. Delete removes a workspace permanently instead.",
	),
	workspaceLocator,
];

export const description = operationDescription('workspace', 'moveToTrash', properties);

/** POST /api/workspaces/{wid}/remove (Grist's soft delete; needs the Owner role). */
export const execute = perItem(async function (client, itemIndex) {
	const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
	await moveToTrash(client, { kind: 'workspace', wid }, itemIndex);
	return { id: wid, inTrash: true };
});
