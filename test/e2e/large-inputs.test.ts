/**
 * Inputs of any size in a real n8n 2.41.1 with the packed package: an earlier node gives Get
 * Many's "Is One Of" 1,500 e-mail addresses, and Record → Get 2,000 row IDs (one per item);
 * both are read without a URL too long for Grist (431), in one POST …/records/list each.
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

const ROWS = 3000;
const email = (i: number) => `member${String(i).padStart(5, '0')}@example.com`;

const fx = useN8nDemoSite({
	credential: 'Grist records',
	seed: (emu, demo) => {
		emu.addTable(demo.docId, 'Members', [
			{ id: 'Email', type: 'Text' },
			{ id: 'Joined', type: 'Date' },
		]);
		emu.addRecords(
			demo.docId,
			'Members',
			Array.from({ length: ROWS }, (_, k) => ({
				Email: email(k + 1),
				Joined: 1_704_844_800 + k * 86_400,
			})),
		);
	},
});
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));

const base = () => ({ resource: 'record', document: byId(demo.docId), table: byId('Members') });
const membersPath = () => `/api/docs/${demo.docId}/tables/Members`;

describe('inputs of any size in a real n8n', () => {
	test('Get Many: "Is One Of" 1,500 addresses from an earlier node → one POST …/records/list', async () => {
		// 1,000 addresses the table has, 500 it has not
		const emails = [
			...Array.from({ length: 1000 }, (_, k) => email(2 * k + 1)),
			...Array.from({ length: 500 }, (_, k) => `nobody${k}@example.com`),
		];
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				{
					name: 'Set',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					parameters: { mode: 'raw', jsonOutput: JSON.stringify({ emails }) },
				},
				gristNode(
					{
						...base(),
						operation: 'getAll',
						returnAll: true,
						filterType: 'conditions',
						conditions: {
							conditions: [{ column: 'Email', match: 'anyOf', values: '={{ $json.emails }}' }],
						},
					},
					cred,
				),
			]),
		);
		expect(run.error).toBeUndefined();
		const out = run.output('Grist');
		expect(out).toHaveLength(1000);
		expect(out[0]).toEqual({ id: 1, Email: email(1), Joined: '2024-01-10' });
		expect(out[999]).toMatchObject({ id: 1999, Email: email(1999) });
		const reads = emu.log.filter((e) => e.apiPath.startsWith(membersPath()));
		expect(reads.filter((e) => !e.apiPath.endsWith('/columns')).map((e) => e.method)).toEqual([
			'POST',
		]);
		expect(reads.every((e) => e.status === 200)).toBe(true);
	});

	test('Get: 2,000 items, one row ID each → one POST …/records/list, each item its row', async () => {
		const ids = Array.from({ length: 2000 }, (_, k) => ROWS - k);
		emu.clearLog();
		const run = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource(ids.map((id) => ({ id }))),
				gristNode({ ...base(), operation: 'get', rowId: '={{ $json.id }}' }, cred),
			]),
		);
		expect(run.error).toBeUndefined();
		const out = run.items('Grist');
		expect(out).toHaveLength(2000);
		expect(out.map((i) => i.json.id)).toEqual(ids);
		expect(out.map((i) => i.json.Email)).toEqual(ids.map(email));
		expect(out.map((i) => i.pairedItem)).toEqual(ids.map((_, k) => ({ item: k })));
		const reads = emu.log.filter(
			(e) => e.apiPath.startsWith(membersPath()) && !e.apiPath.endsWith('/columns'),
		);
		expect(reads.map((e) => `${e.method} ${e.apiPath.split('/').pop()} ${e.status}`)).toEqual([
			'POST list 200',
		]);
	});
});
