import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { getOrgUsage } from '../../api/orgs';
import { withHint } from '../../errors/hints';
import { optionalOrgLocator, orgKeyValue } from '../../parameters/locators';

const properties: INodeProperties[] = [optionalOrgLocator];

export const description = operationDescription('org', 'getUsage', properties);

/**
 * GET /api/orgs/{org}/usage (owners only): Grist's summary as one item, `countsByDataLimitStatus`
 * (documents approaching their plan's data limit, in the grace period, delete-only) and
 * `attachments.totalBytes` (with `limitExceeded` when over the plan's limit).
 */
export const execute = perItem(async function (client, itemIndex) {
	const key = await orgKeyValue.call(this, client, itemIndex);
	try {
		return await getOrgUsage(client, key, itemIndex);
	} catch (error) {
		throw withHint(error, 'org.usage', { itemIndex });
	}
});
