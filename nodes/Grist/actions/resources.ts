/**
 * Every resource of the Grist node. The order of `resources` is the order of the Resource selector
 * and of the groups of n8n's node panel, which lists a node's actions in one list, a heading per
 * resource ("Record actions"), without a search box for a community node: what most workflows
 * do first (records, then reading with SQL and the files in cells), then the table's shape, then
 * documents, and the site's administration last. A new resource takes its place here.
 *
 * Columnar is registered (a saved node with it still runs) but kept out of new nodes: see
 * actions/columnar/index.ts.
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
	// data: what most workflows do
	record,
	sql,
	attachment,
	// the table's shape
	table,
	column,
	// documents and what they send out
	document,
	webhook,
	// the site's administration
	workspace,
	org,
	serviceAccount,
	// deprecated, hidden from new nodes
	columnar,
};

export const resourceModules: ResourceModule[] = Object.values(resources).filter(
	(m): m is ResourceModule => m !== undefined,
);

/**
 * The canvas subtitle, an n8n expression: the table the node works on, since its name already says
 * what it does (a node added from the panel is named after its action). Before a table is picked,
 * with a table from an expression, and for operations without a table: the operation's action
 * text ("Get many records"), read from each resource's Operation options, so a new operation needs
 * no entry here. `$rawParameter` gives a locator's value unevaluated; a document's name is not
 * there (only its ID), so the subtitle shows none.
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
	const table = `String($rawParameter["table"] || "")`;
	return `={{ (/^=/.test(${table}) ? "" : ${table}) || (${JSON.stringify(actions)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;
}
