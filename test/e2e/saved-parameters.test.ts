/**
 * Workflows saved in an earlier shape of the nodes, imported into a real n8n 2.41.1 with the
 * packed package (n8n drops what a node does not declare before the node runs): a Get Many with
 * the old filter builder fails naming it instead of returning every row; the same node saved
 * today runs with its filter. Against the emulator. (The triggers' refusals at activation are
 * tested in-process: test/inprocess/saved-parameters.test.ts.)
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { byId } from '../harness/builders';
import {
	gristNode,
	manualWorkflow,
	useN8nDemoSite,
	type CredentialRef,
	type N8n,
} from '../harness/e2e';

const fx = useN8nDemoSite({ credential: 'Grist records' });
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));

const orders = () => ({ document: byId(demo.docId), table: byId('Orders') });
const oldConditions = { conditions: [{ column: 'Status', match: 'anyOf', values: 'Paid' }] };

test('Get Many saved with the old filter builder fails naming it, and reads nothing', async () => {
	emu.clearLog();
	const run = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'record',
					operation: 'getAll',
					...orders(),
					filterType: 'builder',
					filters: oldConditions,
				},
				cred,
			),
		]),
	);
	expect(run.status).toBe('error');
	expect(run.error?.message).toBe(
		'This node was saved in a shape its version does not run: it holds filters, which this version of the node no longer reads (left from an earlier shape of the node); Filter (filterType) is "builder", which is not one of its options (None, Conditions, JSON)',
	);
	expect(emu.log.filter((e) => e.apiPath.startsWith('/api/docs'))).toEqual([]);
	// the same node saved today runs, with its filter
	const today = await n8n.runWorkflow(
		manualWorkflow([
			gristNode(
				{
					resource: 'record',
					operation: 'getAll',
					...orders(),
					returnAll: true,
					filterType: 'conditions',
					conditions: oldConditions,
				},
				cred,
			),
		]),
	);
	expect(today.status).toBe('success');
	const statuses = today.output('Grist').map((j) => j.Status);
	expect(statuses.length).toBeGreaterThan(0);
	expect(new Set(statuses)).toEqual(new Set(['Paid']));
}, 120_000);
