/**
 * Nodes saved with parameters their version does not read — left from earlier shapes of the
 * nodes: Get Many's `filterType: "builder"` with `filters.conditions`, Webhook → Create's
 * `conditionType`/`conditionFilters`, the Grist Trigger's `options.filter`, the Instant Trigger's
 * `conditionType`/`conditionFilters` — fail naming them, before any request, in execute, poll,
 * the webhook lifecycle and a delivery; run by n8n-core (which drops what a node does not
 * declare) against the emulator, or a real Grist with `npm run test:real`.
 */
import type { INodeParameters } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { docTable } from '../harness/builders';
import { useDemoSite } from '../harness/demo-site';
import { createPoller, runNode } from '../harness/inprocess';
import { createWebhookTrigger } from '../harness/inprocess/webhook';

const fx = useDemoSite();
const credentials = () => ({ apiKey: fx.demo.apiKey, url: fx.site });
const orders = () => docTable(fx.demo.docId, 'Orders');

/** Get Many's conditions as they were saved before the one Filter. */
const oldBuilder = {
	filterType: 'builder',
	filters: { conditions: [{ column: 'Status', match: 'anyOf', values: 'Paid' }] },
};
/** The Instant Trigger's (and Webhook → Create's) condition before the one Filter. */
const oldCondition = {
	conditionType: 'filters',
	conditionFilters: { conditions: [{ column: 'Status', match: 'anyOf', values: 'Paid' }] },
};

const runGrist = async (parameters: INodeParameters) =>
	await runNode({ node: new Grist(), parameters, credentials: credentials() });

describe('the Grist node', () => {
	test('Get Many saved with the old filter builder fails naming filterType and filters, before any request', async () => {
		const { error, items } = await runGrist({
			resource: 'record',
			operation: 'getAll',
			...orders(),
			...oldBuilder,
		});
		expect(items).toEqual([]);
		expect(error?.message).toBe(
			'This node was saved in a shape its version does not run: it holds filters, which this version of the node no longer reads (left from an earlier shape of the node); Filter (filterType) is "builder", which is not one of its options (None, Conditions, JSON)',
		);
		expect(error?.description).toBe(
			'Running it would ignore what the saved workflow says, so it does not run. filters: Record → Get Many reads Filter → Conditions: set the conditions again there. Pick one of the options of each field named. Then add a new Grist Records & Documents node set up the same way and delete this one (the old values stay in a node until it is replaced).',
		);
		expect(fx.emu.log).toEqual([]);
	});

	test('an option value alone (no retired parameter) is named with its field', async () => {
		const { error } = await runGrist({
			resource: 'record',
			operation: 'getAll',
			...orders(),
			filterType: 'builder',
		});
		expect(error?.message).toBe(
			'This node was saved in a shape its version does not run: Filter (filterType) is "builder", which is not one of its options (None, Conditions, JSON)',
		);
		expect(error?.description).toBe(
			'Running it would ignore what the saved workflow says, so it does not run. Pick one of the options of each field named.',
		);
		expect(fx.emu.log).toEqual([]);
	});

	test('Webhook → Create saved with the old condition fails naming it', async () => {
		const { error } = await runGrist({
			resource: 'webhook',
			operation: 'create',
			...orders(),
			url: 'https://example.com/hook',
			...oldCondition,
		});
		expect(error?.message).toMatch(
			/^This node was saved in a shape its version does not run: it holds conditionType, conditionFilters, which/,
		);
		expect(fx.emu.log).toEqual([]);
	});

	test('a node saved today runs: Get Many with conditions', async () => {
		const { error, items } = await runGrist({
			resource: 'record',
			operation: 'getAll',
			...orders(),
			returnAll: true,
			filterType: 'conditions',
			conditions: { conditions: [{ column: 'Status', match: 'anyOf', values: 'Paid' }] },
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
	});
});

describe('the Grist Trigger', () => {
	const poller = (options: INodeParameters) =>
		createPoller({
			node: new GristTrigger(),
			parameters: { ...orders(), event: 'rowAdded', options },
			credentials: credentials(),
		});
	const message =
		'This node was saved in a shape its version does not run: it holds options.filter, which this version of the node no longer reads (left from an earlier shape of the node)';

	test('saved with the old Filter (JSON) option: the activation poll and Fetch Test Event fail naming it, before any request', async () => {
		const p = poller({ filter: '{"Status": ["Paid"]}' });
		await expect(p.poll('trigger')).rejects.toThrow(message);
		// n8n's run data holds the error of a manual run (not an Error instance)
		await expect(p.poll('manual')).rejects.toMatchObject({ message });
		expect(fx.emu.log).toEqual([]);
	});

	test("saved with today's options: it polls", async () => {
		const p = poller({ maxRecords: 10 });
		await expect(p.poll('trigger')).resolves.toBeDefined();
	});
});

describe('the Grist Instant Trigger', () => {
	const parameters = () => ({ ...orders(), event: 'add' });
	const message =
		'This node was saved in a shape its version does not run: it holds conditionType, conditionFilters, which this version of the node no longer reads (left from an earlier shape of the node)';

	test('saved with the old condition: publishing and Listen for Test Event fail naming it, before any request', async () => {
		const hook = createWebhookTrigger({
			node: new GristWebhookTrigger(),
			parameters: { ...parameters(), ...oldCondition },
			credentials: { gristRecordsApi: credentials() },
		});
		await expect(hook.activate()).rejects.toThrow(message);
		await expect(hook.listen()).rejects.toThrow(message);
		expect(fx.emu.log).toEqual([]);
	});

	test('a delivery to a node that holds it fails the same way', async () => {
		const hook = createWebhookTrigger({
			node: new GristWebhookTrigger(),
			parameters: { ...parameters(), ...oldCondition },
			credentials: { gristRecordsApi: credentials() },
		});
		await expect(hook.receive({ body: [{ id: 1 }] })).rejects.toThrow(message);
		expect(fx.emu.log).toEqual([]);
	});
});
