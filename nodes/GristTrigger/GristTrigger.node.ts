import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { documentLocator, tableLocator } from '../Grist/actions/common.descriptions';
import { listSearch } from '../Grist/methods';

/**
 * Polls a Grist table for new (or new and updated) records.
 * Skeleton: the polling logic arrives with the trigger issue.
 */
export class GristTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Grist Trigger',
		name: 'gristTrigger',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] }}',
		description: 'Starts the workflow when records are added to (or updated in) a Grist table',
		defaults: { name: 'Grist Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gristApi', required: true }],
		properties: [
			documentLocator,
			tableLocator,
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Row Added', value: 'rowAdded', description: 'A new record appears in the table' },
					{
						name: 'Row Added or Updated',
						value: 'rowAddedOrUpdated',
						description: 'A record is added or changed (needs a timestamp column)',
					},
				],
				default: 'rowAdded',
			},
		],
	};

	methods = { listSearch };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		throw new NodeOperationError(this.getNode(), 'Polling is not available yet in this version of the Grist Trigger');
	}
}
