import { operationSelector, resourceModule } from '../operationFrame';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operation = operationSelector(
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

export const columnar = resourceModule(
	{
		name: 'Columnar Records (Deprecated)',
		value: 'columnar',
		description: "Records in Grist's older column-oriented form (/data), for existing workflows",
	},
	operation,
	{ getAll, create, update, delete: del },
);
