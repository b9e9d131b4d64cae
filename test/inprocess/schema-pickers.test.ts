/**
 * Pickers of the Table and Column operations with a real LoadOptionsContext against the emulator: the column locator's
 * list (searchColumns, by ID or label, with the type), the referenced table of a new Ref column
 * (getTables, summary tables left out), and Table → Get Many marking summary tables.
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { loadOptions } from '../harness/inprocess';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Orders_summary_Status', [{ id: 'Status', type: 'Choice' }], {
		summarySourceTable: 'Orders',
	});
});

const pick = async (
	kind: 'listSearch' | 'loadOptions',
	method: string,
	parameters: Record<string, unknown>,
	filter?: string,
) =>
	await loadOptions({
		node: new Grist(),
		kind,
		method,
		parameters: parameters as never,
		filter,
		credentials: { apiKey: demo.apiKey, url: fx.site },
		...(kind === 'loadOptions' ? { path: 'parameters.columns.column[0].refTable' } : {}),
	});

describe('searchColumns (Column → Update / Delete)', () => {
	it("lists the picked table's columns with label and type, searchable", async () => {
		const params = {
			resource: 'column',
			operation: 'update',
			document: rl('id', demo.docId),
			table: rl('id', 'Orders'),
		};
		const all = (await pick('listSearch', 'searchColumns', params)) as {
			results: Array<{ name: string; value: string }>;
		};
		expect(all.results.map((r) => r.value)).toEqual([
			'Customer',
			'Amount',
			'Ordered',
			'Status',
			'Tags',
			'Invoice',
			'Total',
		]);
		expect(all.results[1].name).toBe('Amount · Numeric');
		const some = (await pick('listSearch', 'searchColumns', params, 'TAG')) as {
			results: Array<{ value: string }>;
		};
		expect(some.results.map((r) => r.value)).toEqual(['Tags']);
		expect(emu.log.map((e) => `${e.method} ${e.apiPath}`)).toEqual([
			`GET /api/docs/${demo.docId}/tables/Orders/columns`,
			`GET /api/docs/${demo.docId}/tables/Orders/columns`,
		]);
	});

	it('lists nothing (and asks nothing) before a table is picked', async () => {
		const none = (await pick('listSearch', 'searchColumns', {
			resource: 'column',
			operation: 'delete',
			document: rl('id', demo.docId),
		})) as { results: unknown[] };
		expect(none.results).toEqual([]);
		expect(emu.log).toEqual([]);
	});
});

describe('getTables (the table a Reference column points to)', () => {
	it("lists the document's tables without summary tables", async () => {
		const options = (await pick('loadOptions', 'getTables', {
			resource: 'table',
			operation: 'create',
			document: rl('id', demo.docId),
			tableId: 'X',
			columns: { column: [{ id: 'A', type: 'Ref' }] },
		})) as Array<{ value: string }>;
		expect(options.map((o) => o.value)).toEqual(['Customers', 'Orders']);
	});
});

describe('table.getAll marks summary tables', () => {
	const run = resourceRunner(fx, 'table');
	it('isSummary and summarySourceTable; Include Summary Tables off leaves them out', async () => {
		const { items } = await run({ operation: 'getAll', document: rl('id', demo.docId) });
		const summary = items.find((i) => i.json.id === 'Orders_summary_Status')?.json;
		const orders = items.find((i) => i.json.id === 'Orders')?.json;
		expect(summary).toMatchObject({ isSummary: true, summarySourceTable: orders?.tableRef });
		const without = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			includeSummary: false,
		});
		expect(without.items.map((i) => i.json.id)).toEqual(['Customers', 'Orders']);
	});
});
