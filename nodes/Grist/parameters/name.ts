/** The Name of an organization, workspace or document to create, copy or rename: its reader. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemParameter } from './read';

/** A Name value, trimmed; an empty one is an input error whose description says what to enter. */
export function requiredName(
	this: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
	whatToEnter: string,
): string {
	const name = String(raw ?? '').trim();
	if (name === '') {
		throw new NodeOperationError(this.getNode(), 'The Name is empty', {
			itemIndex,
			description: whatToEnter,
		});
	}
	return name;
}

/** The Name field (`name`) of item `itemIndex`, as `requiredName` checks it. */
export function readName(this: IExecuteFunctions, itemIndex: number, whatToEnter: string): string {
	return requiredName.call(
		this,
		itemParameter.call(this, 'name', itemIndex, ''),
		itemIndex,
		whatToEnter,
	);
}
