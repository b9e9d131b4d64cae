/**
 * Watched Columns, shown alike by the Grist Trigger, the Grist Instant Trigger and Webhook →
 * Create: updates count only when one of the picked columns changed.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * The field (`watchedColumns`). `method`: the load-options method listing the table's columns;
 * `updates`: what an update does, as the description says it ("trigger", "are sent").
 */
export function watchedColumnsField(opts: {
	method: string;
	updates: string;
	displayOptions?: IDisplayOptions;
}): INodeProperties {
	return {
		displayName: 'Watched Column Names or IDs',
		name: 'watchedColumns',
		type: 'multiOptions',
		typeOptions: {
			loadOptionsMethod: opts.method,
			loadOptionsDependsOn: ['document.value', 'table.value'],
		},
		default: [],
		...(opts.displayOptions ? { displayOptions: opts.displayOptions } : {}),
		description: `Updates ${opts.updates} only when one of these columns changed (empty: any column). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}
