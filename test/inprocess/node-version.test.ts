/**
 * The Grist node's versions: version 2 opens on Record, version 1 keeps Organization, so a
 * workflow saved by version 1 without a Resource (n8n stores only non-default values) still runs
 * what it ran: the same parameters list organizations at version 1 and read records at version 2.
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

test('a version 1 node saved without a Resource still lists organizations', async () => {
	const { items, error } = await run(1);
	expect(error).toBeUndefined();
	expect(requests()).toEqual(['GET /api/orgs']);
	expect(items.length).toBeGreaterThan(0);
	for (const item of items) expect(item.json).toHaveProperty('domain');
});

test('a saved version 2 node with the deprecated Columnar resource still runs', async () => {
	const { items, error } = await runNode({
		node: new Grist(),
		typeVersion: 2,
		parameters: { resource: 'columnar', operation: 'getAll', ...docTable(fx.demo.docId, 'Orders') },
		credentials: { apiKey: fx.demo.apiKey, url: fx.site },
	});
	expect(error).toBeUndefined();
	expect(requests()).toContain(`GET /api/docs/${fx.demo.docId}/tables/Orders/data`);
	expect(items.length).toBeGreaterThan(0);
});

test('a version 2 node without a Resource reads records', async () => {
	const { items, error } = await run(2);
	expect(error).toBeUndefined();
	// Record → Get Many with Simplify: the rows (column by column) and the columns' types
	expect(requests().sort()).toEqual([
		`GET /api/docs/${fx.demo.docId}/tables/Orders/columns`,
		`GET /api/docs/${fx.demo.docId}/tables/Orders/data`,
	]);
	expect(items.length).toBeGreaterThan(0);
	for (const item of items) expect(item.json).toHaveProperty('id');
});

test('new nodes get version 2; the Resource list starts with Record and ends with Columnar, shown only on a node that has it', () => {
	const { description } = new Grist();
	expect(description.version).toEqual([1, 2]);
	expect(description.defaultVersion).toBe(2);
	const selectors = description.properties.filter((p) => p.name === 'resource');
	expect(selectors.map((p) => [p.displayOptions?.show?.['@version'], p.default])).toEqual([
		[[1], 'org'],
		[[2], 'record'],
	]);
	const names = (selectors[1].options ?? []).map((o) => ('name' in o ? o.name : ''));
	expect(names[0]).toBe('Record');
	expect(names.at(-1)).toMatch(/Columnar.*Deprecated/);
	// the editor lists an option with displayOptions only where they match (its own value here);
	// n8n's node panel finds no Operation selector listing 'columnar' (a condition instead)
	const columnarOption = selectors[1].options?.at(-1);
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
			{ typeVersion: 2 },
			description,
		),
	).toBe(true);
	expect(names).toEqual((selectors[0].options ?? []).map((o) => ('name' in o ? o.name : '')));
});
