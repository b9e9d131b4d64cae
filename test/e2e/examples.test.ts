/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test (runs outside n8n) */
/**
 * The example workflows of examples/ in a real n8n 2.41.1 with the packed package (test level c),
 * so that an example cannot rot: every file imports as it is (each node type and type version
 * known to this n8n, every parameter of this package's nodes one that the node has, a sticky
 * note explaining it), and the runnable ones run against the emulator with the test's
 * credential and document swapped in (and outside addresses swapped for servers of the test):
 * the webhook upsert, the nightly backup, the change notification, the instant trigger on a row
 * that starts matching, and the CSV sync. The AI agent needs a language model: it is imported
 * and checked, not run.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { DemoSite, GristEmulator } from '../emulator';
import { byId } from '../harness/builders';
import { useN8nDemoSite, type CredentialRef, type N8n, type WorkflowJson } from '../harness/e2e';
import { until } from '../harness/until';

const EXAMPLES = path.join(__dirname, '../../examples');
const PACKAGE_PREFIX = 'n8n-nodes-grist.';
/** Where the nightly backup writes in the examples, and where this test's n8n may write. */
const EXAMPLE_FILES_DIR = '/home/node/.n8n-files';
const filesDir = mkdtempSync(path.join(tmpdir(), 'grist-examples-files-'));

const fx = useN8nDemoSite({
	credential: 'Grist examples',
	// No N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: n8n 2.41 offers the tool variant without it.
	n8n: { env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir } },
	emulator: { allowedWebhookDomains: '*', webhookRetryDelaysMs: [200, 400] },
	seed: (emu, demo) => {
		emu.addTable(demo.docId, 'Contacts', [
			{ id: 'Email', type: 'Text' },
			{ id: 'Name', type: 'Text' },
			{ id: 'Company', type: 'Text' },
		]);
		emu.addTable(demo.docId, 'Products', [
			{ id: 'SKU', type: 'Text' },
			{ id: 'Name', type: 'Text' },
			{ id: 'Price', type: 'Numeric' },
		]);
		emu.addTable(demo.docId, 'Requests', [
			{ id: 'Status', type: 'Choice', widgetOptions: { choices: ['New', 'Approved'] } },
			{ id: 'Title', type: 'Text' },
			{ id: 'Amount', type: 'Numeric' },
			{ id: 'SentAt', type: 'DateTime:UTC' },
		]);
	},
});
let emu: GristEmulator;
let demo: DemoSite;
let n8n: N8n;
let cred: CredentialRef;
beforeAll(() => ({ emu, demo, n8n, cred } = fx));
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

type Json = Record<string, unknown>;
interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Json;
	credentials?: Record<string, { id: string; name: string }>;
}
type Example = WorkflowJson & { nodes: ExampleNode[] };

const files = readdirSync(EXAMPLES)
	.filter((f) => f.endsWith('.json'))
	.sort();
const load = (file: string): Example =>
	JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Example;

/** The sticky note's "Set up" paragraph: what a user does after importing the example. */
function setUpOf(wf: Example): string {
	const note = wf.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');
	const content = String(note?.parameters.content ?? '');
	return content.slice(content.indexOf('**Set up:**'));
}

/**
 * The example as the test runs it, done as its note says: this test's credential, the demo
 * document picked — which empties the Table, as the editor empties a field whose list depends on
 * the document — then the table the note names picked again (a note that names none leaves it
 * empty, and the run fails); `replace`'s strings replaced in every parameter (the addresses and
 * folders the note asks for), a name of its own.
 */
function swapped(file: string, replace: Record<string, string> = {}): WorkflowJson {
	let text = readFileSync(path.join(EXAMPLES, file), 'utf8');
	for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
	const wf = JSON.parse(text) as Example;
	const setUp = setUpOf(wf);
	const named = /then the table `([^`]+)`/.exec(setUp)?.[1];
	const preset = /then the table, /.test(setUp);
	for (const node of wf.nodes) {
		node.id = randomUUID();
		if (!node.type.startsWith(PACKAGE_PREFIX)) continue;
		node.credentials = { gristRecordsApi: cred };
		if (!node.parameters.document) continue;
		const presetTable = (node.parameters.table as { value?: string } | undefined)?.value;
		node.parameters.document = byId(demo.docId);
		if (node.parameters.table === undefined) continue;
		// a note that says "then the table" without a name: the user's own table (the preset here)
		const table = named ?? (preset ? presetTable : undefined);
		node.parameters.table = table ? byId(table) : { __rl: true, mode: 'list', value: '' };
	}
	return { ...wf, name: `${wf.name} (test ${Date.now()})` };
}

/** A server on 127.0.0.1 that records what is POSTed to it and answers `reply`. */
async function receiver(
	reply: (url: string) => { type: string; body: string } = () => ({
		type: 'application/json',
		body: '{"ok":true}',
	}),
): Promise<{ url: string; received: Array<{ url: string; body: string }>; server: Server }> {
	const received: Array<{ url: string; body: string }> = [];
	const server = createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString()));
		req.on('end', () => {
			received.push({ url: req.url ?? '', body });
			const r = reply(req.url ?? '');
			res.writeHead(200, { 'content-type': r.type });
			res.end(r.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

/** The demo site's REST API as a user of Grist (writes that fire webhooks). */
async function gristApi(method: string, apiPath: string, body?: unknown): Promise<Json> {
	const res = await fetch(`${emu.url}/o/${demo.orgDomain}${apiPath}`, {
		method,
		headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(res.status).toBe(200);
	return (await res.json()) as Json;
}

describe('every example imports into n8n as it is', () => {
	let types: Array<{ name: string; version: number | number[]; properties: Json[] }>;
	beforeAll(async () => {
		const res = await fetch(`${n8n.baseUrl}/types/nodes.json`, {
			headers: { cookie: n8n.sessionCookie() },
		});
		types = (await res.json()) as typeof types;
	});

	it('has at least six examples, the Grist tool offered without N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE', () => {
		expect(files.length).toBeGreaterThanOrEqual(6);
		expect(types.map((t) => t.name)).toContain('n8n-nodes-grist.gristTool');
	});

	it.each(files)('%s', async (file) => {
		const wf = load(file);
		// a sticky note that explains it
		const notes = wf.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
		expect(notes).toHaveLength(1);
		expect(String(notes[0].parameters.content)).toMatch(/^## .+\n\n[\s\S]*\*\*Set up:\*\*/);
		// every node type and version known to this n8n
		for (const node of wf.nodes) {
			const versions = types
				.filter((t) => t.name === node.type)
				.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version]));
			expect({
				node: node.name,
				type: node.type,
				known: versions.includes(node.typeVersion),
			}).toEqual({ node: node.name, type: node.type, known: true });
		}
		// this package's nodes: each parameter is one the node has, each fixed option one it offers
		for (const node of wf.nodes.filter((n) => n.type.startsWith(PACKAGE_PREFIX))) {
			const description = types.find((t) => t.name === node.type)!;
			const isTrigger = /Trigger$/.test(node.type);
			for (const [key, value] of Object.entries(node.parameters)) {
				if (isTrigger && key === 'pollTimes') continue; // n8n adds it to polling triggers
				const props = description.properties.filter((p) => p.name === key);
				expect({ node: node.name, parameter: key, known: props.length > 0 }).toEqual({
					node: node.name,
					parameter: key,
					known: true,
				});
				const options = props.flatMap((p) =>
					p.type === 'options' ? ((p.options as Array<{ value: unknown }>) ?? []) : [],
				);
				if (options.length && typeof value === 'string' && !value.startsWith('=')) {
					expect({ node: node.name, parameter: key, value }).toEqual({
						node: node.name,
						parameter: key,
						value: options.map((o) => o.value).find((v) => v === value),
					});
				}
			}
		}
		// connections name nodes of the workflow
		const names = new Set(wf.nodes.map((n) => n.name));
		for (const [from, outputs] of Object.entries(wf.connections)) {
			expect(names.has(from)).toBe(true);
			for (const list of Object.values(outputs))
				for (const conns of list) for (const c of conns) expect(names.has(c.node)).toBe(true);
		}
		// n8n stores it as it is
		const id = await n8n.createWorkflow(wf);
		const stored = await n8n.rest<{ nodes: ExampleNode[] }>('GET', `/workflows/${id}`);
		expect(stored.nodes.map((n) => [n.name, n.type, n.typeVersion])).toEqual(
			wf.nodes.map((n) => [n.name, n.type, n.typeVersion]),
		);
	});
});

describe('the runnable examples run against the emulator', () => {
	it('webhook-upsert-contact: a form POST adds the contact, a second one updates it (test URL)', async () => {
		const id = await n8n.createWorkflow(swapped('webhook-upsert-contact.json'));
		/** What the editor's "Listen for test event" does, then the form's POST to the test URL. */
		const post = async (body: Json) => {
			const workflowData = await n8n.rest<Json>('GET', `/workflows/${id}`);
			const started = await n8n.rest<{ waitingForWebhook?: boolean }>(
				'POST',
				`/workflows/${id}/run`,
				{ workflowData, triggerToStartFrom: { name: 'Form submission' } },
			);
			expect(started.waitingForWebhook).toBe(true);
			const res = await fetch(`${n8n.baseUrl}/webhook-test/grist-contact`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			const text = await res.text();
			expect({ status: res.status, text }).toEqual({ status: 200, text: expect.any(String) });
			return JSON.parse(text) as Json;
		};
		const first = await post({ email: ' Ada@Example.com', name: 'Ada', company: 'Engines' });
		expect(first).toMatchObject({ Email: 'ada@example.com', Name: 'Ada', Company: 'Engines' });
		await post({ email: 'ada@example.com', name: 'Ada Lovelace' });
		expect(emu.records(demo.docId, 'Contacts').map((r) => r.fields)).toEqual([
			{ Email: 'ada@example.com', Name: 'Ada Lovelace', Company: '' },
		]);
	});

	it('nightly-backup: the .grist file and every attachment written to disk', async () => {
		// the folder the sticky note asks for, made once
		mkdirSync(path.join(filesDir, 'grist-backups'));
		const run = await n8n.runWorkflow(
			swapped('nightly-backup.json', { [EXAMPLE_FILES_DIR]: filesDir }),
			{ triggerNode: 'Every night' },
		);
		expect(run.error).toBeUndefined();
		const folder = path.join(filesDir, 'grist-backups');
		const written = readdirSync(folder);
		const backup = written.find((f) => f.endsWith('.grist'));
		expect(backup).toBeDefined();
		expect(readFileSync(path.join(folder, backup!)).subarray(0, 15).toString()).toBe(
			'SQLite format 3',
		);
		const attachments = written.filter((f) => f.includes('-attachment-'));
		expect(attachments).toHaveLength(run.output('List attachments').length);
		const [first] = run.output('List attachments');
		const file = attachments.find((f) => f.includes(`-attachment-${String(first.id)}-`))!;
		expect(readFileSync(path.join(folder, file))).toEqual(
			emu.attachmentData(demo.docId, Number(first.id)),
		);
	});

	it('changes-notify: Fetch test event on each trigger sends the latest update (with its previous values) and the latest deletion as chat messages', async () => {
		const chat = await receiver();
		try {
			const wf = swapped('changes-notify.json', {
				'https://hooks.example.com/services/REPLACE/WITH/YOURS': `${chat.url}/hook`,
			});
			const orders = `/api/docs/${demo.docId}/tables/Orders/records`;
			// The emulator keeps a document's history from the first time it is asked for it
			// (test/emulator/history.ts); a real Grist keeps it from the document's creation.
			await gristApi('GET', `/api/docs/${demo.docId}/states`);
			const added = (await gristApi('POST', orders, {
				records: [{ fields: { Amount: 10, Status: 'New' } }, { fields: { Amount: 99 } }],
			})) as { records: Array<{ id: number }> };
			const [kept, gone] = added.records.map((r) => r.id);
			await gristApi('PATCH', orders, {
				records: [{ id: kept, fields: { Amount: 12, Status: 'Paid' } }],
			});
			await gristApi('POST', `${orders}/delete`, [gone]);
			for (const trigger of ['Row updated', 'Row deleted']) {
				const run = await n8n.runWorkflow(wf, { triggerNode: trigger });
				expect(run.error).toBeUndefined();
				expect(run.output('Notify')).toHaveLength(1);
			}
			expect(chat.received.map((r) => [r.url, (JSON.parse(r.body) as Json).text])).toEqual([
				['/hook', `Row ${kept} changed: Amount: 10 → 12, Status: "New" → "Paid", Total: 20 → 24`],
				['/hook', expect.stringMatching(new RegExp(`^Row ${gone} was deleted: \\{.*"Amount":99`))],
			]);
		} finally {
			chat.server.close();
		}
	});

	it('approved-row-instant: only a row that becomes Approved calls billing and gets SentAt', async () => {
		const billing = await receiver();
		const id = await n8n.createWorkflow(
			swapped('approved-row-instant.json', {
				'https://billing.example.com/api/requests': `${billing.url}/requests`,
			}),
		);
		await n8n.activate(id);
		try {
			await until(
				'the trigger registered its webhook in Grist',
				async () =>
					((await gristApi('GET', `/api/docs/${demo.docId}/webhooks`)).webhooks as unknown[])
						.length > 0,
				{ timeoutMs: 30_000, intervalMs: 250 },
			);
			const added = (await gristApi('POST', `/api/docs/${demo.docId}/tables/Requests/records`, {
				records: [
					{ fields: { Status: 'New', Title: 'Chairs', Amount: 120 } },
					{ fields: { Status: 'New', Title: 'Desk', Amount: 300 } },
				],
			})) as { records: Array<{ id: number }> };
			const [chairs] = added.records.map((r) => r.id);
			await gristApi('PATCH', `/api/docs/${demo.docId}/tables/Requests/records`, {
				records: [{ id: chairs, fields: { Status: 'Approved' } }],
			});
			await until('billing was called', async () => billing.received.length > 0, {
				timeoutMs: 30_000,
			});
			await until(
				'SentAt written back',
				async () =>
					Boolean(emu.records(demo.docId, 'Requests').find((r) => r.id === chairs)?.fields.SentAt),
				{ timeoutMs: 30_000 },
			);
			expect(billing.received.map((r) => JSON.parse(r.body) as Json)).toEqual([
				{ id: chairs, title: 'Chairs', amount: 120 },
			]);
		} finally {
			await n8n.deactivate(id);
			billing.server.close();
		}
	}, 90_000);

	it('csv-sync-upsert: the CSV rows added, then changed rows updated and new ones added', async () => {
		let csv = 'SKU,Name,Price\nA-1,Chair,49.90\nA-2,Desk,199\n';
		const shop = await receiver(() => ({ type: 'text/csv', body: csv }));
		try {
			const wf = swapped('csv-sync-upsert.json', {
				'https://example.com/exports/products.csv': `${shop.url}/products.csv`,
			});
			let run = await n8n.runWorkflow(wf, { triggerNode: 'Every hour' });
			expect(run.error).toBeUndefined();
			csv = 'SKU,Name,Price\nA-1,Chair,44.90\nA-3,Lamp,25\n';
			run = await n8n.runWorkflow(wf, { triggerNode: 'Every hour' });
			expect(run.error).toBeUndefined();
			expect(emu.records(demo.docId, 'Products').map((r) => r.fields)).toEqual([
				{ SKU: 'A-1', Name: 'Chair', Price: 44.9 },
				{ SKU: 'A-2', Name: 'Desk', Price: 199 },
				{ SKU: 'A-3', Name: 'Lamp', Price: 25 },
			]);
		} finally {
			shop.server.close();
		}
	});

	it('the files the nightly backup wrote are inside the folder n8n may write to', () => {
		expect(existsSync(path.join(filesDir, 'grist-backups'))).toBe(true);
	});
});
