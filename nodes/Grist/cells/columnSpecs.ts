/**
 * Tables and columns as n8n users describe them ⇄ Grist's column specs: the type
 * (with a DateTime's time zone, a Ref/RefList's table), choices (into `widgetOptions`), the
 * formula (a formula column, or a data column with a default formula), and checks Grist would
 * not make (it silently renames a duplicate or malformed ID): every problem is an InputError
 * naming the field.
 */
import type { IDataObject } from 'n8n-workflow';

import { baseType, typeArgument } from './cellValues';
import { parseWidgetOptions } from './tableColumns';
import { InputError, attempt } from '../errors/gristAnswers';

/** Grist's column types (the base, before a `:`). */
export const COLUMN_TYPES = [
	'Text',
	'Numeric',
	'Int',
	'Bool',
	'Date',
	'DateTime',
	'Choice',
	'ChoiceList',
	'Ref',
	'RefList',
	'Attachments',
	'Any',
] as const;

/** One column as entered in the node (every field optional; empty text means "not given"). */
export interface ColumnInput {
	id?: unknown;
	label?: unknown;
	type?: unknown;
	timezone?: unknown;
	choices?: unknown;
	refTable?: unknown;
	formula?: unknown;
	/** `formula`: a formula column (computed); `default`: a data column whose formula fills new rows. */
	formulaKind?: unknown;
	description?: unknown;
	/** Update only: the new column ID. */
	newId?: unknown;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(['id', 'manualSort']);

function text(value: unknown): string {
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/** Checks a table or column ID as Grist would keep it (else Grist silently changes it). */
export function checkIdentifier(id: string, what: 'table' | 'column', field: string): string {
	if (id === '') {
		throw new InputError(
			`The ${what} ID is empty`,
			field,
			`Enter a ${what} ID: letters, digits and _, not starting with a digit.`,
		);
	}
	if (!IDENT.test(id)) {
		throw new InputError(
			`The ${what} ID "${id}" is not valid: use letters, digits and _, not starting with a digit`,
			field,
			`Grist would change it to something else. Put a readable name with spaces in the Label.`,
		);
	}
	if (what === 'column' && (RESERVED.has(id) || id.startsWith('gristHelper_'))) {
		throw new InputError(
			`The column ID "${id}" is reserved by Grist`,
			field,
			'Pick another column ID.',
		);
	}
	if (what === 'table' && id.startsWith('_grist')) {
		throw new InputError(
			`The table ID "${id}" is reserved by Grist`,
			field,
			'Pick another table ID.',
		);
	}
	return id;
}

/**
 * Choices: an array, a JSON array, or comma-separated text. Anything else (a JSON object, a
 * number) is an InputError: Grist's choices are a list of texts.
 */
export function parseChoices(raw: unknown, field = 'Choices'): string[] {
	let list: unknown = raw;
	if (typeof raw === 'string') {
		const t = raw.trim();
		if (t === '') return [];
		if (t.startsWith('[') || t.startsWith('{')) {
			const parsed = attempt(() => JSON.parse(t) as unknown);
			if (parsed.error) {
				throw new InputError(
					`The ${field} are not valid JSON: ${parsed.error.message}`,
					field,
					'Give the choices as a JSON array (["Open", "Done"]) or as text separated by commas.',
				);
			}
			list = parsed.value;
		} else {
			list = t
				.split(',')
				.map((s) => s.trim())
				.filter((s) => s !== '');
		}
	}
	if (!Array.isArray(list)) {
		throw new InputError(
			`The ${field} must be a list, not ${JSON.stringify(list)}`,
			field,
			'Give the choices as a JSON array (["Open", "Done"]) or as text separated by commas.',
		);
	}
	const out: string[] = [];
	for (const v of list) {
		if (typeof v !== 'string' && typeof v !== 'number') {
			throw new InputError(
				`The ${field} must be a list of texts; ${JSON.stringify(v)} is not a text`,
				field,
				'Give the choices as a JSON array of texts, e.g. ["Open", "Done"].',
			);
		}
		const s = String(v).trim();
		if (s !== '' && !out.includes(s)) out.push(s);
	}
	return out;
}

function validTimeZone(tz: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: tz });
		return true;
	} catch {
		return false;
	}
}

/**
 * Grist's type text: `DateTime:<tz>` (UTC when none is given), `Ref:<table>`, `RefList:<table>`,
 * else the base. A full type (`Ref:People`) is accepted as the Type itself.
 */
export function composeType(input: ColumnInput, field = 'Type'): string {
	const raw = text(input.type);
	if (raw === '') throw new InputError('The Type is empty', field, 'Pick a column type.');
	const base = baseType(raw);
	if (!(COLUMN_TYPES as readonly string[]).includes(base)) {
		throw new InputError(
			`"${raw}" is not a Grist column type`,
			field,
			`Use one of: ${COLUMN_TYPES.join(', ')}.`,
		);
	}
	const arg = typeArgument(raw);
	if (base === 'DateTime') {
		const tz = arg ?? (text(input.timezone) || 'UTC');
		if (!validTimeZone(tz)) {
			throw new InputError(
				`"${tz}" is not a time zone`,
				'Time Zone',
				'Use an IANA time zone name, e.g. Europe/Paris or UTC.',
			);
		}
		return `DateTime:${tz}`;
	}
	if (base === 'Ref' || base === 'RefList') {
		const table = arg ?? text(input.refTable);
		if (table === '') {
			throw new InputError(
				`A ${base} column needs the table it refers to`,
				'Referenced Table',
				'Pick the table whose rows the column refers to.',
			);
		}
		checkIdentifier(table, 'table', 'Referenced Table');
		return `${base}:${table}`;
	}
	if (arg !== undefined) {
		throw new InputError(`"${raw}" is not a Grist column type`, field, `Use "${base}".`);
	}
	return base;
}

/** The table a `Ref:<table>` / `RefList:<table>` type refers to; undefined for other types. */
export function referencedTable(type: unknown): string | undefined {
	if (typeof type !== 'string') return undefined;
	const base = baseType(type);
	if (base !== 'Ref' && base !== 'RefList') return undefined;
	const table = typeArgument(type);
	return table === undefined || table === '' ? undefined : table;
}

/**
 * An InputError when `type` refers to a table that is not among `tables` (the document's
 * table IDs): Grist accepts such a type and every cell becomes a broken reference.
 */
export function checkReferencedTable(type: unknown, tables: Iterable<string>, field: string): void {
	const table = referencedTable(type);
	if (table === undefined) return;
	const known = [...tables];
	if (known.includes(table)) return;
	const kind = baseType(String(type)) === 'Ref' ? 'Reference' : 'Reference List';
	const near = known.find((t) => t.toLowerCase() === table.toLowerCase());
	throw new InputError(
		`The table "${table}" does not exist in the document, so a ${kind} column to it would hold only broken references`,
		field,
		near !== undefined
			? `Table IDs are case-sensitive: did you mean "${near}"?`
			: `Create the table "${table}" first (Table → Create), or pick one of the document's tables${known.length > 0 ? `: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}` : ''}.`,
	);
}

/**
 * The `fields` of a column spec. For a new column every given part is set (type Text when not
 * given); for an update only the parts given change, and choices are merged into the column's
 * current `widgetOptions` (other display options kept).
 */
export function columnFields(
	input: ColumnInput,
	opts: { update?: boolean; currentWidgetOptions?: unknown } = {},
): IDataObject {
	const fields: IDataObject = {};
	const typeGiven = text(input.type) !== '';
	if (typeGiven || !opts.update)
		fields.type = composeType(typeGiven ? input : { ...input, type: 'Text' });
	const label = text(input.label);
	if (label !== '') fields.label = label;
	const description = text(input.description);
	if (description !== '') fields.description = description;
	const formula = text(input.formula);
	const kind = text(input.formulaKind) || 'formula';
	if (formula !== '') {
		if (kind !== 'formula' && kind !== 'default') {
			throw new InputError(
				`"${kind}" is not a formula kind`,
				'Formula Kind',
				'Use "formula" (a formula column) or "default" (a data column whose formula fills new rows).',
			);
		}
		fields.formula = formula;
		fields.isFormula = kind === 'formula';
		if (kind === 'default') fields.recalcWhen = 0;
	} else if (!opts.update) {
		fields.isFormula = false;
	}
	if (input.choices !== undefined && input.choices !== null && input.choices !== '') {
		const type = typeof fields.type === 'string' ? baseType(fields.type) : undefined;
		if (type !== undefined && type !== 'Choice' && type !== 'ChoiceList') {
			throw new InputError(
				`Choices are for Choice and Choice List columns, not ${type}`,
				'Choices',
				'Remove the choices, or pick the type Choice or Choice List.',
			);
		}
		const choices = parseChoices(input.choices);
		fields.widgetOptions = JSON.stringify({
			...parseWidgetOptions(opts.currentWidgetOptions),
			choices,
		});
	}
	const newId = text(input.newId);
	if (newId !== '') fields.colId = checkIdentifier(newId, 'column', 'New Column ID');
	return fields;
}

/**
 * Column specs `{ id, fields }` for a create: IDs checked, and a duplicate (in the list, or of a
 * column the table already has) is an error — Grist would add `A2` silently.
 */
export function columnSpecs(
	inputs: ColumnInput[],
	opts: { existing?: Iterable<string>; field?: string } = {},
): IDataObject[] {
	const field = opts.field ?? 'Columns';
	const seen = new Map<string, string>();
	for (const id of opts.existing ?? []) seen.set(id.toLowerCase(), 'the table');
	return inputs.map((input, index) => {
		const id = checkIdentifier(text(input.id), 'column', `${field} (column ${index + 1})`);
		const before = seen.get(id.toLowerCase());
		if (before !== undefined) {
			throw new InputError(
				`The column ID "${id}" is used twice (column ${index + 1} and ${before})`,
				`${field} (column ${index + 1})`,
				'Column IDs are unique in a table, ignoring upper and lower case. Pick another ID, or use Update to change an existing column.',
			);
		}
		seen.set(id.toLowerCase(), `column ${index + 1}`);
		const fields = attempt(() => columnFields(input));
		if (fields.error instanceof InputError) {
			throw new InputError(
				`Column "${id}": ${fields.error.message}`,
				`${field} (column ${index + 1}): ${fields.error.field}`,
				fields.error.hint,
			);
		}
		if (fields.error) throw fields.error;
		return { id, fields: fields.value };
	});
}

/** An item of Table → Get Many: the table's ID, whether it is a summary table, its columns. */
export function tableItem(
	table: { id: string; fields?: IDataObject },
	columns?: IDataObject[],
): IDataObject {
	const fields = table.fields ?? {};
	const source = Number(fields.summarySourceTable ?? 0);
	const out: IDataObject = {
		id: table.id,
		isSummary: source !== 0,
		tableRef: fields.tableRef as number,
	};
	if (source !== 0) out.summarySourceTable = source;
	if (columns) out.columns = columns;
	return out;
}
