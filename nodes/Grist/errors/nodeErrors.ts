/**
 * The one adapter from any error to n8n's errors, for the action node, both triggers, the
 * methods and the API client: a NodeApiError or NodeOperationError stays as it is (with the item
 * index), an InputError becomes a NodeOperationError whose description is its hint, anything
 * else a NodeOperationError around it. Hints for Grist's answers come from the one table of
 * errors/hints.ts.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError } from './gristAnswers';
import { withHint, type HintScope, type HintValues } from './hints';

export interface NodeErrorOptions {
	/** The input item the error is about (absent in triggers). */
	itemIndex?: number;
	/**
	 * Where an InputError's message says it is: `field` adds `(Filters, item 2)`, `item` adds
	 * `(item 2)`; nothing is added by default. Needs `itemIndex`.
	 */
	where?: 'field' | 'item';
	/** The description of an InputError that has no hint of its own. */
	hint?: string;
	/** The entries of the hint table that may describe a Grist error here, and their values. */
	scope?: HintScope;
	values?: HintValues;
}

/**
 * An error headline in one style: Grist's own messages start in lower case ("document not found")
 * where ours start with a capital ('Table not found "Taskz"'); the first letter is capitalised,
 * the rest of Grist's text kept as it is.
 */
export function headline(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function located(error: InputError, options: NodeErrorOptions): string {
	const { itemIndex, where } = options;
	if (itemIndex === undefined || where === undefined) return error.message;
	if (where === 'field' && error.field !== undefined)
		return `${error.message} (${error.field}, item ${itemIndex})`;
	return `${error.message} (item ${itemIndex})`;
}

/** Any error as n8n's error for `node`; see the options for what is added. */
export function toNodeError(
	node: INode,
	error: unknown,
	options: NodeErrorOptions = {},
): NodeApiError | NodeOperationError {
	const { itemIndex } = options;
	if (options.scope) withHint(error, options.scope, { itemIndex, ...options.values });
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		return new NodeOperationError(node, error, {
			message: located(error, options),
			itemIndex,
			description: error.hint ?? options.hint,
		});
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
