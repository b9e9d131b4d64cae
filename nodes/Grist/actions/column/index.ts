import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as getAll from './getAll.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['column'] } },
	options: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: "List a table's columns with their label, type and formula",
			action: 'Get many columns',
		},
	],
	default: 'getAll',
};

export const column: ResourceModule = {
	option: { name: 'Column', value: 'column', description: 'Columns of a table' },
	description: [operation, ...getAll.description],
	operations: { getAll: getAll.execute },
};
