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

import { toNodeError } from '../errors/nodeErrors';
import type { GristColumn } from '../cells/tableColumns';
import { InputError } from '../errors/gristAnswers';
import { checkReferencedTable, referencedTable, type ColumnInput } from '../cells/columnSpecs';
import type { GristClient } from '../transport';
import { writeColumns, type TableCache, type Target } from '../transport/api';
import { forEachItem, type ItemResult } from '../actions/items';
import { itemParameterValue } from './read';

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

/** The fields of one column definition (inside a fixedCollection or a collection). */
export function columnDefinitionFields(mode: ColumnDefinitionMode = 'create'): INodeProperties[] {
	const update = mode === 'update';
	const fields: INodeProperties[] = [
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
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: TYPE_OPTIONS,
			default: 'Text',
			description: 'The type of the values',
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
			displayOptions: { show: { type: ['Choice', 'ChoiceList'] } },
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
	if (mode !== 'create') {
		// the type is kept unless one is picked
		const type = fields.findIndex((f) => f.name === 'type');
		fields[type] = {
			...fields[type],
			options: [
				update
					? { name: 'Keep', value: '' }
					: {
							name: 'Keep (Text for a New Column)',
							value: '',
							description: "An existing column keeps its type; a new one's type is Text",
						},
				...TYPE_OPTIONS,
			],
			default: '',
			description: update
				? 'The new type (Grist converts the existing values); Keep leaves it as it is'
				: 'The type of the values; picking one for an existing column converts its values',
		};
		// Choices may be for the kept type
		const choices = fields.findIndex((f) => f.name === 'choices');
		fields[choices] = {
			...fields[choices],
			displayOptions: update ? undefined : { show: { type: ['', 'Choice', 'ChoiceList'] } },
		};
	}
	if (update) {
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
export function columnsCollection(
	description: string,
	mode: ColumnDefinitionMode = 'create',
): INodeProperties {
	return {
		displayName: 'Columns',
		name: 'columns',
		type: 'fixedCollection',
		placeholder: 'Add Column',
		typeOptions: { multipleValues: true },
		default: {},
		description,
		options: [{ displayName: 'Column', name: 'column', values: columnDefinitionFields(mode) }],
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

/**
 * Keeps a column's ID when a request changes its label or ID, now and later: adds
 * `untieColIdFromLabel: true` to the column's `fields`.
 *
 * In Grist a column's ID is tied to its label (`_grist_Tables_column.untieColIdFromLabel`,
 * false by default): an update that sets `label` without `colId` also renames the column to an ID
 * derived from the label (useractions.py `_adjust_one_column_update`: `Due date` → `Due_date`,
 * `Name2` when taken), and PATCH/PUT …/columns are such updates (DocApi.ts: a BulkUpdateRecord /
 * UpdateRecord of `_grist_Tables_column`). Grist keeps the ID when the update also carries
 * `colId` (the same ID) or `untieColIdFromLabel: true`. We send the latter: it keeps the ID in
 * this request and also when the label is changed later in Grist's UI (the column's "link to
 * label" is off), so the ID that workflows use stays put; `colId` would protect this request
 * only. A new ID the user gives (New Column ID) is sent as `colId` and still applies.
 */
export function untieFromLabel(fields: IDataObject): IDataObject {
	fields.untieColIdFromLabel = true;
	return fields;
}

/**
 * After a create: unties the ID of each new column given a Label from it (see untieFromLabel).
 * Grist's AddColumn / AddTable (POST …/columns, POST /tables, the adds of PUT …/columns) drop
 * `untieColIdFromLabel`, and keep the given ID with the label as is, but tied: a later relabel in
 * Grist's UI would rename the column. So one PATCH …/columns follows for those columns. If it
 * fails, the columns exist (tied); the error says so.
 */
export async function untieNewColumns(
	client: GristClient,
	target: Target,
	ids: string[],
	itemIndex: number,
): Promise<void> {
	if (ids.length === 0) return;
	const error = await writeColumns(
		client,
		target,
		'PATCH',
		ids.map((id) => ({ id, fields: { untieColIdFromLabel: true } })),
		itemIndex,
	).then(
		() => undefined,
		(e: unknown) => e,
	);
	if (error !== undefined) {
		if (error instanceof NodeApiError || error instanceof NodeOperationError) {
			const note = `The column${ids.length > 1 ? 's' : ''} ${ids.map((id) => `"${id}"`).join(', ')} of table "${target.tableId}" ${ids.length > 1 ? 'were' : 'was'} created, but their IDs could not be untied from their labels (a later relabel in Grist would rename them): in Grist, open the column and turn off the link between label and ID.`;
			error.description = error.description ? `${error.description} ${note}` : note;
			partlyApplied.add(error);
		}
		throw error;
	}
}

/**
 * Refuses (an InputError naming the field) a Reference / Reference List type whose table the
 * document lacks; `alsoExisting`: tables that count as existing (the table being created). The
 * document's tables are read only when a column refers to one, once per execution (`tables`).
 */
export async function checkReferencedTables(
	tables: TableCache,
	docId: string,
	columns: Array<{ type: unknown; field: string }>,
	itemIndex: number,
	alsoExisting: string[] = [],
): Promise<void> {
	const refs = columns.filter((c) => referencedTable(c.type) !== undefined);
	if (refs.length === 0) return;
	const known = [...(await tables.ids(docId, itemIndex)), ...alsoExisting];
	for (const c of refs) checkReferencedTable(c.type, known, c.field);
}

/** Errors thrown after the item's main request succeeded (forEachSchemaItem says so). */
const partlyApplied = new WeakSet<object>();

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
				// Input errors name their field and the item; the others pass as they are.
				throw error instanceof InputError
					? toNodeError(this.getNode(), error, { itemIndex, where: 'field' })
					: error;
			}
		});
	} catch (error) {
		failure = error;
	}
	const error = failure;
	if (items.length > 1 && (error instanceof NodeApiError || error instanceof NodeOperationError)) {
		const failed = partlyApplied.has(error)
			? 'the failed item was applied as said above.'
			: 'nothing of the failed item was applied.';
		const note =
			done.length === 0
				? `No item was done before it${partlyApplied.has(error) ? '; the failed item was applied as said above.' : '.'}`
				: `Item${done.length > 1 ? 's' : ''} ${done.join(', ')} ${done.length > 1 ? 'were' : 'was'} done before it; ${failed}`;
		error.description = error.description ? `${error.description} ${note}` : note;
	}
	throw error;
}
