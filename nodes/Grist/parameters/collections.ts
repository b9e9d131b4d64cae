/**
 * The two shapes of grouped fields: Options (optional fields the user adds one by one) and a list
 * of entries the user adds (a `fixedCollection` with multiple values, read as `<name>.<entry>`).
 */
import type { INodeProperties } from 'n8n-workflow';

/** Options (`options.<name>`): optional fields, added one by one. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/**
 * A list of entries (`<name>.<entry.name>`, each made of `entry.values`); `more` adds the
 * description and display options the list has.
 */
export function entryList(
	list: { displayName: string; name: string; placeholder: string },
	entry: { displayName: string; name: string; values: INodeProperties[] },
	more: Pick<INodeProperties, 'description' | 'displayOptions'> = {},
): INodeProperties {
	return {
		displayName: list.displayName,
		name: list.name,
		type: 'fixedCollection',
		placeholder: list.placeholder,
		typeOptions: { multipleValues: true },
		default: {},
		...more,
		options: [entry],
	};
}
