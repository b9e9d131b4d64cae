import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getServiceAccount, revokeServiceAccountKey } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';
import {
	serviceAccountIdValue,
	serviceAccountLocator,
} from '../../parameters/serviceAccountFields';

const properties: INodeProperties[] = [serviceAccountLocator];

export const description = operationDescription('serviceAccount', 'revokeKey', properties);

/**
 * DELETE /api/service-accounts/{id}/apikey, then the account as it is now (`hasValidKey`
 * false): it keeps its access and can get a key again with Create New Key.
 */
export const execute = perItem(async function (client, itemIndex) {
	const id = serviceAccountIdValue.call(this, itemIndex);
	try {
		await revokeServiceAccountKey(client, id, itemIndex);
		return await getServiceAccount(client, id, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
});
