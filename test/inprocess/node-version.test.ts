/**
 * The Grist node's one version: a node saved without a Resource (n8n stores only non-default
 * values) reads records, a saved Columnar node still runs, and a node saved as a version the
 * node does not have is refused before any request.
 */
import { NodeHelpers } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { docTable } from '../harness/builders';
import { useDemoSite } from '../harness/demo-site';
import { runNode } from '../harness/inprocess';

const fx = useDemoSite();
// the site's /o/TEAM prefix and the query string left out
const requests = () =>
	fx.emu.log.map((e) => `${e.method} ${e.path.split('?')[0].replace(/^\/o\/[^/]+/, '')}`);

/** A saved node without `resource` (nor `operation`: Get Many is the default of both). */
const run = async (typeVersion: number) =>
	await runNode({
		node: new Grist(),
		typeVersion,
		parameters: { ...docTable(fx.demo.docId, 'Orders') },
		credentials: { apiKey: fx.demo.apiKey, url: fx.site },
	});

test('a node saved without a Resource reads records', async () => {
	const { items, error } = await run(1);
	expect(error).toBeUndefined();
	// Record → Get Many with Simplify: the rows (column by column) and the columns' types
	expect(requests().sort()).toEqual([
		`GET /api/docs/${fx.demo.docId}/tables/Orders/columns`,
		`GET /api/docs/${fx.demo.docId}/tables/Orders/data`,
	]);
	expect(items.length).toBeGreaterThan(0);
	for (const item of items) expect(item.json).toHaveProperty('id');
});

test('a node saved as a version the node does not have is refused, before any request', async () => {
	const { error } = await run(2);
	expect(error?.message).toBe(
		'This node is saved as version 2 of Grist Records & Documents, which has no such version (it has 1)',
	);
	expect(error?.description).toMatch(/^Add a new Grist Records & Documents node/);
	expect(requests()).toEqual([]);
});

test('a saved node with the deprecated Columnar resource still runs', async () => {
	const { items, error } = await runNode({
		node: new Grist(),
		parameters: { resource: 'columnar', operation: 'getAll', ...docTable(fx.demo.docId, 'Orders') },
		credentials: { apiKey: fx.demo.apiKey, url: fx.site },
	});
	expect(error).toBeUndefined();
	expect(requests()).toContain(`GET /api/docs/${fx.demo.docId}/tables/Orders/data`);
	expect(items.length).toBeGreaterThan(0);
});

test('one node version; the Resource list starts with Record and ends with Columnar, shown only on a node that has it', () => {
	const { description } = new Grist();
	expect(description.version).toBe(1);
	expect(description.defaultVersion).toBeUndefined();
	const selectors = description.properties.filter((p) => p.name === 'resource');
	expect(selectors.map((p) => [p.displayOptions, p.default])).toEqual([[undefined, 'record']]);
	const names = (selectors[0].options ?? []).map((o) => ('name' in o ? o.name : ''));
	expect(names[0]).toBe('Record');
	expect(names.at(-1)).toMatch(/Columnar.*Deprecated/);
	// the editor lists an option with displayOptions only where they match (its own value here);
	// n8n's node panel finds no Operation selector listing 'columnar' (a condition instead)
	const columnarOption = selectors[0].options?.at(-1);
	expect(
		columnarOption && 'displayOptions' in columnarOption && columnarOption.displayOptions,
	).toEqual({
		show: { resource: ['columnar'] },
	});
	const operationSelectors = description.properties.filter((p) => p.name === 'operation');
	expect(
		operationSelectors.filter((p) =>
			(p.displayOptions?.show?.resource as unknown[] | undefined)?.includes('columnar'),
		),
	).toEqual([]);
	expect(
		NodeHelpers.displayParameter(
			{ resource: 'columnar' },
			operationSelectors.find(
				(p) => p.default === 'getAll' && JSON.stringify(p.displayOptions).includes('_cnd'),
			)!,
			{ typeVersion: 1 },
			description,
		),
	).toBe(true);
});
