/**
 * The column definition fields the Table and Column operations share (ID, label, type, time
 * zone, choices, referenced table, formula), the column locator, and reading column definitions.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ColumnInput } from '../cells/columnSpecs';
import { itemParameterValue } from './read';
import { entryList } from './commonFields';

const TYPE_OPTIONS = [
	{ name: 'Any', value: 'Any', description: 'Any value (the type of empty formula columns)' },
	{ name: 'Attachments', value: 'Attachments', description: 'Files attached to the row' },
	{ name: 'Choice', value: 'Choice', description: 'One of a list of choices' },
	{ name: 'Choice List', value: 'ChoiceList', description: 'Several of a list of choices' },
	{ name: 'Date', value: 'Date' },
	{ name: 'Date Time', value: 'DateTime', description: 'A moment, shown in a time zone' },
	{ name: 'Integer', value: 'Int' },
	{ name: 'Numeric', value: 'Numeric', description: 'A number with or without decimals' },
	{ name: 'Reference', value: 'Ref', description: 'A row of another table' },
	{ name: 'Reference List', value: 'RefList', description: 'Several rows of another table' },
	{ name: 'Text', value: 'Text' },
	{ name: 'Toggle', value: 'Bool', description: 'True or false' },
];

/**
 * Who a column definition is for: new columns (`create`), an existing one (`update`: every field
 * optional, a New Column ID, the type kept unless one is picked), or both (`createOrUpdate`: the
 * type kept for an existing column, Text for a new one, unless one is picked).
 */
export type ColumnDefinitionMode = 'create' | 'update' | 'createOrUpdate';

/** Column ID and Label, described for `mode`. */
function identityFields(mode: ColumnDefinitionMode): INodeProperties[] {
	return [
		{
			displayName: 'Column ID',
			name: 'id',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Due_Date',
			description: {
				create: 'Letters, digits and _, not starting with a digit; unique in the table',
				update: 'The ID of the column to change (not its label)',
				createOrUpdate: 'The ID of the column to change, or of the new column (not its label)',
			}[mode],
		},
		{
			displayName: 'Label',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: 'e.g. Due Date',
			description: {
				create: 'The name shown in Grist; the column ID when empty',
				update: 'The new label shown in Grist; leave empty to keep it',
				createOrUpdate:
					"The name shown in Grist; when empty, an existing column keeps its label and a new one's is its ID",
			}[mode],
		},
	];
}

/** Update only: renames the column. */
const newColumnIdField: INodeProperties = {
	displayName: 'New Column ID',
	name: 'newId',
	type: 'string',
	default: '',
	description: 'Renames the column; leave empty to keep its ID',
};

/** The type; on update and create-or-update, Keep (the default) leaves an existing column's type. */
function typeField(mode: ColumnDefinitionMode): INodeProperties {
	const field: INodeProperties = {
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: TYPE_OPTIONS,
		default: 'Text',
		description: 'The type of the values',
	};
	if (mode === 'create') return field;
	const update = mode === 'update';
	const keep = update
		? { name: 'Keep', value: '' }
		: {
				name: 'Keep (Text for a New Column)',
				value: '',
				description: "An existing column keeps its type; a new one's type is Text",
			};
	return {
		...field,
		options: [keep, ...TYPE_OPTIONS],
		default: '',
		description: update
			? 'The new type (Grist converts the existing values); Keep leaves it as it is'
			: 'The type of the values; picking one for an existing column converts its values',
	};
}

/**
 * What the type takes: Time Zone, Choices (beyond create they may be for the kept type: Update
 * shows them for every type), Referenced Table.
 */
function typeSettingFields(mode: ColumnDefinitionMode): INodeProperties[] {
	const choiceTypes: Record<ColumnDefinitionMode, INodeProperties['displayOptions']> = {
		create: { show: { type: ['Choice', 'ChoiceList'] } },
		update: undefined,
		createOrUpdate: { show: { type: ['', 'Choice', 'ChoiceList'] } },
	};
	return [
		{
			displayName: 'Time Zone',
			name: 'timezone',
			type: 'string',
			default: 'UTC',
			placeholder: 'e.g. Europe/Paris',
			description: 'IANA time zone the date-times are shown in',
			displayOptions: { show: { type: ['DateTime'] } },
		},
		{
			displayName: 'Choices',
			name: 'choices',
			type: 'string',
			default: '',
			placeholder: 'e.g. Open, In Progress, Done',
			description:
				'The choices, separated by commas, or a JSON array (for choices that contain commas)',
			displayOptions: choiceTypes[mode],
		},
		{
			displayName: 'Referenced Table Name or ID',
			name: 'refTable',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getTables', loadOptionsDependsOn: ['document.value'] },
			default: '',
			description:
				'The table whose rows the column refers to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			displayOptions: { show: { type: ['Ref', 'RefList'] } },
		},
	];
}

/** Formula and Formula Kind. */
function formulaFields(mode: ColumnDefinitionMode): INodeProperties[] {
	return [
		{
			displayName: 'Formula',
			name: 'formula',
			type: 'string',
			default: '',
			placeholder: 'e.g. $Price * $Quantity',
			description: {
				create: 'A Python formula (optional)',
				update: 'A new Python formula; leave empty to keep the current one',
				createOrUpdate:
					"A Python formula (optional); when empty, an existing column's formula is kept",
			}[mode],
		},
		{
			displayName: 'Formula Kind',
			name: 'formulaKind',
			type: 'options',
			options: [
				{
					name: 'Formula Column',
					value: 'formula',
					description: 'The formula computes every cell; the column cannot be written',
				},
				{
					name: 'Default for New Rows',
					value: 'default',
					description: 'A data column; the formula fills the cell when a row is added',
				},
			],
			default: 'formula',
		},
	];
}

/** The fields of one column definition (inside a fixedCollection or a collection). */
export function columnDefinitionFields(mode: ColumnDefinitionMode = 'create'): INodeProperties[] {
	const [id, label] = identityFields(mode);
	return [
		id,
		...(mode === 'update' ? [newColumnIdField] : []),
		label,
		typeField(mode),
		...typeSettingFields(mode),
		...formulaFields(mode),
	];
}

/** The Columns fixedCollection (`columns.column`) of Table → Create and Column → Create / Create or Update. */
export function columnsCollection(
	description: string,
	mode: ColumnDefinitionMode = 'create',
): INodeProperties {
	return entryList(
		{ displayName: 'Columns', name: 'columns', placeholder: 'Add Column' },
		{ displayName: 'Column', name: 'column', values: columnDefinitionFields(mode) },
		{ description },
	);
}

/** Column (From List / By ID) of the picked table. */
export const columnLocator: INodeProperties = {
	displayName: 'Column',
	name: 'column',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	typeOptions: { loadOptionsDependsOn: ['document.value', 'table.value'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchColumns', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. Due_Date',
			hint: 'The column ID, not its label',
		},
	],
};

/** The column definitions of item `itemIndex` (Columns → Column). */
export function readColumnInputs(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'columns.column',
): ColumnInput[] {
	const raw = itemParameterValue.call(this, name, itemIndex, [] as unknown);
	if (!Array.isArray(raw)) {
		throw new NodeOperationError(
			this.getNode(),
			`The Columns of item ${itemIndex} are not a list`,
			{
				itemIndex,
			},
		);
	}
	return raw as ColumnInput[];
}
