/* eslint-disable @n8n/community-nodes/no-restricted-imports -- compatibility test: loopback servers */
/**
 * The compatibility smoke set: the packed package in a real n8n of one line (the e2e harness with
 * `line`), against the Grist emulator. Each line's test file calls `smokeSuite(line)`, so n8n
 * 1.123.x and 2.x run the same checks and must give the same answers: the package loads; the
 * credential test (good key, wrong key, not Grist, malformed Server URL) says the same words;
 * record create + get many; the table picker and the column mapper; one poll of the Grist
 * Trigger; the Grist Instant Trigger's activate / deliver / deactivate.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	INVALID_URL_MESSAGE,
	KEY_MESSAGE,
	NOT_GRIST_MESSAGE,
	NO_TEAM_MESSAGE,
} from '../../credentials/GristRecordsApi.credentials';
import { client } from '../emulator/testutil';
import { autoMap, byId, docTable } from '../harness/builders';
import {
	GRIST_NODE_TYPE,
	chainWorkflow,
	gristNode,
	gristTriggerNode,
	manualWorkflow,
	rowsSource,
	useN8nTeamDoc,
	type N8n,
	type RuntimeLine,
} from '../harness/e2e';
import { until } from '../harness/until';

/** Starts a loopback server that answers every path with `status` and an HTML page. */
async function htmlServer(status: number): Promise<{ server: Server; url: string }> {
	const server = createServer((_req, res) => {
		res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
		res.end('<!DOCTYPE html><html><head><title>Welcome</title></head><body></body></html>');
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export function smokeSuite(line: RuntimeLine): void {
	jest.setTimeout(120_000);
	const apiKey = `key-${randomUUID()}`;
	const webhookId = randomUUID();
	const fx = useN8nTeamDoc({
		apiKey,
		docName: 'Compat doc',
		credential: 'Grist',
		emulator: { allowedWebhookDomains: '*', webhookRetryDelaysMs: [200, 400] },
		n8n: { line },
		seed: (emu, docId) =>
			emu.addTable(docId, 'Tasks', [
				{ id: 'Name', type: 'Text' },
				{ id: 'Due', type: 'Date' },
			]),
	});
	let n8n: N8n;
	const servers: Server[] = [];
	afterAll(async () => {
		for (const s of servers) await new Promise((r) => s.close(r));
	});
	beforeAll(() => ({ n8n } = fx));

	const base = () => ({ resource: 'record', ...docTable(fx.docId, 'Tasks') });
	/** The node's parameters as the editor sends them to a picker (defaults included). */
	const editorParameters = (more: Record<string, unknown>) => ({
		authentication: 'apiKey',
		resource: 'record',
		operation: 'create',
		...more,
	});

	test(`n8n ${line.n8nVersion} on Node ${line.nodeMajor} runs, with the package's node types and credential`, async () => {
		const version = await fetch(`${n8n.baseUrl}/rest/settings`, {
			headers: { cookie: n8n.sessionCookie() },
		});
		expect(((await version.json()) as { data: { versionCli: string } }).data.versionCli).toBe(
			line.n8nVersion,
		);
		expect(await n8n.nodeTypes()).toEqual(
			expect.arrayContaining([
				GRIST_NODE_TYPE,
				'n8n-nodes-grist.gristTrigger',
				'n8n-nodes-grist.gristWebhookTrigger',
			]),
		);
		expect(await n8n.credentialTypes()).toContain('gristRecordsApi');
	});

	describe('the credential test says the same on every line', () => {
		const testWith = async (name: string, data: { apiKey: string; url: string }) => {
			const cred = await n8n.createCredential({ name, type: 'gristRecordsApi', data });
			return await n8n.testCredential(cred.id);
		};

		test('a good key passes', async () => {
			expect(await testWith('good', { apiKey, url: `${fx.emu.url}/o/team` })).toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
		});

		test('a self-hosted Server URL without /o/<team> says to add it', async () => {
			expect(await testWith('no team', { apiKey, url: fx.emu.url })).toEqual({
				status: 'Error',
				message: NO_TEAM_MESSAGE,
			});
		});

		test('a wrong key gets our message, not n8n\'s "Authorization failed"', async () => {
			expect(await testWith('wrong key', { apiKey: 'not-a-key', url: fx.emu.url })).toEqual({
				status: 'Error',
				message: KEY_MESSAGE,
			});
		});

		test.each([200, 404])(
			'a web server that is not Grist (HTML %i) gets our message',
			async (s) => {
				const { server, url } = await htmlServer(s);
				servers.push(server);
				expect(await testWith(`html ${s}`, { apiKey, url })).toEqual({
					status: 'Error',
					message: NOT_GRIST_MESSAGE,
				});
			},
		);

		test('a malformed Server URL says what to change (not "Method not allowed"), and nothing is sent', async () => {
			fx.emu.clearLog();
			expect(await testWith('malformed', { apiKey, url: 'ftp://grist.example.com' })).toEqual({
				status: 'Error',
				message: INVALID_URL_MESSAGE,
			});
			expect(fx.emu.log).toHaveLength(0);
		});
	});

	test('record create, then get many', async () => {
		const created = await n8n.runWorkflow(
			manualWorkflow([
				...rowsSource([
					{ Name: 'alpha', Due: '2024-01-10' },
					{ Name: 'beta', Due: '2024-02-01' },
				]),
				gristNode({ ...base(), operation: 'create', columns: autoMap() }, fx.cred),
			]),
		);
		expect(created.error).toBeUndefined();
		expect(created.output('Grist').map((r) => r.Name)).toEqual(['alpha', 'beta']);
		const read = await n8n.runWorkflow(
			manualWorkflow([gristNode({ ...base(), operation: 'getAll', returnAll: true }, fx.cred)]),
		);
		expect(read.status).toBe('success');
		expect(read.output('Grist').map((r) => [r.Name, r.Due])).toEqual([
			['alpha', '2024-01-10'],
			['beta', '2024-02-01'],
		]);
	});

	test('the table picker and the column mapper answer through n8n', async () => {
		const request = {
			nodeTypeAndVersion: { name: GRIST_NODE_TYPE, version: 1 },
			credentials: { gristRecordsApi: fx.cred },
		};
		const tables = await n8n.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				...request,
				path: 'parameters.table',
				methodName: 'searchTables',
				filter: 'task',
				currentNodeParameters: editorParameters({ document: byId(fx.docId) }),
			},
		);
		expect(tables.results.map((t) => t.value)).toEqual(['Tasks']);
		const fields = await n8n.rest<{ fields: Array<{ id: string; type: string }> }>(
			'POST',
			'/dynamic-node-parameters/resource-mapper-fields',
			{
				...request,
				path: 'parameters.columns',
				methodName: 'getMappingColumns',
				currentNodeParameters: editorParameters(docTable(fx.docId, 'Tasks')),
			},
		);
		expect(fields.fields.map((f) => [f.id, f.type])).toEqual([
			['Name', 'string'],
			['Due', 'dateTime'],
		]);
	});

	test('one poll of the Grist Trigger ("Fetch test event") returns the latest record', async () => {
		const run = await n8n.runWorkflow(
			chainWorkflow([
				gristTriggerNode({ ...docTable(fx.docId, 'Tasks'), event: 'rowAdded' }, fx.cred),
			]),
			{ triggerNode: 'Grist Trigger' },
		);
		expect(run.status).toBe('success');
		expect(run.output('Grist Trigger').map((r) => r.Name)).toEqual(['beta']);
	});

	test('the Grist Instant Trigger: activate registers a webhook, a new row starts the workflow, deactivate removes it', async () => {
		const api = client(fx.emu, apiKey);
		const hooks = async () =>
			(
				await api.get<{ webhooks: Array<{ fields: { url: string } }> }>(
					`/api/docs/${fx.docId}/webhooks`,
				)
			).json.webhooks.map((h) => h.fields.url);
		const wf = chainWorkflow([
			{
				name: 'Grist Instant Trigger',
				type: 'n8n-nodes-grist.gristWebhookTrigger',
				parameters: { ...docTable(fx.docId, 'Tasks'), event: 'addOrUpdate' },
				credentials: { gristRecordsApi: fx.cred },
			},
		]);
		(wf.nodes[0] as unknown as { webhookId: string }).webhookId = webhookId;
		const id = await n8n.createWorkflow(wf);
		await n8n.activate(id);
		await until(
			'the trigger registered a webhook in Grist',
			async () => (await hooks()).length > 0,
		);
		expect(await hooks()).toEqual([`${n8n.baseUrl}/webhook/${webhookId}/webhook`]);

		// through the API: Grist's webhooks fire on document actions, not on the emulator's seeding
		const posted = await api.post<{ records: Array<{ id: number }> }>(
			`/api/docs/${fx.docId}/tables/Tasks/records`,
			{ records: [{ fields: { Name: 'gamma' } }] },
		);
		const added = posted.json.records[0].id;
		const runs = await n8n.waitForExecutions(id, 1);
		expect(runs[0].status).toBe('success');
		expect(runs[0].output('Grist Instant Trigger')).toEqual([
			// As Sent by Grist on Row Added or Updated: Grist's delivery does not say which
			{ id: added, Name: 'gamma', Due: null, _change: { type: 'addedOrUpdated' } },
		]);

		await n8n.deactivate(id);
		await until(
			'deactivation removed the webhook from Grist',
			async () => (await hooks()).length === 0,
		);
		expect(await hooks()).toEqual([]);
	});
}
