import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { createServiceAccount } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';
import { noticeField } from '../../parameters/commonFields';
import {
	readServiceAccountCreate,
	serviceAccountCreateFields,
} from '../../parameters/serviceAccountFields';

const properties: INodeProperties[] = [
	noticeField(
		'keyNotice',
		'The output holds the new API key ("key"): Grist shows it only this once. Store it in a credential, and keep it out of logs, messages and later nodes. The account can see only what you share with its "login" email.',
	),
	...serviceAccountCreateFields,
];

export const description = operationDescription('serviceAccount', 'create', properties);

/** POST /api/service-accounts: the new account with its API key (`key`). */
export const execute = perItem(async function (client, itemIndex) {
	const body = readServiceAccountCreate.call(this, itemIndex);
	try {
		return await createServiceAccount(client, body, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
});
