import { operationSelector, resourceModule } from '../operationFrame';
import * as clearQueue from './clearQueue.operation';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operation = operationSelector(
	'webhook',
	[
		{
			name: 'Clear Queue',
			value: 'clearQueue',
			description: "Drop the events waiting in a document's delivery queue",
			action: 'Clear the webhook queue of a document',
		},
		{
			name: 'Create',
			value: 'create',
			description: 'Make Grist send changed rows of a table to a URL',
			action: 'Create a webhook',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a webhook of a document',
			action: 'Delete a webhook',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				"List a document's webhooks with their delivery health (status, waiting events, last error)",
			action: 'Get many webhooks',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Enable or disable a webhook, or change its URL, events or columns',
			action: 'Update a webhook',
		},
	],
	'getAll',
);

export const webhook = resourceModule(
	{
		name: 'Webhook',
		value: 'webhook',
		description: 'A webhook of a document: Grist sends changed rows to a URL',
	},
	operation,
	{ clearQueue, create, delete: del, getAll, update },
);
