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
			description: 'Add records given as columns of values',
			action: 'Create records from columns',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete records by their row IDs (the older /data route)',
			action: 'Delete columnar records',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Read records as columns of values, or one item per record',
			action: 'Get many records as columns',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change records given as columns of values with an ID column',
			action: 'Update records from columns',
		},
	],
	default: 'getAll',
};

export const columnar: ResourceModule = {
	option: {
		name: 'Columnar Records (Deprecated)',
		value: 'columnar',
		description: "Records in Grist's older column-oriented form (/data), for existing workflows",
	},
	description: [
		operation,
		...getAll.description,
		...create.description,
		...update.description,
		...del.description,
	],
	operations: {
		getAll: getAll.execute,
		create: create.execute,
		update: update.execute,
		delete: del.execute,
	},
};
