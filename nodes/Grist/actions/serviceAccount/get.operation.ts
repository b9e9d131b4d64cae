import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getServiceAccount } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';
import {
	serviceAccountIdValue,
	serviceAccountLocator,
} from '../../parameters/serviceAccountFields';

const properties: INodeProperties[] = [serviceAccountLocator];

export const description = operationDescription('serviceAccount', 'get', properties);

/** GET /api/service-accounts/{id} (without its key; `hasValidKey` says whether it has one). */
export const execute = perItem(async function (client, itemIndex) {
	const id = serviceAccountIdValue.call(this, itemIndex);
	try {
		return await getServiceAccount(client, id, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
});
