import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { applyLimit, limitFields } from '../../parameters/limit';
import { listServiceAccounts } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';

const properties: INodeProperties[] = [...limitFields];

export const description = operationDescription('serviceAccount', 'getAll', properties);

/** GET /api/service-accounts: the service accounts of the user of the API key (never their keys). */
export const execute = perItem(async function (client, itemIndex) {
	try {
		const accounts = await listServiceAccounts(client, itemIndex);
		return applyLimit(this, accounts, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
});
