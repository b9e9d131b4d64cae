/**
 * What the Table and Column operations share: the column definition fields (ID, label, type,
 * time zone, choices, referenced table, formula), the column locator, reading column
 * definitions as input errors naming the field and item, and running items one by one with the
 * items already done named when one fails.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GristColumn } from '../helpers/columns';
import { SchemaInputError, type ColumnInput } from '../helpers/schema';
import { forEachItem, type ItemResult } from './items';

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
 * The fields of one column definition (inside a fixedCollection). `update`: every field
 * optional, a New Column ID, and the type without a default.
 */
export function columnDefinitionFields(update = false): INodeProperties[] {
	const fields: INodeProperties[] = [
		{
			displayName: update ? 'Column ID' : 'Column ID',
			name: 'id',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Due_Date',
			description: update
				? 'The ID of the column to change (not its label)'
				: 'Letters, digits and _, not starting with a digit; unique in the table',
		},
		{
			displayName: 'Label',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: 'e.g. Due Date',
			description: update
				? 'The new label shown in Grist; leave empty to keep it'
				: 'The name shown in Grist; the column ID when empty',
		},
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: TYPE_OPTIONS,
			default: 'Text',
			description: update
				? 'The new type (Grist converts the existing values); Keep leaves it as it is'
				: 'The type of the values',
		},
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
			...(update ? {} : { displayOptions: { show: { type: ['Choice', 'ChoiceList'] } } }),
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
		{
			displayName: 'Formula',
			name: 'formula',
			type: 'string',
			default: '',
			placeholder: 'e.g. $Price * $Quantity',
			description: update
				? 'A new Python formula; leave empty to keep the current one'
				: 'A Python formula (optional)',
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
	if (update) {
		// the type is kept unless one is picked
		const type = fields.findIndex((f) => f.name === 'type');
		fields[type] = {
			...fields[type],
			options: [{ name: 'Keep', value: '' }, ...TYPE_OPTIONS],
			default: '',
		};
		fields.splice(1, 0, {
			displayName: 'New Column ID',
			name: 'newId',
			type: 'string',
			default: '',
			description: 'Renames the column; leave empty to keep its ID',
		});
	}
	return fields;
}

/** The Columns fixedCollection (`columns.column`) of Table → Create and Column → Create / Create or Update. */
export function columnsCollection(description: string, update = false): INodeProperties {
	return {
		displayName: 'Columns',
		name: 'columns',
		type: 'fixedCollection',
		placeholder: 'Add Column',
		typeOptions: { multipleValues: true },
		default: {},
		description,
		options: [{ displayName: 'Column', name: 'column', values: columnDefinitionFields(update) }],
	};
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
	const raw = this.getNodeParameter(name, itemIndex, []) as unknown;
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

/** A SchemaInputError as a NodeOperationError naming the field and the item; others pass. */
export function schemaError(this: IExecuteFunctions, error: unknown, itemIndex: number): unknown {
	if (error instanceof SchemaInputError) {
		return new NodeOperationError(
			this.getNode(),
			`${error.message} (${error.field}, item ${itemIndex})`,
			{
				itemIndex,
				description: error.hint,
			},
		);
	}
	return error;
}

/** A column as an output item: ID, label, type, formula, choices. */
export function columnItem(c: GristColumn): IDataObject {
	const json: IDataObject = {
		id: c.id,
		label: c.label,
		type: c.type,
		isFormula: c.isFormula,
		formula: c.formula,
	};
	if (c.choices) json.choices = c.choices;
	if (c.description) json.description = c.description;
	return json;
}

/**
 * Runs `fn` per item like forEachItem; when an item fails (without Continue On Fail), the error
 * also says which items were done before it (each item's request is all-or-nothing).
 */
export async function forEachSchemaItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const done: number[] = [];
	let failure: unknown;
	try {
		return await forEachItem.call(this, items, async (itemIndex) => {
			try {
				const result = await fn(itemIndex);
				done.push(itemIndex);
				return result;
			} catch (error) {
				throw schemaError.call(this, error, itemIndex);
			}
		});
	} catch (error) {
		failure = error;
	}
	const error = failure;
	if (items.length > 1 && (error instanceof NodeApiError || error instanceof NodeOperationError)) {
		const note =
			done.length === 0
				? 'No item was done before it.'
				: `Item${done.length > 1 ? 's' : ''} ${done.join(', ')} ${done.length > 1 ? 'were' : 'was'} done before it; nothing of the failed item was applied.`;
		error.description = error.description ? `${error.description} ${note}` : note;
	}
	throw error;
}
