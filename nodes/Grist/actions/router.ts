import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { GristClient } from '../api/client';
import { resources } from './resources';
import type { GristResource } from './types';
import { inputItems, itemParameter } from '../parameters/read';
import { isToolNodeType, toolUnsupportedMessage } from '../errors/toolUnsupported';

/** Looks up `{ resource: { operation: execute } }` and runs the operation on all input items. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = inputItems.call(this);
	const resource = itemParameter.call(this, 'resource', 0, undefined) as GristResource;
	const operation = itemParameter.call(this, 'operation', 0, undefined) as string;
	const execute = resources[resource]?.operations[operation];
	if (!execute) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
			{ description: 'Pick a Resource and an Operation from the lists.' },
		);
	}
	const unsupported = isToolNodeType(this.getNode().type)
		? toolUnsupportedMessage(resource, operation)
		: undefined;
	if (unsupported) {
		throw new NodeOperationError(this.getNode(), unsupported.message, {
			description: unsupported.description,
		});
	}
	const client = await GristClient.create(this);
	return [await execute.call(this, client, items)];
}
