/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test: opens the backup with the sqlite3 CLI */
/**
 * Real n8n 2.41.1 with the packed package (test level c): one workflow copies a template
 * document, imports a CSV (made in the workflow) as a new document, backs that document up into a
 * binary .grist file, moves it to the trash and restores it, and lists the template's webhooks
 * with their delivery health. The backup opens with sqlite3. A second workflow applies user
 * actions, creates, disables and deletes a webhook, clears the queue, and trashes and restores a
 * workspace. A third forks a document, changes the fork, compares it with its trunk, promotes it
 * with Replace Content and compares again.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { DemoSite, GristEmulator } from '../emulator';
import { byId } from '../harness/builders';
import { fileSource, gristNode, manualWorkflow, useN8nDemoSite, type N8n } from '../harness/e2e';
import { waitFor } from '../harness/until';

const fx = useN8nDemoSite({
	emulator: { allowedWebhookDomains: '*', webhookRetryDelaysMs: [60_000] },
});
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
beforeAll(() => ({ emu, demo, n8n } = fx));

async function api(method: string, p: string, body?: unknown) {
	const res = await fetch(`${emu.url}${p}`, {
		method,
		headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await res.json()) as unknown;
}

test('copy a template, import a CSV, back it up as SQLite, trash and restore it, list webhook health', async () => {
	// a webhook of the template whose receiver is down: its health shows the failure
	const created = (await api('POST', `/api/docs/${demo.docId}/webhooks`, {
		webhooks: [
			{
				fields: {
					url: 'http://127.0.0.1:9/down',
					eventTypes: ['add'],
					tableId: 'Customers',
					name: 'CRM sync',
				},
			},
		],
	})) as { webhooks: Array<{ id: string }> };
	const webhookId = created.webhooks[0].id;
	await api('POST', `/api/docs/${demo.docId}/tables/Customers/records`, {
		records: [{ fields: { Name: 'Trigger a delivery' } }],
	});
	// the listing's health, as a real Grist gives it too (GET /webhooks)
	const status = async () =>
		(
			(await api('GET', `/api/docs/${demo.docId}/webhooks`)) as {
				webhooks: Array<{ usage: { status: string } | null }>;
			}
		).webhooks[0]?.usage?.status;
	await waitFor(
		"the webhook's listing says its failed delivery is retrying",
		status,
		(s) => s === 'retrying',
		{ timeoutMs: 10_000, intervalMs: 50 },
	);

	const cred = await n8n.createCredential({
		name: 'Grist lifecycle',
		type: 'gristRecordsApi',
		data: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
	});
	const csv = 'Client,Amount,Paid\nAcme,12.5,true\nBeta,7,false\n';
	const wf = manualWorkflow([
		gristNode(
			{
				resource: 'document',
				operation: 'copy',
				document: byId(demo.docId),
				destinationWorkspace: byId(demo.workspace2Id),
				name: 'CRM – client A',
				copyMode: 'template',
			},
			cred,
			{ name: 'Copy' },
		),
		...fileSource(Buffer.from(csv), 'invoices.csv', 'text/csv'),
		gristNode(
			{
				resource: 'document',
				operation: 'importFile',
				workspace: byId(demo.workspace2Id),
				binaryPropertyName: 'data',
				documentName: 'Invoices',
			},
			cred,
			{ name: 'Import' },
		),
		gristNode(
			{
				resource: 'document',
				operation: 'downloadBackup',
				document: byId('={{ $json.id }}'),
				binaryPropertyName: 'backup',
				options: { nohistory: true },
			},
			cred,
			{ name: 'Backup' },
		),
		gristNode(
			{
				resource: 'document',
				operation: 'moveToTrash',
				document: byId("={{ $('Import').item.json.id }}"),
			},
			cred,
			{ name: 'Trash' },
		),
		gristNode(
			{
				resource: 'document',
				operation: 'restore',
				document: byId('={{ $json.id }}'),
			},
			cred,
			{ name: 'Restore' },
		),
		gristNode(
			{
				resource: 'webhook',
				operation: 'getAll',
				document: byId(demo.docId),
				returnAll: true,
			},
			cred,
			{ name: 'Webhooks' },
		),
	]);
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const [copy] = run.output('Copy') as Array<{ id: string; name: string }>;
	expect(copy.name).toBe('CRM – client A');
	expect(emu.records(copy.id, 'Customers')).toEqual([]);

	const [imported] = run.output('Import') as Array<{ id: string; name: string; url: string }>;
	expect(imported).toMatchObject({ name: 'Invoices', fileName: 'invoices.csv' });
	expect(imported.url).toBe(`${emu.url}/o/${demo.orgDomain}/doc/${imported.id}`);
	expect(emu.records(imported.id, 'Invoices').map((r) => r.fields)).toEqual([
		{ Client: 'Acme', Amount: 12.5, Paid: true },
		{ Client: 'Beta', Amount: 7, Paid: false },
	]);

	expect(run.output('Backup')).toEqual([
		expect.objectContaining({
			documentId: imported.id,
			fileName: 'Invoices.grist',
			mimeType: 'application/x-sqlite3',
		}),
	]);
	const backup = await run.binary('Backup', 0, 'backup');
	const file = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-backup-')), 'invoices.grist');
	writeFileSync(file, backup);
	expect(
		execFileSync('sqlite3', [file, 'select Client, Amount from Invoices order by id'])
			.toString()
			.trim(),
	).toBe('Acme|12.5\nBeta|7');

	expect(run.output('Trash')).toEqual([{ id: imported.id, inTrash: true }]);
	expect(run.output('Restore')).toEqual([
		expect.objectContaining({ id: imported.id, name: 'Invoices' }),
	]);
	// restored: readable again on the doc worker
	expect(emu.records(imported.id, 'Invoices')).toHaveLength(2);
	const logged = emu.log.map((e) => `${e.method} ${e.apiPath}`);
	expect(logged).toContain(`POST /api/docs/${imported.id}/remove`);
	expect(logged).toContain(`POST /api/docs/${imported.id}/unremove`);

	const hooks = run.output('Webhooks');
	expect(hooks).toHaveLength(1);
	expect(hooks[0]).toMatchObject({
		id: webhookId,
		name: 'CRM sync',
		tableId: 'Customers',
		event: 'add',
		status: 'retrying',
		waiting: 1,
		failing: true,
	});
	expect(typeof hooks[0].lastErrorMessage).toBe('string');
});

test('apply user actions, create, update and delete a webhook, clear the queue, trash and restore a workspace', async () => {
	const cred = await n8n.createCredential({
		name: 'Grist housekeeping',
		type: 'gristRecordsApi',
		data: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
	});
	const doc = byId(demo.doc2Id);
	const ws = emu.addWorkspace(demo.orgId, 'Archive 2023');
	emu.addDoc(ws.id, { name: 'Old report' });
	const hookId = "={{ $('Create Webhook').first().json.id }}";
	const wf = manualWorkflow([
		gristNode(
			{
				resource: 'document',
				operation: 'applyActions',
				document: doc,
				userActions:
					'[["AddTable", "Notes", [{"id": "Text", "type": "Text"}]], ["AddRecord", "Notes", null, {"Text": "hi"}]]',
			},
			cred,
			{ name: 'Apply' },
		),
		gristNode(
			{
				resource: 'webhook',
				operation: 'create',
				document: doc,
				table: byId('Tasks'),
				url: 'http://127.0.0.1:9/down',
				event: 'add',
				filterType: 'formula',
				filterFormula: '$Title != ""',
				options: { name: 'Nightly', authorization: 'Bearer e2e-s3cret' },
			},
			cred,
			{ name: 'Create Webhook' },
		),
		gristNode(
			{
				resource: 'webhook',
				operation: 'update',
				document: doc,
				webhookId: hookId,
				updateFields: { enabled: false, watchedColumns: 'Title' },
			},
			cred,
			{ name: 'Disable Webhook' },
		),
		gristNode({ resource: 'webhook', operation: 'clearQueue', document: doc }, cred, {
			name: 'Clear Queue',
		}),
		gristNode(
			{ resource: 'webhook', operation: 'delete', document: doc, webhookId: hookId },
			cred,
			{
				name: 'Delete Webhook',
			},
		),
		gristNode({ resource: 'workspace', operation: 'moveToTrash', workspace: byId(ws.id) }, cred, {
			name: 'Trash Workspace',
		}),
		gristNode({ resource: 'workspace', operation: 'restore', workspace: byId(ws.id) }, cred, {
			name: 'Restore Workspace',
		}),
	]);
	for (const node of wf.nodes) (node as unknown as { executeOnce: boolean }).executeOnce = true;
	emu.clearLog();
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	expect(run.output('Apply')).toEqual([
		expect.objectContaining({ documentId: demo.doc2Id, retValues: expect.any(Array) }),
	]);
	expect(emu.records(demo.doc2Id, 'Notes').map((r) => r.fields)).toEqual([{ Text: 'hi' }]);

	const [created] = run.output('Create Webhook');
	expect(created).toMatchObject({
		name: 'Nightly',
		tableId: 'Tasks',
		event: 'add',
		enabled: true,
		hasAuthorization: true,
	});
	// Filter (a formula) went to Grist as the webhook's condition
	const posted = emu.log.find(
		(e) => e.method === 'POST' && e.apiPath === `/api/docs/${demo.doc2Id}/webhooks`,
	);
	const sent = (posted?.body as { webhooks: Array<{ fields: Record<string, unknown> }> }).webhooks;
	expect(JSON.parse(String(sent[0].fields.condition))).toEqual({
		config: { customExpression: '$Title != ""' },
	});
	expect(sent[0].fields.eventTypes).toEqual(['add']);
	expect(run.output('Disable Webhook')).toEqual([
		expect.objectContaining({ id: created.id, enabled: false, watchedColumns: ['Title'] }),
	]);
	expect(run.output('Clear Queue')).toEqual([{ documentId: demo.doc2Id, queueCleared: true }]);
	expect(run.output('Delete Webhook')).toEqual([{ id: created.id, deleted: true }]);
	expect(await api('GET', `/api/docs/${demo.doc2Id}/webhooks`)).toEqual({ webhooks: [] });
	// the secret went to Grist, never into n8n's output
	expect(JSON.stringify(run.items('Create Webhook'))).not.toContain('e2e-s3cret');
	expect(JSON.stringify(run.items('Disable Webhook'))).not.toContain('e2e-s3cret');

	expect(run.output('Trash Workspace')).toEqual([{ id: ws.id, inTrash: true }]);
	expect(run.output('Restore Workspace')).toEqual([
		expect.objectContaining({ id: ws.id, name: ws.name }), // a real Grist's carries the run's prefix
	]);
	const logged = emu.log.map((e) => `${e.method} ${e.apiPath}`);
	expect(logged).toContain(`POST /api/workspaces/${ws.id}/remove`);
	expect(logged).toContain(`POST /api/workspaces/${ws.id}/unremove`);
});

test('fork a document, change the fork, compare, promote it with Replace Content, compare again', async () => {
	const cred = await n8n.createCredential({
		name: 'Grist forks',
		type: 'gristRecordsApi',
		data: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
	});
	const docId = emu.addDoc(demo.workspaceId, { name: 'Price list' }).id;
	emu.addTable(docId, 'Items', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Price', type: 'Numeric' },
	]);
	emu.addRecords(docId, 'Items', [
		{ Name: 'Tea', Price: 3 },
		{ Name: 'Cake', Price: 4 },
	]);
	const fork = "={{ $('Fork').first().json.docId }}";
	const wf = manualWorkflow([
		gristNode({ resource: 'document', operation: 'fork', document: byId(docId) }, cred, {
			name: 'Fork',
		}),
		gristNode(
			{
				resource: 'document',
				operation: 'applyActions',
				document: byId(fork),
				userActions: '[["UpdateRecord", "Items", 1, {"Price": 3.5}], ["RemoveRecord", "Items", 2]]',
			},
			cred,
			{ name: 'Change Fork' },
		),
		gristNode(
			{
				resource: 'document',
				operation: 'compare',
				document: byId(docId),
				otherDocument: byId(fork),
			},
			cred,
			{ name: 'Compare' },
		),
		gristNode(
			{
				resource: 'document',
				operation: 'replaceContent',
				document: byId(docId),
				sourceDocument: byId(fork),
			},
			cred,
			{ name: 'Promote' },
		),
		gristNode(
			{
				resource: 'document',
				operation: 'compare',
				document: byId(docId),
				otherDocument: byId(fork),
				output: 'summary',
			},
			cred,
			{ name: 'Compare Again' },
		),
	]);
	const run = await n8n.runWorkflow(wf);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const [forked] = run.output('Fork') as Array<{ docId: string; trunkId: string; url: string }>;
	expect(forked.trunkId).toBe(docId);
	expect(forked.docId.startsWith(`${docId}~`)).toBe(true);
	const [compared] = run.output('Compare') as Array<{ summary: string; tables: unknown[] }>;
	expect(compared.summary).toBe('right');
	expect(compared.tables).toEqual([
		expect.objectContaining({
			side: 'right',
			tableId: 'Items',
			updatedRows: 1,
			deletedRows: 1,
			rows: [
				{
					change: 'updated',
					id: 1,
					values: { Price: 3.5 },
					previous: { Price: 3 },
					changedColumns: ['Price'],
				},
				{ change: 'deleted', id: 2, values: { Name: 'Cake', Price: 4 } },
			],
		}),
	]);
	expect(run.output('Promote')).toEqual([{ docId, replaced: true, sourceDocId: forked.docId }]);
	expect(run.output('Compare Again')).toEqual([
		expect.objectContaining({ docId, otherDocId: forked.docId, summary: 'same' }),
	]);
	expect(emu.records(docId, 'Items').map((r) => r.fields)).toEqual([{ Name: 'Tea', Price: 3.5 }]);
});
