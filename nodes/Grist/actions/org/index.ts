import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as getAll from './getAll.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['org'] } },
	options: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the organizations (team sites and personal sites) the API key can see',
			action: 'Get many organizations',
		},
	],
	default: 'getAll',
};

export const org: ResourceModule = {
	option: { name: 'Organization', value: 'org', description: 'A Grist site: personal or team' },
	description: [operation, ...getAll.description],
	operations: { getAll: getAll.execute },
};
