/**
 * Grist as an AI agent's tools in a real n8n 2.41.1 (test level c), no language model needed:
 * a workflow "MCP Server Trigger → Grist tools" (n8n's own MCP Server Trigger; n8n 2.x offers
 * community tools without any setting), the official MCP TypeScript SDK as the
 * client over Streamable HTTP: the tools are listed (names, descriptions, input schemas) and
 * called as a model would (discover, search, write, error), each effect checked in the emulator.
 * Then one Grist tool through n8n's Tool Executor, the agent-free path of the AI Agent's tools.
 */
import { randomUUID } from 'node:crypto';

// The SDK's subpaths resolve through its package `exports` (Node, Jest) and `typesVersions`
// (TypeScript); the lint's resolver reads neither.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { DemoSite, GristEmulator } from '../emulator';
import {
	MANUAL_TRIGGER_NAME,
	MANUAL_TRIGGER_TYPE,
	useN8nDemoSite,
	type CredentialRef,
	type N8n,
	type WorkflowJson,
} from '../harness/e2e';
import { waitFor } from '../harness/until';

const fx = useN8nDemoSite({ credential: 'Grist for agents' });
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));

const TOOL_TYPE = 'n8n-nodes-grist.gristTool';
const MCP_TRIGGER = 'MCP Server Trigger';

/** `={{ $fromAI(key, description, type) }}`: the value the model gives for `key`. */
function fromAI(key: string, description: string, type = 'string'): string {
	return `={{ $fromAI('${key}', ${JSON.stringify(description)}, '${type}') }}`;
}
const byIdFromAI = (key: string, description: string) => ({
	__rl: true,
	mode: 'id',
	value: fromAI(key, description),
});

const DOC = byIdFromAI(
	'documentId',
	'The document ID, as List documents returns it (not its name)',
);
const TABLE = byIdFromAI(
	'tableId',
	'The table ID, as List tables returns it (e.g. Orders; not the page name)',
);
const FIELDS =
	'An object of column IDs (not labels) and values, e.g. {"Amount": 12.5, "Status": "Paid"}: dates as ISO text (2024-01-31), a Reference as the row ID it points to, a Choice exactly as one of its choices';

interface ToolSpec {
	name: string;
	parameters: Record<string, unknown>;
	/** The viewer's credential instead of the owner's (a read-only tool set). */
	viewer?: true;
}

const SEARCH_DESCRIPTION =
	'Search the records (rows) of a Grist table with one condition. Returns each record as {id, <column ID>: value}: dates as ISO text, a Reference as the row ID it points to, a Choice List as an array.';

/** The Grist tools an agent needs, as README ("Use with AI agents") sets them up. */
const TOOLS: ToolSpec[] = [
	{
		name: 'List documents',
		parameters: { resource: 'document', operation: 'getAll', scope: 'org', returnAll: true },
	},
	{ name: 'List tables', parameters: { resource: 'table', operation: 'getAll', document: DOC } },
	{
		name: 'Describe columns',
		parameters: { resource: 'column', operation: 'getAll', document: DOC, table: TABLE },
	},
	{
		name: 'Search records',
		parameters: {
			descriptionType: 'manual',
			toolDescription: SEARCH_DESCRIPTION,
			resource: 'record',
			operation: 'getAll',
			document: DOC,
			table: TABLE,
			returnAll: false,
			limit: 50,
			filterType: 'conditions',
			conditions: {
				conditions: [
					{
						column: fromAI('column', 'The column ID to search in (not its label)'),
						match: fromAI(
							'match',
							'One of: equals, notEquals, anyOf, noneOf, gt, gte, lt, lte, contains, notContains, startsWith, endsWith, isEmpty, isNotEmpty',
						),
						values: fromAI(
							'value',
							'The value to compare with: text, a number, a date as 2024-01-31, a Reference as a row ID; for anyOf and noneOf several values separated by commas',
						),
					},
				],
			},
		},
	},
	{
		name: 'Get record',
		parameters: {
			resource: 'record',
			operation: 'get',
			document: DOC,
			table: TABLE,
			rowId: fromAI('rowId', 'The row ID of the record to read (its id field)', 'number'),
		},
	},
	{
		name: 'Create record',
		parameters: {
			resource: 'record',
			operation: 'create',
			document: DOC,
			table: TABLE,
			dataMode: 'json',
			fieldsJson: fromAI('fields', FIELDS, 'json'),
		},
	},
	{
		name: 'Update record',
		parameters: {
			resource: 'record',
			operation: 'update',
			document: DOC,
			table: TABLE,
			rowId: fromAI('rowId', 'The row ID of the record to change (its id field)', 'number'),
			dataMode: 'json',
			fieldsJson: fromAI('fields', FIELDS, 'json'),
		},
	},
	{
		name: 'Create or update record',
		parameters: {
			resource: 'record',
			operation: 'upsert',
			document: DOC,
			table: TABLE,
			dataMode: 'json',
			fieldsJson: fromAI('fields', FIELDS, 'json'),
			matchColumns: fromAI(
				'matchColumns',
				'The column IDs (separated by commas) whose values in fields identify the record, e.g. Email',
			),
		},
	},
	{
		name: 'Delete records',
		parameters: {
			resource: 'record',
			operation: 'delete',
			document: DOC,
			table: TABLE,
			rowIds: fromAI('rowIds', 'The row IDs of the records to delete, separated by commas'),
		},
	},
	{
		name: 'Run SQL',
		parameters: {
			resource: 'sql',
			operation: 'query',
			document: DOC,
			query: fromAI(
				'sql',
				'One read-only SQLite SELECT; tables and columns by their IDs, e.g. SELECT * FROM Orders WHERE Amount > 50',
			),
		},
	},
	{
		name: 'Download attachment',
		parameters: {
			resource: 'attachment',
			operation: 'download',
			document: DOC,
			attachmentId: fromAI('attachmentId', 'The attachment ID', 'number'),
		},
	},
	{
		name: 'Create record read-only',
		viewer: true,
		parameters: {
			resource: 'record',
			operation: 'create',
			document: DOC,
			table: TABLE,
			dataMode: 'json',
			fieldsJson: fromAI('fields', FIELDS, 'json'),
		},
	},
];

/** A tool's name as n8n gives it to the model: the node's name, other characters as `_`. */
const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

function toolNode(t: ToolSpec, i: number, viewerCred: CredentialRef) {
	return {
		id: randomUUID(),
		name: t.name,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [i * 200, 300] as [number, number],
		parameters: t.parameters,
		credentials: { gristRecordsApi: t.viewer ? viewerCred : cred },
	};
}

const toTrigger = (target: string) => ({
	ai_tool: [[{ node: target, type: 'ai_tool', index: 0 }]],
});

/** MCP Server Trigger (version 2: Streamable HTTP at /mcp/<path>) ← every tool of TOOLS. */
function mcpWorkflow(path: string, viewerCred: CredentialRef): WorkflowJson {
	const connections: Record<string, unknown> = {};
	for (const t of TOOLS) connections[t.name] = toTrigger(MCP_TRIGGER);
	return {
		name: `mcp ${randomUUID().slice(0, 8)}`,
		nodes: [
			{
				id: randomUUID(),
				name: MCP_TRIGGER,
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { path },
			},
			...TOOLS.map((t, i) => toolNode(t, i, viewerCred)),
		],
		connections,
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}

/**
 * An MCP client connected over Streamable HTTP; n8n registers an activated workflow's webhooks in
 * the background, so a 404 before that is retried (for at most 30 s).
 */
async function connect(url: string): Promise<Client> {
	let failure: Error | undefined;
	const attempt = async (): Promise<Client | undefined> => {
		const client = new Client({ name: 'n8n-nodes-grist-test', version: '1.0.0' });
		failure = await client
			.connect(new StreamableHTTPClientTransport(new URL(url)))
			.then(() => undefined)
			.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
		if (!failure) return client;
		await client.close().catch(() => undefined);
		if (!/404/.test(failure.message)) throw failure;
		return undefined;
	};
	const connected = await waitFor('the MCP endpoint is registered', attempt, Boolean, {
		timeoutMs: 30_000,
		intervalMs: 200,
		detail: () => `last failure: ${failure?.message}`,
	});
	return connected!;
}

interface ToolText {
	isError: boolean;
	text: string;
}

describe('Grist tools behind n8n’s MCP Server Trigger, called by the MCP SDK', () => {
	let client: Client;
	const texts: string[] = [];
	const doc = () => ({ documentId: demo.docId });
	const orders = () => ({ documentId: demo.docId, tableId: 'Orders' });

	/** Calls a tool as a model would; every text is kept for the secrets check. */
	async function call(name: string, args: Record<string, unknown>): Promise<ToolText> {
		const r = (await client.callTool({ name, arguments: args })) as {
			isError?: boolean;
			content: Array<{ type: string; text?: string }>;
		};
		const text = r.content.map((c) => c.text ?? '').join('\n');
		texts.push(text);
		return { isError: r.isError === true, text };
	}
	const json = (r: ToolText) => {
		expect(r.isError).toBe(false);
		return JSON.parse(r.text) as Array<Record<string, unknown>>;
	};

	beforeAll(async () => {
		expect(await n8n.nodeTypes()).toContain(TOOL_TYPE);
		const viewerCred = await n8n.createCredential({
			name: 'Grist viewer',
			type: 'gristRecordsApi',
			data: { apiKey: demo.viewerApiKey, url: `${emu.url}/o/${demo.orgDomain}` },
		});
		const path = `grist-${randomUUID().slice(0, 8)}`;
		const workflowId = await n8n.createWorkflow(mcpWorkflow(path, viewerCred));
		await n8n.activate(workflowId);
		client = await connect(`${n8n.baseUrl}/mcp/${path}`);
	}, 120_000);
	afterAll(async () => {
		await client?.close();
	});

	test('lists the tools: names, descriptions, and every argument typed, required and described', async () => {
		const { tools } = await client.listTools();
		const byName = new Map(tools.map((t) => [t.name, t]));
		expect([...byName.keys()].sort()).toEqual(TOOLS.map((t) => toolName(t.name)).sort());
		// automatic descriptions: the operation's action, as n8n builds them
		expect(byName.get('List_tables')?.description).toBe('Get many tables in Grist');
		expect(byName.get('Describe_columns')?.description).toBe('Get many columns in Grist');
		expect(byName.get('Create_record')?.description).toBe('Create records in Grist');
		expect(byName.get('Get_record')?.description).toBe('Get a record in Grist');
		expect(byName.get('Search_records')?.description).toBe(SEARCH_DESCRIPTION);
		for (const tool of tools) {
			const schema = tool.inputSchema as {
				properties?: Record<string, { type?: string; description?: string }>;
				required?: string[];
			};
			const props = Object.entries(schema.properties ?? {});
			expect(schema.required ?? []).toEqual(props.map(([k]) => k));
			for (const [key, prop] of props) {
				expect([tool.name, key, (prop.description ?? '').length > 15]).toEqual([
					tool.name,
					key,
					true,
				]);
			}
		}
		expect(byName.get('List_documents')?.inputSchema.properties).toEqual({});
		expect(byName.get('Search_records')?.inputSchema.required).toEqual([
			'documentId',
			'tableId',
			'column',
			'match',
			'value',
		]);
		for (const name of ['Update_record', 'Get_record'])
			expect(byName.get(name)?.inputSchema.properties?.rowId).toMatchObject({ type: 'number' });
		expect(
			(byName.get('Create_record')?.inputSchema.properties?.fields as { description: string })
				.description,
		).toContain('column IDs (not labels)');
	});

	test('discover → search → create, update, delete → errors, each effect in the emulator', async () => {
		// discover: documents, tables, columns (IDs, labels, types, choices, reference targets)
		const docs = json(await call('List_documents', {}));
		expect(docs.map((d) => [d.id, d.name])).toContainEqual([demo.docId, 'CRM']);
		const tables = json(await call('List_tables', doc()));
		expect(tables.map((t) => t.id)).toEqual(['Customers', 'Orders']);
		const columns = json(await call('Describe_columns', orders()));
		expect(columns.find((c) => c.id === 'Status')).toMatchObject({
			label: 'Status',
			type: 'Choice',
			choices: ['New', 'Paid', 'Shipped'],
		});
		expect(columns.find((c) => c.id === 'Customer')).toMatchObject({ type: 'Ref:Customers' });

		// search with a condition: simplified records, dates as ISO text, references as row IDs
		const before = emu.records(demo.docId, 'Orders');
		const found = json(
			await call('Search_records', { ...orders(), column: 'Amount', match: 'gt', value: '50' }),
		);
		expect(found.map((r) => r.id)).toEqual(
			before.filter((r) => (r.fields.Amount as number) > 50).map((r) => r.id),
		);
		expect(found[0]).toMatchObject({ id: 1, Customer: 1, Ordered: '2024-06-01', Status: 'Paid' });
		// one record by its row ID: the same record as the search gives
		expect(json(await call('Get_record', { ...orders(), rowId: 1 }))).toEqual([found[0]]);
		const sql = json(
			await call('Run_SQL', {
				...doc(),
				sql: "SELECT id, Amount FROM Orders WHERE Status = 'New'",
			}),
		);
		expect(sql).toEqual(
			before
				.filter((r) => r.fields.Status === 'New')
				.map((r) => ({ id: r.id, Amount: r.fields.Amount })),
		);

		// write: create, update, delete one record
		const created = json(
			await call('Create_record', {
				...orders(),
				fields: { Customer: 2, Amount: 99, Ordered: '2024-06-03', Status: 'New' },
			}),
		);
		const newId = created[0].id as number;
		expect(emu.records(demo.docId, 'Orders').find((r) => r.id === newId)?.fields).toMatchObject({
			Customer: 2,
			Amount: 99,
			Ordered: 1717372800,
			Status: 'New',
		});
		json(await call('Update_record', { ...orders(), rowId: newId, fields: { Status: 'Paid' } }));
		expect(emu.records(demo.docId, 'Orders').find((r) => r.id === newId)?.fields.Status).toBe(
			'Paid',
		);
		json(await call('Delete_records', { ...orders(), rowIds: String(newId) }));
		expect(emu.records(demo.docId, 'Orders').map((r) => r.id)).toEqual(before.map((r) => r.id));

		// create or update: the same Email twice adds one customer, then changes it
		const customers = { documentId: demo.docId, tableId: 'Customers' };
		const upsert = (Name: string) =>
			call('Create_or_update_record', {
				...customers,
				matchColumns: 'Email',
				fields: { Email: 'dan@example.com', Name, Country: 'Germany' },
			});
		json(await upsert('Dan'));
		json(await upsert('Dan Brown'));
		const dans = emu
			.records(demo.docId, 'Customers')
			.filter((r) => r.fields.Email === 'dan@example.com');
		expect(dans.map((r) => r.fields.Name)).toEqual(['Dan Brown']);
		json(await call('Delete_records', { ...customers, rowIds: String(dans[0].id) }));
		expect(emu.records(demo.docId, 'Customers')).toHaveLength(3);

		// errors come back as the tool's result, a text the model can act on
		const unknown = await call('Create_record', { ...orders(), fields: { Price: 99 } });
		expect(unknown.isError).toBe(true);
		expect(unknown.text).toContain('Table "Orders" has no column "Price"');
		expect(unknown.text).toContain(
			'Columns of "Orders": Customer, Amount, Ordered, Status, Tags, Invoice, Total',
		);
		const badValue = await call('Update_record', {
			...orders(),
			rowId: 1,
			fields: { Ordered: 'next tuesday' },
		});
		expect(badValue.isError).toBe(true);
		expect(badValue.text).toContain(
			'The value "next tuesday" does not fit a Date column: use a date like 2024-01-31',
		);
		const noTable = await call('Search_records', {
			documentId: demo.docId,
			tableId: 'Nope',
			column: 'Amount',
			match: 'gt',
			value: '50',
		});
		expect(noTable.isError).toBe(true);
		expect(noTable.text).toContain('Table not found "Nope"');
		const noRow = await call('Get_record', { ...orders(), rowId: 999 });
		expect(noRow.isError).toBe(true);
		expect(noRow.text).toContain('No record with row ID 999 in table "Orders"');
		const readOnly = await call('Create_record_read-only', { ...orders(), fields: { Amount: 1 } });
		expect(readOnly.isError).toBe(true);
		expect(readOnly.text).toContain('NodeOperationError: No write access');
		expect(readOnly.text).toContain('needs the Editor or Owner role on document');
		const file = await call('Download_attachment', { ...doc(), attachmentId: demo.attachmentId });
		expect(file.isError).toBe(true);
		expect(file.text).toContain(
			'This Grist tool (attachment → download) works with files, which an AI agent cannot use',
		);
		expect(file.text).toContain("Attachment → Get gives an attachment's name, type and size");
		// nothing written by the failed calls
		expect(emu.records(demo.docId, 'Orders')).toEqual(before);

		// no secret in anything the client received
		for (const text of texts) {
			expect(text).not.toContain(demo.apiKey);
			expect(text).not.toContain(demo.viewerApiKey);
		}
	});
});

test('a Grist tool through n8n’s Tool Executor (the AI Agent’s tool path, no model)', async () => {
	const search = TOOLS.find((t) => t.name === 'Search records') as ToolSpec;
	const wf = {
		name: `tool executor ${randomUUID().slice(0, 8)}`,
		nodes: [
			{
				id: randomUUID(),
				name: MANUAL_TRIGGER_NAME,
				type: MANUAL_TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: randomUUID(),
				name: 'Tool Executor',
				type: '@n8n/n8n-nodes-langchain.toolExecutor',
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					query: JSON.stringify({
						Search_records: {
							documentId: demo.docId,
							tableId: 'Customers',
							column: 'Country',
							match: 'anyOf',
							value: 'France, USA',
						},
					}),
					toolName: 'Search_records',
				},
			},
			toolNode(search, 0, cred),
		],
		connections: {
			[MANUAL_TRIGGER_NAME]: { main: [[{ node: 'Tool Executor', type: 'main', index: 0 }]] },
			[search.name]: toTrigger('Tool Executor'),
		},
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	// the tool's answer as the agent gets it: the JSON text of the records
	const [answer] = run.output('Tool Executor') as unknown[];
	expect(JSON.parse(String(answer))).toEqual([
		{
			id: 1,
			Name: 'Alice Martin',
			Email: 'alice@example.com',
			Country: 'France',
			Since: '2024-01-01',
		},
		{ id: 3, Name: 'Carol Jones', Email: 'carol@example.com', Country: 'USA', Since: '2024-03-01' },
	]);
});
