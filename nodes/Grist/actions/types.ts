import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { GristClient } from '../api/client';

/** Resource values (shared by every operation and by the trigger). */
export type GristResource =
	| 'org'
	| 'workspace'
	| 'document'
	| 'record'
	| 'column'
	| 'columnar'
	| 'attachment'
	| 'table'
	| 'sql'
	| 'webhook'
	| 'serviceAccount';

/**
 * One operation: gets all input items at once (so operations can batch), returns output items
 * with `pairedItem` set.
 */
export type OperationExecute = (
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

export interface ResourceModule {
	/** The entry of the Resource selector. */
	option: INodePropertyOptions & { value: GristResource };
	/** The Operation selector and every operation's parameters. */
	description: INodeProperties[];
	operations: Record<string, OperationExecute>;
}
