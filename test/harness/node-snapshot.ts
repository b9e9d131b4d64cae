/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: reads and writes the committed snapshot files */
/**
 * The committed snapshot of every node version (test/unit/node-versions/): its parameters (names,
 * types, option values, defaults, display conditions, type options) and the shapes of its output
 * items (keys and value types). A saved workflow relies on both, so a released version's
 * snapshot never changes: a change goes into a new node version (docs/RELEASING.md#versions).
 * Before its release, `npm run snapshot` rewrites it (`UPDATE_NODE_SNAPSHOT=1`).
 *
 * Texts (display names, descriptions, hints, placeholders) are left out: they change what the
 * editor says, not what a saved node does.
 */
import fs from 'node:fs';
import path from 'node:path';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

export const SNAPSHOT_DIR = path.join(__dirname, '..', 'unit', 'node-versions');
export const UPDATING = process.env.UPDATE_NODE_SNAPSHOT === '1';
const UPDATE_COMMAND = 'npm run snapshot';

/** One node version as committed. */
export interface VersionSnapshot {
	node: string;
	version: number;
	/** The package version that first published this node version; null until then. */
	released: string | null;
	parameters: unknown[];
}

/** The output shapes of all node versions, by case name (see output-shapes.test.ts). */
export type OutputShapes = Record<string, { node: string; version: number; shape: unknown }>;

export const versionFile = (node: string, version: number) =>
	path.join(SNAPSHOT_DIR, `${node}.v${version}.json`);
export const OUTPUTS_FILE = path.join(SNAPSHOT_DIR, 'outputs.json');

export const versionsOf = (d: INodeTypeDescription): number[] =>
	Array.isArray(d.version) ? d.version : [d.version];

const isOption = (o: unknown): o is INodePropertyOptions =>
	typeof o === 'object' && o !== null && 'value' in o;
const isGroup = (o: unknown): o is INodePropertyCollection =>
	typeof o === 'object' && o !== null && 'values' in o;

/** Whether `p` exists at `version` (its `@version` conditions only). */
function atVersion(p: INodeProperties, version: number, d: INodeTypeDescription): boolean {
	const only = (conditions?: Record<string, unknown>) =>
		conditions && '@version' in conditions ? { '@version': conditions['@version'] } : undefined;
	const show = only(p.displayOptions?.show);
	const hide = only(p.displayOptions?.hide);
	if (!show && !hide) return true;
	return NodeHelpers.displayParameter(
		{},
		{ ...p, displayOptions: { show, hide } as INodeProperties['displayOptions'] },
		{ typeVersion: version },
		d,
	);
}

/** A parameter as the snapshot holds it: what decides what a saved node does. */
function parameterShape(p: INodeProperties): Record<string, unknown> {
	const shape: Record<string, unknown> = { name: p.name, type: p.type, default: p.default };
	if (p.required) shape.required = true;
	if (p.noDataExpression) shape.noDataExpression = true;
	if (p.displayOptions) shape.displayOptions = p.displayOptions;
	if (p.typeOptions) shape.typeOptions = p.typeOptions;
	if (p.options) {
		shape.options = (p.options as unknown[]).map((o) => {
			if (isGroup(o)) return { name: o.name, values: o.values.map(parameterShape) };
			if (isOption(o)) {
				return o.displayOptions ? { value: o.value, displayOptions: o.displayOptions } : o.value;
			}
			return parameterShape(o as INodeProperties);
		});
	}
	return shape;
}

/** The parameters of one node version, in the description's order. */
export function parametersOf(d: INodeTypeDescription, version: number): unknown[] {
	return d.properties.filter((p) => atVersion(p, version, d)).map(parameterShape);
}

/** Keys and value types of an output item: objects by key (sorted), arrays by element shapes. */
export function shapeOf(value: unknown): unknown {
	if (value === null) return 'null';
	if (Array.isArray(value)) {
		const seen = new Map<string, unknown>();
		for (const v of value) {
			const s = shapeOf(v);
			seen.set(JSON.stringify(s), s);
		}
		return [...seen.keys()].sort().map((k) => seen.get(k));
	}
	if (typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const k of Object.keys(value as object).sort())
			out[k] = shapeOf((value as Record<string, unknown>)[k]);
		return out;
	}
	return typeof value;
}

/** The shapes of several items: each distinct shape once. */
export const itemsShape = (items: unknown[]): unknown => shapeOf(items);

export function readJson<T>(file: string): T | undefined {
	return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : undefined;
}

export function writeJson(file: string, value: unknown): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(value, null, '\t')}\n`);
}

/** Each parameter and nested option or field as `path (shown …)` → its own fields, flattened. */
function flatten(
	list: unknown[],
	prefix = '',
	out = new Map<string, string>(),
): Map<string, string> {
	for (const p of list as Array<Record<string, unknown>>) {
		if (typeof p !== 'object' || p === null || !('name' in p)) continue;
		const where = p.displayOptions ? ` (shown ${JSON.stringify(p.displayOptions)})` : '';
		const key = `${prefix}${String(p.name)}${where}`;
		const nested =
			Array.isArray(p.options) && p.options.some((o) => typeof o === 'object' && o && 'name' in o);
		const own = nested ? { ...p, options: undefined } : p;
		if (out.has(key)) out.set(key, `${out.get(key)}|${JSON.stringify(own)}`);
		else out.set(key, JSON.stringify(own));
		if (!nested) continue;
		for (const o of p.options as Array<Record<string, unknown>>) {
			if (Array.isArray(o.values))
				flatten(o.values, `${prefix}${String(p.name)}.${String(o.name)}.`, out);
			else flatten([o], `${prefix}${String(p.name)}.`, out);
		}
	}
	return out;
}

/** What differs between two parameter lists, one line each (at most `max`). */
export function parameterChanges(before: unknown[], now: unknown[], max = 12): string[] {
	const a = flatten(before);
	const b = flatten(now);
	const lines: string[] = [];
	for (const [k, v] of a) {
		if (!b.has(k)) lines.push(`- removed or renamed: ${k}`);
		else if (b.get(k) !== v) lines.push(`- changed: ${k}: ${v} → ${b.get(k)}`);
	}
	for (const k of b.keys()) if (!a.has(k)) lines.push(`- added: ${k}`);
	if (lines.length === 0) lines.push('- the order of the parameters');
	return lines.length > max ? [...lines.slice(0, max), `- … ${lines.length - max} more`] : lines;
}

/** The failure message of a changed snapshot: a new node version, or the update command. */
export function changedMessage(what: string, released: string | null, changes: string[]): string {
	const head = released
		? `${what}: changed, but this node version was released in ${released} and saved workflows rely on it. Make the change a new node version (docs/RELEASING.md#versions): add the version, gate the new behaviour by typeVersion, and keep this one as it is.`
		: `${what}: not as in the committed snapshot. This node version is not released yet: if the change is meant, run \`${UPDATE_COMMAND}\` and commit test/unit/node-versions/ (once released, a change needs a new node version, docs/RELEASING.md#versions).`;
	return [head, ...changes].join('\n');
}
