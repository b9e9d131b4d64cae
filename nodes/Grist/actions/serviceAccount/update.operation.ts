import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getServiceAccount, updateServiceAccount } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';
import {
	readServiceAccountUpdate,
	serviceAccountIdValue,
	serviceAccountLocator,
	serviceAccountUpdateFields,
} from '../../parameters/serviceAccountFields';

const properties: INodeProperties[] = [serviceAccountLocator, ...serviceAccountUpdateFields];

export const description = operationDescription('serviceAccount', 'update', properties);

/** PATCH /api/service-accounts/{id}, then the account as it is now. */
export const execute = perItem(async function (client, itemIndex) {
	const id = serviceAccountIdValue.call(this, itemIndex);
	const body = readServiceAccountUpdate.call(this, itemIndex);
	try {
		await updateServiceAccount(client, id, body, itemIndex);
		return await getServiceAccount(client, id, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
});
