import type { INodeProperties } from 'n8n-workflow';

import { accessItems } from '../../documents/roles';
import { getAccess } from '../../api/access';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator];

export const description = operationDescription('document', 'getAccess', properties);

/** GET /api/docs/{docId}/access: one item per user, with the document's maxInheritedRole. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const listing = await getAccess(client, { kind: 'document', docId }, itemIndex);
	return accessItems('document', listing);
});
