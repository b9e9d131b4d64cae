import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { createServiceAccountKey } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';
import { noticeField } from '../../parameters/commonFields';
import {
	serviceAccountIdValue,
	serviceAccountLocator,
} from '../../parameters/serviceAccountFields';

const properties: INodeProperties[] = [
	noticeField(
		'keyNotice',
		'Replaces the API key of the service account: the old key stops working at once. The output holds the new key ("key"), shown only this once: put it in the credential that uses the account.',
	),
	serviceAccountLocator,
];

export const description = operationDescription('serviceAccount', 'createKey', properties);

/** POST /api/service-accounts/{id}/apikey: the account with its new API key (`key`). */
export const execute = perItem(async function (client, itemIndex) {
	const id = serviceAccountIdValue.call(this, itemIndex);
	try {
		return await createServiceAccountKey(client, id, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
});
