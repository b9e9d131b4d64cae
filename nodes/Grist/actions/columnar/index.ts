import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['columnar'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			description: 'Add rows given as columns of values',
			action: 'Create rows from columns',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete rows by their IDs (the older /data route)',
			action: 'Delete rows',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Read rows as columns of values, or one item per row',
			action: 'Get many rows as columns',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change rows given as columns of values with an ID column',
			action: 'Update rows from columns',
		},
	],
	default: 'getAll',
};

export const columnar: ResourceModule = {
	option: {
		name: 'Columnar Rows (Deprecated)',
		value: 'columnar',
		description: "Rows in Grist's older column-oriented form (/data), for existing workflows",
	},
	description: [operation, ...getAll.description, ...create.description, ...update.description, ...del.description],
	operations: { getAll: getAll.execute, create: create.execute, update: update.execute, delete: del.execute },
};
