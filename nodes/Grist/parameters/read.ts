/**
 * The one place that reads the node's parameters (`getNodeParameter`, `getCurrentNodeParameter`).
 * In an execution, `itemParameter` / `itemParameterValue` read a parameter of one item, once per
 * execution when its raw value holds no expression; triggers and the editor's pickers, which
 * have no items, read the node's value with `nodeParameter` / `currentNodeParameter`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	IHookFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeParameters,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/** A context whose parameters have no items: a poll, a webhook trigger, the editor's pickers. */
export type NodeContext =
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions
	| ILoadOptionsFunctions;

/** `getNodeParameter(name, fallback, options)` where the parameters have no items. */
export function nodeParameter<T>(
	ctx: NodeContext,
	name: string,
	fallback: T,
	options?: IGetNodeParameterOptions,
): T {
	return ctx.getNodeParameter(name, fallback as never, options) as T;
}

/** The value of `name` as the editor holds it while the user edits the node (load options). */
export function currentNodeParameter(
	ctx: ILoadOptionsFunctions,
	name: string,
	options?: IGetNodeParameterOptions,
): unknown {
	return ctx.getCurrentNodeParameter(name, options);
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

interface SameForAll {
	/** The node's raw parameters (`getNode()` deep-copies the node, so it is called once). */
	parameters: INodeParameters;
	/**
	 * By parameter: the value read for all items; `{ field }` for the expression
	 * `={{ $json.<field> }}`; `null` for any other expression.
	 */
	values: Map<string, { value: unknown } | { field: string } | null>;
	/** The same for `itemParameterValue` (objects kept). */
	objectValues: Map<string, { value: unknown } | { field: string } | null>;
	/** The same for resource locators read with `extractValue`. */
	extractedValues: Map<string, { value: unknown } | { field: string } | null>;
	/** `getInputData()`: the same list for the whole execution. */
	input?: INodeExecutionData[];
	/**
	 * Reads so far whose value may differ between items: an expression, or an object value that
	 * `itemParameter` does not keep. Unchanged over a call of `read` means that every parameter it
	 * read holds one value for all items (see `SameForAllItems`).
	 */
	perItemReads: number;
}

/** `={{ $json.id }}`, `={{ $json["id"] }}`: an item's own field, the default of Row ID(s). */
const JSON_FIELD = /^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\\]+)\2\s*\])\s*\}\}$/;

const sameForAll = new WeakMap<object, SameForAll>();
function sameForAllCache(ctx: IExecuteFunctions): SameForAll {
	let cache = sameForAll.get(ctx);
	if (!cache) {
		cache = {
			parameters: ctx.getNode().parameters,
			values: new Map(),
			objectValues: new Map(),
			extractedValues: new Map(),
			perItemReads: 0,
		};
		sameForAll.set(ctx, cache);
	}
	return cache;
}

/** The input items of the execution (`getInputData()`), read once. */
export function inputItems(this: IExecuteFunctions): INodeExecutionData[] {
	const cache = sameForAllCache(this);
	return (cache.input ??= this.getInputData());
}

/** The execution's count of reads whose value may differ between items (0 before any read). */
function perItemReads(ctx: IExecuteFunctions): number {
	return sameForAll.get(ctx)?.perItemReads ?? 0;
}

/**
 * `read(itemIndex)` in the execution `ctx`, remembered after the first call that succeeds having
 * read only parameters without an expression (through `itemParameter` / `itemParameterValue`,
 * nothing else per item): such a value is the same for every item of the execution, so later
 * items get it without reading again. Errors are never remembered: a failing item fails again for
 * the next one.
 */
export class SameForAllItems<T> {
	private known = false;
	private value: T | undefined;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly read: (itemIndex: number) => T,
	) {}

	of(itemIndex: number): T {
		if (this.known) return this.value as T;
		const before = perItemReads(this.ctx);
		const result = this.read(itemIndex);
		if (perItemReads(this.ctx) === before) {
			this.known = true;
			this.value = result;
		}
		return result;
	}
}

function readOnce<T>(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
	options: IGetNodeParameterOptions | undefined,
	objects: boolean,
): T {
	const cache = sameForAllCache(ctx);
	const values = objects
		? cache.objectValues
		: options?.extractValue
			? cache.extractedValues
			: cache.values;
	const key = name;
	let entry = values.get(key);
	if (entry !== undefined && entry !== null && 'value' in entry) return entry.value as T;
	if (entry === undefined) {
		let raw: unknown = cache.parameters;
		for (const part of name.split('.')) raw = (raw as IDataObject | undefined)?.[part];
		if (hasExpression(raw)) {
			const m = typeof raw === 'string' && !options ? JSON_FIELD.exec(raw) : null;
			entry = m ? { field: m[1] ?? m[3] } : null;
			values.set(key, entry);
		}
	}
	if (entry && 'value' in entry) return entry.value as T;
	cache.perItemReads++;
	if (entry) {
		// What n8n's expression gives for a plain value of the item (a number, text or boolean);
		// anything else (missing, null, objects) goes through n8n as before.
		const v = (cache.input ??= ctx.getInputData())[itemIndex]?.json?.[entry.field];
		if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v as T;
	}
	const value = ctx.getNodeParameter(name, itemIndex, fallback as never, options) as T;
	if (entry === undefined && (objects || value === null || typeof value !== 'object')) {
		values.set(key, { value });
		cache.perItemReads--;
	}
	return value;
}

/**
 * `getNodeParameter(name, i, fallback, options)` for a parameter whose value is a string, number
 * or boolean: when the node's raw parameter holds no expression, its value is the same for every
 * item, so it is read once per execution, sparing n8n's per-call copying, defaults, validation
 * and resource-locator extraction (docs/PERFORMANCE.md: what it saves on a large create). With an
 * expression it is read per item, as before; errors are never cached.
 */
export function itemParameter<T extends string | number | boolean | undefined>(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
	options?: IGetNodeParameterOptions,
): T {
	return readOnce(this, name, itemIndex, fallback, options, false);
}

/**
 * `itemParameter` for any value (objects and arrays too, e.g. a collection of options, the
 * mapper's values or its matching columns): read once per execution when it holds no expression.
 * The value is shared by every item: callers must not modify it.
 */
export function itemParameterValue<T>(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
): T {
	return readOnce(this, name, itemIndex, fallback, undefined, true);
}
