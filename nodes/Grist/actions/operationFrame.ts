/**
 * The frame every operation file shares, so that each file holds only what is its own: its
 * fields (`operationDescription`: shown for its resource and operation only), what it does for
 * one input item (`perItem`), and the resource's module built from its operations
 * (`operationSelector`, `resourceModule`).
 */
import type {
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GristClient } from '../api/client';
import { forEachItem, type ItemResult } from './items';
import type { GristResource, OperationExecute, ResourceModule } from './types';

/** An operation's fields, shown only when its resource and operation are selected. */
export function operationDescription(
	resource: GristResource,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource], operation: [operation] } },
		properties,
	);
}

/** What an operation does for input item `itemIndex`: its output item(s). */
export type ItemOperation = (
	this: IExecuteFunctions,
	client: GristClient,
	itemIndex: number,
) => Promise<ItemResult>;

/** A loop over the input items such as `forEachItem` (paired items, Continue On Fail). */
export type ItemLoop = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (itemIndex: number) => Promise<ItemResult>,
) => Promise<INodeExecutionData[]>;

/**
 * An operation that runs `run` for each input item, in order (`forEachItem`: paired items on
 * every output, per-item errors under Continue On Fail).
 */
export function perItem(run: ItemOperation): OperationExecute {
	return perItemThrough(forEachItem, run);
}

/** `perItem` through another loop over the items, e.g. `forEachSchemaItem` (tables, columns). */
export function perItemThrough(loop: ItemLoop, run: ItemOperation): OperationExecute {
	return async function (this: IExecuteFunctions, client, items) {
		return await loop.call(
			this,
			items,
			async (itemIndex) => await run.call(this, client, itemIndex),
		);
	};
}

/** The Operation selector of a resource: its operations in the order shown. */
export function operationSelector(
	resource: GristResource,
	options: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}

/** An operation file as a module: its fields and its execute. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
}

/**
 * A resource from its Resource option, its Operation selector and its operation files by
 * operation value; the fields of the operations follow the selector in the order given.
 */
export function resourceModule(
	option: ResourceModule['option'],
	selector: INodeProperties,
	operations: Record<string, OperationModule>,
): ResourceModule {
	const modules = Object.entries(operations);
	return {
		option,
		description: [selector, ...modules.flatMap(([, m]) => m.description)],
		operations: Object.fromEntries(modules.map(([value, m]) => [value, m.execute])),
	};
}
