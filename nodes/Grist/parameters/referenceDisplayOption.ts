/**
 * Options → Add Reference Display Values, shared by Record → Get Many and both triggers: the
 * field and its readers (off by default, so saved workflows read as before).
 */
import type {
	IExecuteFunctions,
	IPollFunctions,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

import { itemParameter, nodeParameter } from './read';

export const referenceDisplayOption: INodeProperties = {
	displayName: 'Add Reference Display Values',
	name: 'referenceDisplay',
	type: 'boolean',
	default: false,
	description:
		'Whether to add, under _display, what Grist shows for each Reference and Reference List column (e.g. "Acme Ltd" for Client = 3): the referenced rows\' shown column, read with one request per referenced table. Empty or missing references give null.',
};

/** Get Many: the option of item `itemIndex`. */
export function readReferenceDisplay(this: IExecuteFunctions, itemIndex: number): boolean {
	return itemParameter.call(this, 'options.referenceDisplay', itemIndex, false) as boolean;
}

/** A trigger: the option. */
export function readTriggerReferenceDisplay(ctx: IPollFunctions | IWebhookFunctions): boolean {
	return nodeParameter(ctx, 'options.referenceDisplay', false as boolean) === true;
}
