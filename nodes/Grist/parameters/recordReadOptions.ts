/**
 * What Record → Get shares with Record → Get Many: Simplify and the Options (Include Hidden
 * Columns, Add Reference Display Values), their fields and readers; Include Hidden Columns also
 * serves Column → Get Many.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemParameter } from './read';
import { referenceDisplayOption } from './referenceDisplayOption';
import { optionsCollection } from './commonFields';

/** Options with "Include Hidden Columns" (Grist's `hidden=1`), for the reads of records and columns. */
export const hiddenColumnsOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Include Hidden Columns',
		name: 'includeHidden',
		type: 'boolean',
		default: false,
		description: "Whether to also return Grist's helper columns (manualSort, gristHelper_*)",
	},
]);

/** Simplify of Record → Get Many and Record → Get: one row reads the same from both. */
export const recordSimplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		"Whether to return flat records (the row ID next to the fields) with dates as ISO text and lists as arrays, instead of Grist's raw form with the fields nested",
};

/** The Options of Record → Get Many and Record → Get: Include Hidden Columns, Add Reference Display Values. */
export const recordReadOptions: INodeProperties = {
	...hiddenColumnsOptions,
	options: [...hiddenColumnsOptions.options!, referenceDisplayOption],
};

/** Simplify of item `itemIndex` (Record → Get Many and Get). */
export function readSimplify(this: IExecuteFunctions, itemIndex: number): boolean {
	return itemParameter.call(this, 'simplify', itemIndex, true) as boolean;
}

/** Options → Include Hidden Columns of item `itemIndex`. */
export function readIncludeHidden(this: IExecuteFunctions, itemIndex: number): boolean {
	return itemParameter.call(this, 'options.includeHidden', itemIndex, false) as boolean;
}
