/**
 * Load options of the Grist Instant Trigger: the table's Toggle (Bool) columns for Ready Column,
 * and its data and formula columns for Watched Columns — the lists of the Grist node's Webhook
 * resource, read from the parameters being edited.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { readyColumnOptions, watchedColumnOptions } from '../Grist/methods/webhookOptions';

export async function getReadyColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await readyColumnOptions(this, true);
}

export async function getWatchableColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await watchedColumnOptions(this, true);
}
