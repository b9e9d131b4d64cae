/**
 * Webhook conditions: "only rows matching" as Grist's JSON condition config
 * (`{"config":{columnFilters:[{colRef, filter}], customExpression?, notifyWhen?}}`, sent as a
 * string in the webhook's `condition`), built from column filters in Get Many's vocabulary or a
 * formula; the event types and watched columns a "When" choice needs; and comparing the condition
 * Grist stored (GET /triggers) with the wanted one.
 */
import { CellValueError, baseType } from '../cells/cellValues';
import { InputError } from '../errors/gristAnswers';
import { conditionValues, emptyCellValues, encodeFilterValue } from '../query/filters';
import type { WebhookEventType } from './webhookFields';

/** When a matching row is sent: as today (added / updated while matching), or on a transition. */
export type NotifyWhen = 'matching' | 'enters' | 'leaves' | 'updated';
export type ConditionType = 'none' | 'conditions' | 'formula';

/** Matches Grist's FilterSpec can express: included / excluded values, min / max bounds. */
export type WebhookConditionMatch =
	| 'anyOf'
	| 'noneOf'
	| 'equals'
	| 'notEquals'
	| 'gte'
	| 'lte'
	| 'between'
	| 'isEmpty'
	| 'isNotEmpty';

export interface WebhookFilter {
	column: string;
	match?: WebhookConditionMatch | string;
	values?: unknown;
	value2?: unknown;
}

export interface ConditionInput {
	type: ConditionType | string;
	filters?: WebhookFilter[];
	formula?: string;
	notifyWhen?: NotifyWhen | string;
}

/** The columns a condition is built against (GET /columns: `id`, `type`, `fields.colRef`). */
export interface ConditionColumn {
	id: string;
	type: string;
	colRef?: number;
}

export interface BuiltCondition {
	/** The `condition` field (a JSON string), or null for none. */
	condition: string | null;
	/** The columns the condition reads (for watchedColIds). */
	columns: string[];
	notifyWhen: NotifyWhen;
}

const NOTIFY_WHEN = new Set(['matching', 'enters', 'leaves', 'updated']);
// ColumnFilterFunc applies min/max only to number and date-like columns (others match every row).
const RANGE_TYPES = new Set(['Numeric', 'Int', 'Date', 'DateTime']);
// Grist tests a list column's filter on each element (ColumnFilterFunc: "any element matches").
const ELEMENT_TYPE: Record<string, string> = {
	ChoiceList: 'Text',
	RefList: 'Ref',
	Attachments: 'Ref',
};

export function notifyWhenOf(value: unknown): NotifyWhen {
	const v = String(value ?? 'matching');
	if (!NOTIFY_WHEN.has(v)) {
		throw new InputError(
			`"${v}" is not a When choice`,
			'When',
			'Pick one of While Matching, Starts Matching, Stops Matching, Changes While Matching.',
		);
	}
	return v as NotifyWhen;
}

/**
 * The event types to register: a transition (enters / leaves / updated) is only evaluated on
 * Grist's `update` events too (with ["add"] only, Grist does not send a row that entered).
 */
export function conditionEventTypes(
	chosen: WebhookEventType[],
	notifyWhen: NotifyWhen,
): WebhookEventType[] {
	return notifyWhen === 'matching' ? [...chosen] : ['add', 'update'];
}

/**
 * The watched columns to register. Grist keeps before-values of only 10 rows of a bulk edit
 * unless some webhook of the document watches columns, so a transition of a larger edit would
 * be misclassified: enters / leaves watch the condition's columns (only they change whether a
 * row matches); updated needs every change, so it watches the table's columns (or the user's).
 */
export function conditionWatchedColumns(
	notifyWhen: NotifyWhen,
	conditionColumns: string[],
	userWatched: string[],
	tableColumns: string[],
): string[] {
	if (notifyWhen === 'matching') return [...userWatched];
	if (userWatched.length > 0) return [...new Set([...userWatched, ...conditionColumns])];
	if (notifyWhen === 'updated') return [...tableColumns];
	return [...conditionColumns];
}

function conditionError(index: number, message: string, hint?: string): InputError {
	return new InputError(
		`Condition ${index + 1}: ${message}`,
		'Conditions',
		hint ?? 'Fix the condition or remove it.',
	);
}

function encodeValues(
	values: unknown[],
	column: ConditionColumn,
	index: number,
	elementType?: string,
): unknown[] {
	const type = elementType ?? column.type;
	return values.map((v) => {
		try {
			return encodeFilterValue(v, type);
		} catch (error) {
			const message =
				error instanceof CellValueError
					? `the value ${JSON.stringify(v)} does not fit the ${column.type} column "${column.id}" (${error.expected})`
					: (error as Error).message;
			throw conditionError(
				index,
				message,
				'Give values of the column type: numbers, dates as 2024-01-31, true/false, references as row IDs.',
			);
		}
	});
}

function bound(value: unknown, column: ConditionColumn, index: number, which: string): number {
	const [encoded] = encodeValues([value], column, index);
	if (typeof encoded !== 'number') {
		throw conditionError(index, `${which} of column "${column.id}" is empty or not a number`);
	}
	return encoded;
}

/** One condition as Grist's FilterSpec (a JSON string). */
function filterSpec(f: WebhookFilter, column: ConditionColumn, index: number): string {
	const match = String(f.match || 'anyOf');
	const base = baseType(column.type);
	const element = ELEMENT_TYPE[base];
	switch (match) {
		case 'anyOf':
		case 'equals':
		case 'noneOf':
		case 'notEquals': {
			const raw =
				match === 'equals' || match === 'notEquals' ? [f.values] : conditionValues(f.values);
			const values = encodeValues(
				raw.map((v) => (v === undefined ? '' : v)),
				column,
				index,
				element,
			);
			const key = match === 'anyOf' || match === 'equals' ? 'included' : 'excluded';
			return JSON.stringify({ [key]: values });
		}
		case 'isEmpty':
		case 'isNotEmpty': {
			// an empty list is tested as "" (ChoiceList) or null (other lists) by Grist
			const empty = element
				? base === 'ChoiceList'
					? ['']
					: [null]
				: emptyCellValues(column.type);
			return JSON.stringify({ [match === 'isEmpty' ? 'included' : 'excluded']: empty });
		}
		case 'gte':
		case 'lte':
		case 'between': {
			if (!RANGE_TYPES.has(base)) {
				throw conditionError(
					index,
					`"${column.id}" is a ${column.type} column: Grist compares only numbers and dates with a range`,
					'Use Is One Of / Is None Of for this column, or set Filter to Formula.',
				);
			}
			const spec: { min?: number; max?: number } = {};
			if (match === 'gte' || match === 'between') spec.min = bound(f.values, column, index, 'From');
			if (match === 'lte') spec.max = bound(f.values, column, index, 'The value');
			if (match === 'between') spec.max = bound(f.value2, column, index, 'To');
			return JSON.stringify(spec);
		}
		default:
			throw conditionError(
				index,
				`the match "${match}" cannot be sent to Grist as a column filter`,
				'Use Is One Of, Is None Of, Equals, Not Equals, Greater Than or Equal, Less Than or Equal, Between, Is Empty or Is Not Empty, or set Filter to Formula.',
			);
	}
}

// Python keywords and constants a predicate may use (Grist's PredicateFormula).
const FORMULA_WORDS = new Set(['and', 'or', 'not', 'in', 'is', 'True', 'False', 'None']);
const STRING_METHODS = new Set(['lower', 'upper']);

/**
 * The columns a formula reads (`$Col`, `rec.Col`), checked against the table. Grist ignores an
 * unknown column (it reads as undefined) and, for a custom expression, an unknown name makes the
 * condition never match: both are refused here. `oldRec` is empty in Grist's config mode.
 */
export function formulaColumns(formula: string, columnIds: string[]): string[] {
	const known = new Set(columnIds);
	known.add('id');
	const used: string[] = [];
	const fail = (message: string, hint: string) => {
		throw new InputError(`The formula ${message}`, 'Formula', hint);
	};
	// strings out first: their words are not names
	const code = formula.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
	if (/["']/.test(code.replace(/""/g, ''))) fail('has an unclosed quote', 'Close every string.');
	const token = /(\$|\brec\.|\.)?([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/g;
	let m: RegExpExecArray | null;
	while ((m = token.exec(code)) !== null) {
		const [, prefix, name, call] = m;
		const start = m.index;
		if (prefix === undefined && start > 0 && /[0-9.]/.test(code[start - 1])) continue; // 1e5
		if (prefix === '$' || prefix === 'rec.') {
			if (!known.has(name))
				fail(
					`uses the column "${name}", which the table does not have`,
					`Use column IDs of the table (${columnIds.join(', ')}).`,
				);
			used.push(name);
		} else if (prefix === '.') {
			if (!(STRING_METHODS.has(name) && call))
				fail(
					`uses ".${name}", which a Grist condition does not support`,
					'Only .lower() and .upper() can follow a value; read columns as $Column or rec.Column.',
				);
		} else if (name === 'oldRec') {
			fail(
				'uses oldRec, which is empty in a condition with When',
				'Use $Column for the current values, and When (Starts Matching, Stops Matching) for changes.',
			);
		} else if (!FORMULA_WORDS.has(name) && name !== 'rec') {
			fail(
				`uses the name "${name}", which a Grist condition does not know (Grist would never match)`,
				'Use $Column, rec.Column, constants, and / or / not, comparisons and in.',
			);
		}
	}
	if (!/\S/.test(formula)) fail('is empty', 'Write a condition, e.g. $Status == "Approved".');
	return [...new Set(used)];
}

/** Builds the webhook's `condition` for the columns of its table (none: null). */
export function buildWebhookCondition(
	input: ConditionInput,
	columns: ConditionColumn[],
): BuiltCondition {
	const notifyWhen = notifyWhenOf(input.notifyWhen);
	if (input.type === 'none' || !input.type) return { condition: null, columns: [], notifyWhen };
	const config: Record<string, unknown> = {};
	const used: string[] = [];
	if (input.type === 'conditions') {
		const filters = input.filters ?? [];
		if (filters.length === 0) {
			throw new InputError(
				'Filter is set to Conditions, but no condition was added',
				'Filter',
				'Add a condition, or set Filter to None.',
			);
		}
		config.columnFilters = filters.map((f, index) => {
			const id = String(f.column ?? '').trim();
			if (id === '') throw conditionError(index, 'no column is picked', 'Pick a column.');
			const column = columns.find((c) => c.id === id);
			if (!column) {
				throw conditionError(
					index,
					`the table has no column "${id}"`,
					'Pick a column of the table from the list.',
				);
			}
			if (typeof column.colRef !== 'number') {
				throw conditionError(index, `Grist did not give the column reference of "${id}"`);
			}
			used.push(id);
			return { colRef: column.colRef, filter: filterSpec(f, column, index) };
		});
	} else if (input.type === 'formula') {
		const formula = String(input.formula ?? '').trim();
		used.push(
			...formulaColumns(
				formula,
				columns.map((c) => c.id),
			),
		);
		config.customExpression = formula;
	} else {
		throw new InputError(
			`"${input.type}" is not a choice of Filter`,
			'Filter',
			'Pick None, Conditions or Formula.',
		);
	}
	if (notifyWhen !== 'matching') config.notifyWhen = notifyWhen;
	return { condition: JSON.stringify({ config }), columns: [...new Set(used)], notifyWhen };
}

function sortedJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortedJson);
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const k of Object.keys(value).sort())
			out[k] = sortedJson((value as Record<string, unknown>)[k]);
		return out;
	}
	return value;
}

/**
 * A condition in comparable form: Grist stores the config as given plus the parsed custom
 * expression (`customExpressionParsed`) and text mode as `{text, parsed}`; both additions are
 * dropped. Empty, null and unreadable conditions are "".
 */
export function conditionKey(condition: unknown): string {
	if (typeof condition !== 'string' || condition.trim() === '') return '';
	let parsed: unknown;
	try {
		parsed = JSON.parse(condition);
	} catch {
		return JSON.stringify({ text: condition.trim() });
	}
	if (!parsed || typeof parsed !== 'object') return JSON.stringify({ text: condition.trim() });
	const p = parsed as { text?: unknown; config?: Record<string, unknown> };
	if (typeof p.text === 'string') return JSON.stringify({ text: p.text.trim() });
	if (p.config && typeof p.config === 'object') {
		const config = { ...p.config };
		delete config.customExpressionParsed;
		return JSON.stringify(sortedJson({ config }));
	}
	return '';
}

/** Whether a stored condition (as GET /triggers gives it) is the wanted one. */
export function sameCondition(stored: unknown, wanted: string | null): boolean {
	return conditionKey(stored) === conditionKey(wanted ?? '');
}

/** One row of GET /triggers, as far as conditions go. */
export interface TriggerRecord {
	id: number;
	fields?: { actions?: unknown; condition?: unknown };
}

/** The condition of each webhook (by webhook id) from GET /triggers' records. */
export function webhookConditions(records: TriggerRecord[]): Map<string, string> {
	const out = new Map<string, string>();
	for (const r of records) {
		let actions: unknown;
		try {
			actions = JSON.parse(String(r.fields?.actions ?? '[]'));
		} catch {
			continue;
		}
		if (!Array.isArray(actions)) continue;
		const condition = typeof r.fields?.condition === 'string' ? r.fields.condition : '';
		for (const a of actions as Array<{ type?: unknown; id?: unknown }>)
			if (a && a.type === 'webhook' && typeof a.id === 'string') out.set(a.id, condition);
	}
	return out;
}
