import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { buildAccessDelta } from '../../helpers/access';
import { updateAccess } from '../../transport/api';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { accessUpdateFields, accessUpdateInput } from '../../parameters/access';
import { toNodeError } from '../../errors';

const properties: INodeProperties[] = [documentLocator, ...accessUpdateFields('document')];

export const description = operationDescription('document', 'updateAccess', properties);

/** PATCH /api/docs/{docId}/access with `{ delta: { users?, maxInheritedRole? } }`. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	let body;
	try {
		const input = accessUpdateInput.call(this, 'document', itemIndex);
		body = buildAccessDelta('document', input.rows, input.maxInheritedRole);
	} catch (error) {
		throw toNodeError(this.getNode(), error, { itemIndex });
	}
	await updateAccess(client, { kind: 'document', docId }, body, itemIndex);
	return { updated: true, ...body.delta };
});
