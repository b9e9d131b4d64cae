import type { INodeProperties } from 'n8n-workflow';

import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const selector = operationSelector(
	'columnar',
	[
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
	'getAll',
);

/**
 * Columnar stays out of new nodes and still runs in a saved node that has it. n8n's node panel
 * lists a resource's actions by looking for the Operation selector whose `show.resource` list
 * holds the resource's value (`includes`); written as a condition, which the parameter panel
 * evaluates the same way, it is not found there, so the panel lists no columnar action. The
 * Resource option itself shows only on a node that already has it.
 */
const operation: INodeProperties = {
	...selector,
	displayOptions: { show: { resource: [{ _cnd: { eq: 'columnar' } }] } },
};

export const columnar = resourceModule(
	{
		name: 'Columnar Records (Deprecated)',
		value: 'columnar',
		description: "Records in Grist's older column-oriented form (/data), for existing workflows",
		displayOptions: { show: { resource: ['columnar'] } },
	},
	operation,
	{ getAll, create, update, delete: del },
);
