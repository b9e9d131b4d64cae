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

/** The keys of a parameter list, for naming what changed (a name and where it is shown). */
const keyOf = (p: unknown) => {
	const q = p as { name: string; displayOptions?: unknown };
	return q.displayOptions ? `${q.name} (shown ${JSON.stringify(q.displayOptions)})` : q.name;
};

/** What differs between two parameter lists, one line each (at most `max`). */
export function parameterChanges(before: unknown[], now: unknown[], max = 12): string[] {
	const map = (list: unknown[]) => new Map(list.map((p) => [keyOf(p), JSON.stringify(p)]));
	const a = map(before);
	const b = map(now);
	const lines: string[] = [];
	for (const [k, v] of a) {
		if (!b.has(k)) lines.push(`- removed or renamed: ${k}`);
		else if (b.get(k) !== v) lines.push(`- changed: ${k}`);
	}
	for (const k of b.keys()) if (!a.has(k)) lines.push(`- added: ${k}`);
	if (lines.length === 0) lines.push('- the order of the parameters');
	return lines.length > max ? [...lines.slice(0, max), `- … ${lines.length - max} more`] : lines;
}

/** The failure message of a changed snapshot: a new node version, or the update command. */
export function changedMessage(what: string, released: string | null, changes: string[]): string {
	const head = released
		? `${what} was released in ${released}: a saved workflow relies on it, so it must not change. Make the change a new node version (docs/RELEASING.md#versions): add the version, gate the new behaviour by typeVersion, and keep this one as it is.`
		: `${what} differs from its committed snapshot. It is not released yet: if the change is meant, run \`${UPDATE_COMMAND}\` and commit test/unit/node-versions/ (after the release it needs a new node version, docs/RELEASING.md#versions).`;
	return [head, ...changes].join('\n');
}
