/**
 * A table's columns as the API layer returns them, flattened, and what is derived
 * from them: types by column, read-only columns, resource mapper fields.
 */
import type { FieldType, IDataObject, ResourceMapperField } from 'n8n-workflow';

import { baseType } from './cellValues';

export interface GristColumn {
	id: string;
	label: string;
	/** Full Grist type, e.g. `DateTime:Europe/Paris`, `Ref:People`. */
	type: string;
	isFormula: boolean;
	formula: string;
	/** Parsed from Grist's JSON string; `{}` when empty or unreadable. */
	widgetOptions: IDataObject;
	/** Choices of a Choice / ChoiceList column (from widgetOptions). */
	choices?: string[];
	description?: string;
	colRef?: number;
	/** Whether this is Grist's own helper column (`manualSort`, `gristHelper_*`). */
	hidden: boolean;
	/** The full `fields` object as Grist sent it. */
	fields: IDataObject;
}

export function parseWidgetOptions(raw: unknown): IDataObject {
	if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as IDataObject;
	if (typeof raw !== 'string' || raw.trim() === '') return {};
	try {
		const parsed = JSON.parse(raw) as unknown;
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: {};
	} catch {
		return {};
	}
}

export function isHiddenColumnId(id: string): boolean {
	return id === 'manualSort' || id.startsWith('gristHelper_');
}

export function toColumn(raw: { id: string; fields?: IDataObject }): GristColumn {
	const fields = raw.fields ?? {};
	const widgetOptions = parseWidgetOptions(fields.widgetOptions);
	const type = typeof fields.type === 'string' && fields.type !== '' ? fields.type : 'Any';
	const column: GristColumn = {
		id: raw.id,
		label: typeof fields.label === 'string' && fields.label !== '' ? fields.label : raw.id,
		type,
		isFormula: fields.isFormula === true,
		formula: typeof fields.formula === 'string' ? fields.formula : '',
		widgetOptions,
		hidden: isHiddenColumnId(raw.id),
		fields,
	};
	if (typeof fields.description === 'string' && fields.description !== '')
		column.description = fields.description;
	if (typeof fields.colRef === 'number') column.colRef = fields.colRef;
	const bt = baseType(type);
	if ((bt === 'Choice' || bt === 'ChoiceList') && Array.isArray(widgetOptions.choices)) {
		column.choices = (widgetOptions.choices as unknown[]).map(String);
	}
	return column;
}

/**
 * What a cell of this type holds when nothing was put in it (grist-core's `gristTypes.ts`
 * defaults): Text and Choice `''`; Numeric, Int and Reference `0`; Toggle `false`; every other
 * type (dates, lists, attachments, Any) `null`.
 */
export function typeDefault(type: string | undefined): unknown {
	switch (baseType(type)) {
		case 'Text':
		case 'Choice':
			return '';
		case 'Numeric':
		case 'Int':
		case 'Ref':
			return 0;
		case 'Bool':
			return false;
		default:
			return null;
	}
}

/** `{ colId: type }` for decoding and encoding. */
export function columnTypes(columns: GristColumn[]): Record<string, string> {
	const types: Record<string, string> = {};
	for (const c of columns) types[c.id] = c.type;
	return types;
}

export function columnMap(columns: GristColumn[]): Map<string, GristColumn> {
	return new Map(columns.map((c) => [c.id, c]));
}

/** Column types a trigger's timestamp column may have. */
const TIMESTAMP_TYPES = ['Date', 'DateTime', 'Numeric'];

export function isTimestampColumn(column: GristColumn): boolean {
	return TIMESTAMP_TYPES.includes(baseType(column.type));
}

/**
 * Whether a column must never be written: formula columns (`isFormula: true`). Empty `Any`
 * formula columns (new, never typed) are writable: writing converts them to data columns.
 */
export function isReadOnlyColumn(column: GristColumn): boolean {
	return column.isFormula && column.formula.trim() !== '';
}

// ---------------------------------------------------------------------------------------------
// Resource mapper

const FIELD_TYPES: Record<string, FieldType> = {
	Text: 'string',
	Numeric: 'number',
	Int: 'number',
	Bool: 'boolean',
	Date: 'dateTime',
	DateTime: 'dateTime',
	Choice: 'options',
	// Lists (ChoiceList, RefList, Attachments) are 'string', not 'array': n8n's editor shows an
	// 'array' field as a JSON editor that parses its empty value and shows "Unexpected end of JSON
	// input" on every new node, and n8n refuses "a, b" for an 'array' field at run time. As text
	// they take "a, b", a JSON array or an expression giving an array; encodeCellValue turns each
	// into Grist's ["L", …]. A Reference is text too: a row ID or the referenced row's shown value
	// (a name), looked up before the write.
};

/** What the mapper shows after the name of a formula column, whose input n8n greys out. */
export const FORMULA_NOTE = 'formula, read-only';

/** What a value of a Grist type is, in words: a Reference takes a row ID, Attachments their IDs. */
const TYPE_TEXTS: Record<string, string> = {
	Any: 'Any',
	Attachments: 'Attachments: IDs',
	Bool: 'Toggle',
	Choice: 'Choice',
	ChoiceList: 'Choice List',
	Date: 'Date',
	DateTime: 'DateTime',
	Int: 'Integer',
	ManualSortPos: 'Position',
	Numeric: 'Numeric',
	PositionNumber: 'Position',
	Text: 'Text',
};

/**
 * A column type as the editor shows it: "Reference to Clients: row ID", "Reference List to Tags:
 * row IDs", "DateTime (Europe/Paris)", "Attachments: IDs"; an unknown type as Grist names it. For
 * a Reference (List) that shows another column than the row ID, `shownLabel` is that column's
 * label: "Reference to Clients: row ID or Name". (A mapper field has no hint of its own: the
 * label says how a Reference List is written.)
 */
export function columnTypeText(type: string, shownLabel?: string): string {
	const [base, ...rest] = type.split(':');
	const arg = rest.join(':');
	const or = shownLabel ? ` or ${shownLabel}` : '';
	if (base === 'Ref' && arg) return `Reference to ${arg}: row ID${or}`;
	if (base === 'RefList' && arg)
		return `Reference List to ${arg}: row IDs${or}, separated by commas (or a JSON array)`;
	if (base === 'DateTime' && arg) return `DateTime (${arg})`;
	return TYPE_TEXTS[base] ?? type;
}

/**
 * What a mapper field takes, in a few words (n8n shows a field's label on one line, cut after
 * about 30 characters, with no hover text, and no description under it): the lists say how a list
 * is written, Reference columns take row IDs (or the shown column's values), Attachments the IDs
 * of uploaded attachments.
 */
const FORMAT_TEXTS: Record<string, string> = {
	Any: 'any',
	Attachments: 'attachment IDs',
	Bool: 'toggle',
	Choice: 'choice',
	ChoiceList: 'a, b or JSON array',
	Date: 'date',
	DateTime: 'date & time',
	Int: 'integer',
	ManualSortPos: 'position',
	Numeric: 'number',
	PositionNumber: 'position',
	Text: 'text',
};

/**
 * The value a column takes in the mapper: "row ID or Name", "a, b or JSON array", "date"…
 * (`shownLabel`: see columnTypeText).
 */
export function mapperFormat(column: GristColumn, shownLabel?: string): string {
	const base = baseType(column.type);
	const or = shownLabel ? ` or ${shownLabel}` : '';
	if (base === 'Ref') return `row ID${or}`;
	if (base === 'RefList') return `row IDs${or}`;
	return FORMAT_TEXTS[base] ?? column.type;
}

/**
 * A column's name in the column mapper, its label first and short: "Client (row ID or Name)",
 * "Tags (a, b or JSON array)", "Total (formula, read-only)". The column ID is the field's key (the
 * automatic mapping's input field names); the label alone is what a person recognises.
 */
export function mapperLabel(column: GristColumn, shownLabel?: string): string {
	const format = isReadOnlyColumn(column) ? FORMULA_NOTE : mapperFormat(column, shownLabel);
	return `${column.label} (${format})`;
}

/**
 * A column as a resource mapper field: typed, formula columns read-only and saying so;
 * `shownLabel`: the label of the column a Reference (List) shows (see columnTypeText).
 */
export function toMapperField(column: GristColumn, shownLabel?: string): ResourceMapperField {
	const type = baseType(column.type);
	const readOnly = isReadOnlyColumn(column);
	const field: ResourceMapperField = {
		id: column.id,
		displayName: mapperLabel(column, shownLabel),
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: true,
		display: true,
		type: FIELD_TYPES[type] ?? 'string',
		readOnly,
		removed: false,
	};
	if (type === 'Choice') {
		const choices = column.choices ?? [];
		// n8n refuses any value not among a field's options: a Choice column without choices takes text.
		if (choices.length > 0) field.options = choices.map((c) => ({ name: c, value: c }));
		else field.type = 'string';
	}
	return field;
}
