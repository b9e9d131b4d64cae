/**
 * Every resource of the Grist node, in the order of the Resource selector and of the node panel's
 * action list: records first (what most workflows do), the deprecated columnar form last.
 */
import { attachment } from './attachment';
import { column } from './column';
import { columnar } from './columnar';
import { document } from './document';
import { org } from './org';
import { record } from './record';
import { serviceAccount } from './serviceAccount';
import { sql } from './sql';
import { table } from './table';
import type { GristResource, ResourceModule } from './types';
import { webhook } from './webhook';
import { workspace } from './workspace';

export const resources: Partial<Record<GristResource, ResourceModule>> = {
	record,
	table,
	column,
	sql,
	attachment,
	document,
	webhook,
	workspace,
	org,
	serviceAccount,
	columnar,
};

export const resourceModules: ResourceModule[] = Object.values(resources).filter(
	(m): m is ResourceModule => m !== undefined,
);

/**
 * The canvas subtitle: an n8n expression mapping `resource.operation` to the operation's action
 * text ("Get many records"), read from each resource's Operation options, so a new operation needs
 * no entry here.
 */
export function subtitleExpression(): string {
	const actions: Record<string, string> = {};
	for (const m of resourceModules) {
		const selector = m.description.find((p) => p.name === 'operation');
		for (const o of selector?.options ?? []) {
			if ('action' in o && typeof o.action === 'string' && 'value' in o)
				actions[`${m.option.value}.${String(o.value)}`] = o.action;
		}
	}
	return `={{ (${JSON.stringify(actions)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;
}
