import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { deleteServiceAccount } from '../../api/serviceAccounts';
import { withHint } from '../../errors/hints';
import { noticeField } from '../../parameters/commonFields';
import {
	serviceAccountIdValue,
	serviceAccountLocator,
} from '../../parameters/serviceAccountFields';

const properties: INodeProperties[] = [
	noticeField(
		'deleteNotice',
		'Deleting a service account is permanent: its key stops working at once. Revoke Key only takes the key away.',
	),
	serviceAccountLocator,
];

export const description = operationDescription('serviceAccount', 'delete', properties);

/** DELETE /api/service-accounts/{id}. */
export const execute = perItem(async function (client, itemIndex) {
	const id = serviceAccountIdValue.call(this, itemIndex);
	try {
		await deleteServiceAccount(client, id, itemIndex);
	} catch (error) {
		throw withHint(error, 'serviceAccount', { itemIndex });
	}
	return { id, deleted: true };
});
