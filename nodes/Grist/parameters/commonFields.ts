/**
 * Field shapes many operations share: a notice, the required Name field, the Options, Filters
 * and Update Fields collections, and a list of entries the user adds. Each operation still says
 * its own texts and options.
 */
import type { INodeProperties } from 'n8n-workflow';

/** A notice (a text shown above the fields, not a value). */
export function noticeField(name: string, text: string): INodeProperties {
	return { displayName: text, name, type: 'notice', default: '' };
}

/** The required Name field of an organization, workspace or document (read by `readName`). */
export function nameField(description: string, placeholder?: string): INodeProperties {
	return {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		...(placeholder === undefined ? {} : { placeholder }),
		description,
	};
}

function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The Options collection (`options`): settings one adds when needed. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Options', 'options', 'Add Option', options);
}

/** The Filters collection (`filters`) of a list. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return collection('Filters', 'filters', 'Add Filter', options);
}

/** The Additional Fields collection (`additionalFields`): optional fields of a new object. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Additional Fields', 'additionalFields', 'Add Field', options);
}

/** The Update Fields collection (`updateFields`): only the fields given are changed. */
export function updateFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Update Fields', 'updateFields', 'Add Field', options);
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
