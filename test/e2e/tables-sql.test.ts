/**
 * Tables, columns, conditions and SQL in a real n8n 2.41.1 with the packed package:
 * ONE workflow creates a table with every column type, fills it, queries it with conditions
 * (OR, comparisons, text search: one parameterised SELECT on /sql) and with SQL Query, changes a
 * column and deletes the table; a second one adds columns, creates or updates them, deletes one
 * and renames the table.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { byId } from '../harness/builders';
import {
	gristNode,
	manualWorkflow,
	rowsSource,
	useN8nDemoSite,
	type CredentialRef,
	type N8n,
} from '../harness/e2e';

const fx = useN8nDemoSite({ credential: 'Grist tables' });
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));

test('create a table with every column type, fill it, search it, query it with SQL, change a column, delete the table', async () => {
	const doc = byId(demo.docId);
	const table = byId('Catalog');
	const rows = [
		{
			Name: 'Hammer',
			Price: 12.5,
			Qty: 3,
			Active: true,
			Due: '2024-01-01',
			Seen: '2024-01-01T10:00:00Z',
			Kind: 'tool',
			Tags: ['red'],
			Buyer: 1,
			Buyers: [1, 2],
		},
		{
			Name: 'nail',
			Price: 0.1,
			Qty: 500,
			Active: false,
			Due: '2024-02-01',
			Seen: '2024-02-01T10:00:00Z',
			Kind: 'part',
			Tags: ['red', 'blue'],
			Buyer: 2,
			Buyers: [],
		},
		{
			Name: 'Saw',
			Price: 30,
			Qty: 1,
			Active: true,
			Due: '2024-03-01',
			Seen: '2024-03-01T10:00:00Z',
			Kind: 'tool',
			Tags: [],
			Buyer: 3,
			Buyers: [3],
		},
	];
	const wf = manualWorkflow([
		gristNode(
			{
				resource: 'table',
				operation: 'create',
				document: doc,
				tableId: 'Catalog',
				columns: {
					column: [
						{ id: 'Name', type: 'Text' },
						{ id: 'Price', type: 'Numeric' },
						{ id: 'Qty', type: 'Int' },
						{ id: 'Active', type: 'Bool' },
						{ id: 'Due', type: 'Date' },
						{ id: 'Seen', type: 'DateTime', timezone: 'Europe/Paris' },
						{ id: 'Kind', type: 'Choice', choices: 'tool, part' },
						{ id: 'Tags', type: 'ChoiceList', choices: 'red, blue' },
						{ id: 'Buyer', type: 'Ref', refTable: 'Customers' },
						{ id: 'Buyers', type: 'RefList', refTable: 'Customers' },
						{ id: 'Files', type: 'Attachments' },
						{ id: 'Total', type: 'Numeric', formula: '$Price * $Qty' },
					],
				},
			},
			cred,
			{ name: 'Create Table' },
		),
		...rowsSource(rows),
		gristNode(
			{
				resource: 'record',
				operation: 'create',
				document: doc,
				table,
				columns: {
					mappingMode: 'autoMapInputData',
					value: null,
					matchingColumns: [],
					schema: [],
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			},
			cred,
			{ name: 'Fill' },
		),
		gristNode(
			{
				resource: 'record',
				operation: 'getAll',
				document: doc,
				table,
				returnAll: true,
				filterType: 'conditions',
				conditions: {
					conditions: [
						{ column: 'Price', match: 'between', values: '10', value2: '20' },
						{ column: 'Name', match: 'startsWith', values: 'SA', ignoreCase: true },
					],
				},
				combine: 'or',
				sort: { rules: [{ column: 'Price', direction: 'desc' }] },
			},
			cred,
			{ name: 'Search' },
		),
		gristNode(
			{
				resource: 'sql',
				operation: 'query',
				document: doc,
				query: 'SELECT Name, Active, Due, Tags, Total FROM Catalog WHERE Qty < ? ORDER BY id',
				parameters: '[100]',
			},
			cred,
			{ name: 'SQL' },
		),
		gristNode(
			{
				resource: 'column',
				operation: 'update',
				document: doc,
				table,
				column: byId('Kind'),
				updateFields: { newId: 'Category', choices: 'tool, part, kit' },
			},
			cred,
			{ name: 'Change Column' },
		),
		gristNode(
			{ resource: 'table', operation: 'getAll', document: doc, includeColumns: true },
			cred,
			{ name: 'List Tables' },
		),
		gristNode({ resource: 'table', operation: 'delete', document: doc, table }, cred, {
			name: 'Delete Table',
		}),
	]);
	for (const node of wf.nodes) {
		if (['Search', 'SQL', 'Change Column', 'List Tables', 'Delete Table'].includes(node.name))
			(node as unknown as { executeOnce: boolean }).executeOnce = true;
	}
	emu.clearLog();
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	expect(run.output('Create Table')).toEqual([
		{
			id: 'Catalog',
			columns: [
				'Name',
				'Price',
				'Qty',
				'Active',
				'Due',
				'Seen',
				'Kind',
				'Tags',
				'Buyer',
				'Buyers',
				'Files',
				'Total',
			],
		},
	]);
	expect(run.output('Fill')).toHaveLength(3);

	const search = run.output('Search');
	expect(search.map((r) => r.Name)).toEqual(['Saw', 'Hammer']);
	expect(search[1]).toMatchObject({
		Active: true,
		Due: '2024-01-01',
		Seen: '2024-01-01T10:00:00.000Z',
		Tags: ['red'],
		Buyer: 1,
		Buyers: [1, 2],
		Total: 37.5,
	});
	const sqlCall = emu.log.find(
		(e) => e.apiPath.endsWith('/sql') && (e.body as { sql: string }).sql.includes('"Catalog"'),
	);
	expect(sqlCall?.body).toMatchObject({ args: [10, 20, 'SA%'] });

	expect(run.output('SQL')).toEqual([
		{ Name: 'Hammer', Active: true, Due: '2024-01-01', Tags: ['red'], Total: 37.5 },
		{ Name: 'Saw', Active: true, Due: '2024-03-01', Tags: null, Total: 30 },
	]);

	expect(run.output('Change Column')).toEqual([
		expect.objectContaining({ id: 'Category', type: 'Choice', choices: ['tool', 'part', 'kit'] }),
	]);
	const catalog = run.output('List Tables').find((t) => t.id === 'Catalog') as {
		columns: Array<{ id: string; type: string }>;
	};
	expect(catalog.columns.map((c) => [c.id, c.type])).toEqual([
		['Name', 'Text'],
		['Price', 'Numeric'],
		['Qty', 'Int'],
		['Active', 'Bool'],
		['Due', 'Date'],
		['Seen', 'DateTime:Europe/Paris'],
		['Category', 'Choice'],
		['Tags', 'ChoiceList'],
		['Buyer', 'Ref:Customers'],
		['Buyers', 'RefList:Customers'],
		['Files', 'Attachments'],
		['Total', 'Numeric'],
	]);

	expect(run.output('Delete Table')).toEqual([{ id: 'Catalog', deleted: true }]);
	const apply = emu.log.find((e) => e.apiPath.endsWith('/apply'));
	expect(apply?.body).toEqual([['RemoveTable', 'Catalog']]);
	// the first GET: Create Table reads the document's tables once, to refuse a Reference to a
	// table the document lacks (Customers is there) before it writes
	const tables = emu.log.filter((e) => e.apiPath.endsWith('/tables')).map((e) => e.method);
	expect(tables).toEqual(['GET', 'POST', 'GET', 'GET', 'GET']);
});

test('add columns, create or update them, delete one, rename the table, in a real n8n', async () => {
	const doc = byId(demo.docId);
	const stock = byId('Stock');
	const wf = manualWorkflow([
		gristNode(
			{
				resource: 'table',
				operation: 'create',
				document: doc,
				tableId: 'Stock',
				columns: { column: [{ id: 'Item', type: 'Text' }] },
			},
			cred,
			{ name: 'Create Table' },
		),
		gristNode(
			{
				resource: 'column',
				operation: 'create',
				document: doc,
				table: stock,
				columns: {
					column: [
						{ id: 'Qty', type: 'Int' },
						{ id: 'Note', type: 'Text', label: 'Note' },
					],
				},
			},
			cred,
			{ name: 'Add Columns' },
		),
		gristNode(
			{
				resource: 'column',
				operation: 'upsert',
				document: doc,
				table: stock,
				columns: {
					column: [
						{ id: 'Qty', type: 'Numeric' },
						{ id: 'Shelf', type: 'Text' },
					],
				},
				options: {},
			},
			cred,
			{ name: 'Create or Update Columns' },
		),
		gristNode(
			{
				resource: 'column',
				operation: 'delete',
				document: doc,
				table: stock,
				column: byId('Note'),
			},
			cred,
			{ name: 'Delete Column' },
		),
		gristNode(
			{
				resource: 'table',
				operation: 'update',
				document: doc,
				table: stock,
				updateFields: { tableId: 'Inventory' },
			},
			cred,
			{ name: 'Rename Table' },
		),
		gristNode(
			{ resource: 'table', operation: 'getAll', document: doc, includeColumns: true },
			cred,
			{ name: 'List Tables' },
		),
	]);
	// one run of each step, whatever number of items the step before it gave
	for (const node of wf.nodes) (node as unknown as { executeOnce: boolean }).executeOnce = true;
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');
	expect(run.output('Add Columns').map((c) => [c.id, c.type])).toEqual([
		['Qty', 'Int'],
		['Note', 'Text'],
	]);
	expect(run.output('Create or Update Columns')).toEqual([
		{ id: 'Qty', action: 'updated' },
		{ id: 'Shelf', action: 'added' },
	]);
	expect(run.output('Delete Column')).toEqual([{ id: 'Note', deleted: true }]);
	expect(run.output('Rename Table')).toEqual([{ id: 'Inventory', previousId: 'Stock' }]);
	const tables = run.output('List Tables') as Array<{
		id: string;
		columns: Array<{ id: string; type: string }>;
	}>;
	expect(tables.map((t) => t.id)).not.toContain('Stock');
	expect(tables.find((t) => t.id === 'Inventory')?.columns.map((c) => [c.id, c.type])).toEqual([
		['Item', 'Text'],
		['Qty', 'Numeric'],
		['Shelf', 'Text'],
	]);
});
