import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { applyLimit, limitFields } from '../../parameters/limit';
import { listOrgs } from '../../api/orgs';

const properties: INodeProperties[] = [...limitFields];

export const description = operationDescription('org', 'getAll', properties);

/** GET /api/orgs: the organizations (sites) the API key can see. */
export const execute = perItem(async function (client, itemIndex) {
	const orgs = await listOrgs(client, itemIndex);
	return applyLimit(this, orgs, itemIndex);
});
