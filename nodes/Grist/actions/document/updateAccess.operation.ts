import type { INodeProperties } from 'n8n-workflow';

import { updateAccess } from '../../api/access';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { accessUpdateFields, readAccessDelta } from '../../parameters/accessUsers';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator, ...accessUpdateFields('document')];

export const description = operationDescription('document', 'updateAccess', properties);

/** PATCH /api/docs/{docId}/access with `{ delta: { users?, maxInheritedRole? } }`. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const body = readAccessDelta.call(this, 'document', itemIndex);
	await updateAccess(client, { kind: 'document', docId }, body, itemIndex);
	return { updated: true, ...body.delta };
});
