/**
 * The shapes of the output items (keys and value types, test/harness/node-snapshot.ts `shapeOf`)
 * of the record and SQL operations and of both triggers' events, pinned in
 * test/unit/node-versions/outputs.json: a saved workflow's next nodes read these keys, so a
 * released node version keeps them (a change is a new node version); `npm run snapshot`
 * rewrites the shapes of versions not released yet. Run by n8n-core against the emulator, or a
 * real Grist with `npm run test:real`. A case is one line of CASES: its node, version and run.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { autoMap, docTable, rl } from '../harness/builders';
import { useDemoSite } from '../harness/demo-site';
import { createPoller, runNode } from '../harness/inprocess';
import { createWebhookTrigger, serveWebhooks } from '../harness/inprocess/webhook';
import {
	OUTPUTS_FILE,
	UPDATING,
	changedMessage,
	itemsShape,
	readJson,
	versionFile,
	writeJson,
	type OutputShapes,
	type VersionSnapshot,
} from '../harness/node-snapshot';

const fx = useDemoSite({ allowedWebhookDomains: '*' });
let bridge: Awaited<ReturnType<typeof serveWebhooks>>;
let hook: ReturnType<typeof createWebhookTrigger> | undefined;
const TABLE = 'Shapes';
let tableMade = false;

beforeAll(async () => {
	bridge = await serveWebhooks(() => {
		if (!hook) throw new Error('no trigger');
		return hook;
	});
});
afterAll(async () => {
	await bridge?.close();
});

/** One table of every kind of cell the outputs decode: text, number, date, choice, list, bool. */
function table(): INodeParameters {
	if (!tableMade) {
		fx.emu.addTable(fx.demo.docId, TABLE, [
			{ id: 'Name', type: 'Text' },
			{ id: 'Qty', type: 'Numeric' },
			{ id: 'Day', type: 'Date' },
			{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['Open', 'Done'] } },
			{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['a', 'b'] } },
			{ id: 'Ok', type: 'Bool' },
		]);
		fx.emu.addRecords(fx.demo.docId, TABLE, [
			{ Name: 'one', Qty: 1, Day: 1704067200, Status: 'Open', Tags: ['L', 'a'], Ok: true },
		]);
		tableMade = true;
	}
	return docTable(fx.demo.docId, TABLE);
}
const ROW = { Name: 'two', Qty: 2, Day: '2024-01-02', Status: 'Done', Tags: ['b'], Ok: false };

const credentials = () => ({ apiKey: fx.demo.apiKey, url: fx.site });
const json = (items: INodeExecutionData[] | null | undefined) => (items ?? []).map((i) => i.json);

async function grist(
	parameters: INodeParameters,
	input: IDataObject[] = [{}],
): Promise<IDataObject[]> {
	const { items, error } = await runNode({
		node: new Grist(),
		parameters: { resource: 'record', ...table(), ...parameters },
		credentials: credentials(),
		input: input.map((j) => ({ json: j })),
	});
	if (error) throw error;
	return json(items);
}

/** A polled event: the baseline poll, `change`, then the poll that emits. */
async function polled(
	parameters: INodeParameters,
	change: () => Promise<unknown>,
): Promise<IDataObject[]> {
	const p = createPoller({
		node: new GristTrigger(),
		parameters: { ...table(), ...parameters },
		credentials: credentials(),
	});
	const poll = async () => {
		delete p.nodeStaticData.updatedAt;
		return await p.poll('trigger');
	};
	await poll();
	await change();
	return json((await poll())?.[0]);
}

/** A delivery as Grist sends it, to an activated Instant Trigger. */
async function delivered(parameters: INodeParameters): Promise<IDataObject[]> {
	hook = createWebhookTrigger({
		node: new GristWebhookTrigger(),
		parameters: { ...table(), event: 'addOrUpdate', ...parameters },
		credentials: { gristRecordsApi: credentials() },
		baseUrl: bridge.baseUrl,
	});
	await hook.activate();
	try {
		const secret = String(
			(hook.savedStaticData['node:Grist Instant Trigger'] as IDataObject).secret,
		);
		const record = {
			id: 1,
			manualSort: 1,
			Name: 'one',
			Qty: 1,
			Day: 1704067200,
			Status: 'Open',
			Tags: ['L', 'a'],
			Ok: true,
		};
		const r = await hook.receive({
			headers: { Authorization: `Bearer ${secret}` },
			body: [record],
		});
		return (r.result.workflowData?.[0] ?? []).map((i) => i.json);
	} finally {
		await hook.deactivate();
		hook = undefined;
	}
}

const firstId = async () => Number((await grist({ operation: 'getAll', limit: 1 }))[0].id);
const updateQty = async (id: number, Qty: number) =>
	await grist({ operation: 'update', rowId: '={{ $json.id }}', columns: autoMap() }, [{ id, Qty }]);
const addRow = async () => await grist({ operation: 'create', columns: autoMap() }, [ROW]);

/** name → [node, version, what runs]. */
const CASES: Record<string, [string, number, () => Promise<IDataObject[]>]> = {
	'grist record.getAll': [
		'grist',
		1,
		async () => await grist({ operation: 'getAll', returnAll: true }),
	],
	'grist record.getAll (Simplify off)': [
		'grist',
		1,
		async () => await grist({ operation: 'getAll', returnAll: true, simplify: false }),
	],
	'grist record.get': [
		'grist',
		1,
		async () => await grist({ operation: 'get', rowId: await firstId() }),
	],
	'grist record.create': ['grist', 1, addRow],
	'grist record.update': ['grist', 1, async () => await updateQty(await firstId(), 5)],
	'grist record.upsert': [
		'grist',
		1,
		async () => await grist({ operation: 'upsert', columns: autoMap(['Name']) }, [ROW]),
	],
	'grist record.delete': [
		'grist',
		1,
		async () => await grist({ operation: 'delete', rowIds: String((await addRow())[0].id) }),
	],
	'grist sql.query': [
		'grist',
		1,
		async () =>
			await grist({
				resource: 'sql',
				operation: 'query',
				document: rl('id', fx.demo.docId),
				query: `SELECT * FROM ${TABLE}`,
				parameters: '',
			}),
	],
	'gristTrigger rowAdded': [
		'gristTrigger',
		1,
		async () => await polled({ event: 'rowAdded' }, addRow),
	],
	'gristTrigger rowAdded (Simplify off)': [
		'gristTrigger',
		1,
		async () => await polled({ event: 'rowAdded', simplify: false }, addRow),
	],
	'gristTrigger rowUpdated': [
		'gristTrigger',
		1,
		async () => {
			const id = await firstId();
			return await polled({ event: 'rowUpdated' }, async () => await updateQty(id, 7));
		},
	],
	'gristTrigger rowDeleted': [
		'gristTrigger',
		1,
		async () => {
			const [row] = await addRow();
			return await polled(
				{ event: 'rowDeleted' },
				async () => await grist({ operation: 'delete', rowIds: String(row.id) }),
			);
		},
	],
	'gristWebhookTrigger addOrUpdate': ['gristWebhookTrigger', 1, async () => await delivered({})],
	'gristWebhookTrigger addOrUpdate (Simplify off)': [
		'gristWebhookTrigger',
		1,
		async () => await delivered({ simplify: false }),
	],
};

const seen: OutputShapes = {};

afterAll(() => {
	if (!UPDATING || Object.keys(seen).length !== Object.keys(CASES).length) return;
	writeJson(OUTPUTS_FILE, seen);
});

test.each(Object.keys(CASES))('%s', async (name) => {
	const [node, version, run] = CASES[name];
	const items = await run();
	expect(items.length).toBeGreaterThan(0);
	const shape = itemsShape(items);
	seen[name] = { node, version, shape };
	const saved = (readJson<OutputShapes>(OUTPUTS_FILE) ?? {})[name];
	if (saved && JSON.stringify(saved.shape) === JSON.stringify(shape)) return;
	const released = readJson<VersionSnapshot>(versionFile(node, version))?.released ?? null;
	if (UPDATING && !released) return;
	// a released shape stays as committed, also when `npm run snapshot` rewrites the others
	if (saved && released) seen[name] = saved;
	throw new Error(
		changedMessage(`${node} version ${version}, the output of ${name}`, released, [
			`- pinned: ${JSON.stringify(saved?.shape ?? 'nothing')}`,
			`- now:    ${JSON.stringify(shape)}`,
		]),
	);
});
