/**
 * Document → Fork, Compare, Replace Content, Get / Delete Snapshots, Get Proposals, Apply
 * Proposal, and their pickers, run through n8n-core against the emulator (or a real Grist with
 * `npm run test:real`).
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { loadOptions } from '../harness/inprocess';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.path}`);
const run = resourceRunner(fx, 'document');

/** A request straight to Grist (not through the node), as the demo owner unless `key`. */
async function grist<T = unknown>(method: string, path: string, body?: unknown, key?: string) {
	const res = await fetch(`${emu.url}${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${key ?? demo.apiKey}`,
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, json: (await res.json()) as T };
}

/** A fresh document with table Items (Name Text, Qty Numeric) holding `names`. */
function itemsDoc(name: string, names: string[]): string {
	const docId = emu.addDoc(demo.workspaceId, { name }).id;
	emu.addTable(docId, 'Items', [
		{ id: 'Name', type: 'Text' },
		{ id: 'Qty', type: 'Numeric' },
	]);
	emu.addRecords(
		docId,
		'Items',
		names.map((n, i) => ({ Name: n, Qty: i + 1 })),
	);
	return docId;
}

async function itemNames(docId: string): Promise<unknown[]> {
	const res = await grist<{ records: Array<{ fields: { Name: unknown } }> }>(
		'GET',
		`/api/docs/${docId}/tables/Items/records`,
	);
	return res.json.records.map((r) => r.fields.Name);
}

async function forkOf(docId: string): Promise<string> {
	const { items, error } = await run({ operation: 'fork', document: rl('id', docId) });
	expect(error).toBeUndefined();
	return String(items[0].json.docId);
}

describe('document fork', () => {
	it("forks a document: the fork's IDs, its trunk and its URL", async () => {
		const docId = itemsDoc('Fork me', ['a']);
		emu.clearLog();
		const { items, error } = await run({ operation: 'fork', document: rl('id', docId) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const out = items[0].json;
		expect(Object.keys(out).sort()).toEqual(['docId', 'forkId', 'trunkId', 'url', 'urlId']);
		expect(out.trunkId).toBe(docId);
		expect(String(out.docId)).toMatch(new RegExp(`^${docId}~${String(out.forkId)}~\\d+$`));
		expect(out.url).toBe(`${fx.site}/doc/${String(out.urlId)}`);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(requests()).toEqual([`POST /o/demo/api/docs/${docId}/fork`]);
		// the fork works like any document
		expect(await itemNames(String(out.docId))).toEqual(['a']);
	});

	it("a fork of a fork: Grist's message and what to do; Continue On Fail keeps the other item", async () => {
		const docId = itemsDoc('Fork twice', ['a']);
		const fork = await forkOf(docId);
		const { items, error } = await run(
			{ operation: 'fork', document: rl('id', '={{ $json.doc }}') },
			{
				continueOnFail: true,
				input: [{ json: { doc: fork } }, { json: { doc: docId } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({
			error: "Cannot fork a document that's already a fork",
			httpCode: '400',
		});
		expect(String(items[0].json.description)).toMatch(/Fork its trunk/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.trunkId).toBe(docId);
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	it('an empty Document is refused before any request', async () => {
		const { error } = await run({ operation: 'fork', document: rl('id', '={{ "" }}') });
		expect(error?.message).toBe('The Document field is empty (item 0)');
		expect(emu.log).toHaveLength(0);
	});
});

describe('document compare', () => {
	it('with a fork: the summary and, per changed table and side, its rows', async () => {
		const docId = itemsDoc('Compare', ['a', 'b']);
		const fork = await forkOf(docId);
		await grist('PATCH', `/api/docs/${fork}/tables/Items/records`, {
			records: [{ id: 1, fields: { Name: 'changed' } }],
		});
		await grist('POST', `/api/docs/${fork}/tables/Items/records/delete`, [2]);
		await grist('POST', `/api/docs/${docId}/tables/Items/records`, {
			records: [{ fields: { Name: 'trunk only', Qty: 7 } }],
		});
		emu.clearLog();
		const { items, error } = await run({
			operation: 'compare',
			document: rl('id', docId),
			otherDocument: rl('id', fork),
		});
		expect(error).toBeUndefined();
		const out = items[0].json;
		expect(out).toMatchObject({ docId, otherDocId: fork, summary: 'both' });
		expect(out.parent).toEqual(expect.objectContaining({ h: expect.any(String) }));
		expect(out.tables).toEqual([
			expect.objectContaining({
				side: 'left',
				tableId: 'Items',
				addedRows: 1,
				updatedRows: 0,
				deletedRows: 0,
				rows: [{ change: 'added', id: 3, values: { Name: 'trunk only', Qty: 7 } }],
			}),
			expect.objectContaining({
				side: 'right',
				tableId: 'Items',
				addedRows: 0,
				updatedRows: 1,
				deletedRows: 1,
				rows: [
					{
						change: 'updated',
						id: 1,
						values: { Name: 'changed' },
						previous: { Name: 'a' },
						changedColumns: ['Name'],
					},
					{ change: 'deleted', id: 2, values: { Name: 'b', Qty: 2 } },
				],
			}),
		]);
		expect(requests()).toEqual([`GET /o/demo/api/docs/${docId}/compare/${fork}`]);
		expect(emu.log[0].query).toEqual({ detail: '1', maxRows: '1000' });
	});

	it("Summary Only asks for no details; 0 Max Rows With Values is no limit; Raw is Grist's answer", async () => {
		const docId = itemsDoc('Compare summary', ['a']);
		const fork = await forkOf(docId);
		emu.clearLog();
		const summary = await run({
			operation: 'compare',
			document: rl('id', docId),
			otherDocument: rl('id', fork),
			output: 'summary',
		});
		expect(summary.items[0].json).toEqual({
			docId,
			otherDocId: fork,
			summary: 'same',
			left: expect.any(Object),
			right: expect.any(Object),
			parent: expect.any(Object),
		});
		expect(emu.log[0].query).toEqual({ maxRows: '1000' });
		emu.clearLog();
		const raw = await run({
			operation: 'compare',
			document: rl('id', docId),
			otherDocument: rl('id', fork),
			output: 'raw',
			options: { maxRows: 0 },
		});
		expect(emu.log[0].query).toEqual({ detail: '1', maxRows: 'null' });
		expect(raw.items[0].json).toMatchObject({
			docId,
			otherDocId: fork,
			summary: 'same',
			details: { leftChanges: { tableDeltas: {} }, rightChanges: { tableDeltas: {} } },
		});
	});

	it('two states of one document: From State HEAD~1 to HEAD', async () => {
		const docId = itemsDoc('Compare states', ['a']);
		await grist('GET', `/api/docs/${docId}/states`);
		await grist('PATCH', `/api/docs/${docId}/tables/Items/records`, {
			records: [{ id: 1, fields: { Qty: 5 } }],
		});
		emu.clearLog();
		const { items, error } = await run({
			operation: 'compare',
			document: rl('id', docId),
			compareWith: 'states',
			fromState: 'HEAD~1',
			toState: 'HEAD',
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			docId,
			fromState: 'HEAD~1',
			toState: 'HEAD',
			summary: 'right',
			tables: [
				{
					side: 'right',
					tableId: 'Items',
					rows: [{ change: 'updated', id: 1, values: { Qty: 5 }, previous: { Qty: 1 } }],
				},
			],
		});
		expect(requests()).toEqual([`GET /o/demo/api/docs/${docId}/compare`]);
		expect(emu.log[0].query).toEqual({ left: 'HEAD~1', right: 'HEAD', maxRows: '1000' });
	});

	it('errors: a missing other document names both; an unknown state says what Grist keeps', async () => {
		const docId = itemsDoc('Compare errors', ['a']);
		const missing = await run(
			{
				operation: 'compare',
				document: rl('id', docId),
				otherDocument: rl('id', 'nope-nope-nope'),
			},
			{ continueOnFail: true },
		);
		expect(missing.items[0].json).toMatchObject({ error: 'Document not found', httpCode: '404' });
		expect(String(missing.items[0].json.description)).toMatch(/Check both documents/);
		const state = await run(
			{
				operation: 'compare',
				document: rl('id', docId),
				compareWith: 'states',
				fromState: 'f'.repeat(64),
			},
			{ continueOnFail: true },
		);
		expect(state.items[0].json).toMatchObject({ error: 'Cannot read hash', httpCode: '500' });
		expect(String(state.items[0].json.description)).toMatch(/not in the document's history/);
		const negative = await run({
			operation: 'compare',
			document: rl('id', docId),
			otherDocument: rl('id', docId),
			options: { maxRows: -1 },
		});
		expect(negative.error?.message).toBe(
			'Max Rows With Values of item 0 must be a whole number (0 for no limit)',
		);
	});
});

describe('document replaceContent', () => {
	it('promotes a fork: the document takes its content; Compare then says same', async () => {
		const docId = itemsDoc('Promote', ['a']);
		const fork = await forkOf(docId);
		await grist('POST', `/api/docs/${fork}/tables/Items/records`, {
			records: [{ fields: { Name: 'from the fork' } }],
		});
		emu.clearLog();
		const { items, error } = await run({
			operation: 'replaceContent',
			document: rl('id', docId),
			sourceDocument: rl('id', fork),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ docId, replaced: true, sourceDocId: fork });
		expect(requests()).toEqual([`POST /o/demo/api/docs/${docId}/replace`]);
		expect(emu.log[0].body).toEqual({ sourceDocId: fork });
		expect(await itemNames(docId)).toEqual(['a', 'from the fork']);
		const cmp = await run({
			operation: 'compare',
			document: rl('id', docId),
			otherDocument: rl('id', fork),
			output: 'summary',
		});
		expect(cmp.items[0].json.summary).toBe('same');
	});

	it("an editor may not replace; a snapshot needs snapshot storage: Grist's messages and what to do", async () => {
		const docId = itemsDoc('Not yours', ['a']);
		// the site's viewer, an editor of this document (a real Grist's second account)
		emu.setAccess('doc', docId, demo.viewerEmail, 'editors');
		const editor = await run(
			{
				operation: 'replaceContent',
				document: rl('id', docId),
				sourceDocument: rl('id', demo.docId),
			},
			{ apiKey: demo.viewerApiKey, continueOnFail: true },
		);
		expect(editor.items[0].json).toMatchObject({
			error: 'Only owners can replace a document.',
			httpCode: '403',
		});
		expect(String(editor.items[0].json.description)).toMatch(/needs the Owner role/);
		const snapshot = await run(
			{
				operation: 'replaceContent',
				document: rl('id', docId),
				replaceWith: 'snapshot',
				snapshot: rl('id', 'current'),
			},
			{ continueOnFail: true },
		);
		expect(snapshot.items[0].json).toMatchObject({
			error: 'Snapshots not supported without S3',
			httpCode: '500',
		});
		expect(String(snapshot.items[0].json.description)).toMatch(/keeps no snapshots/);
		const missing = await run(
			{ operation: 'replaceContent', document: rl('id', docId), sourceDocument: rl('id', 'nope') },
			{ continueOnFail: true },
		);
		expect(missing.items[0].json).toMatchObject({ error: 'Document not found', httpCode: '404' });
		expect(String(missing.items[0].json.description)).toMatch(/Check the Source Document \(nope\)/);
		const empty = await run({
			operation: 'replaceContent',
			document: rl('id', docId),
			sourceDocument: rl('id', '={{ " " }}'),
		});
		expect(empty.error?.message).toBe('The Source Document field is empty (item 0)');
	});
});

describe('document snapshots', () => {
	it('lists the snapshots, one item each (without snapshot storage: "current")', async () => {
		const docId = itemsDoc('Snapshots', []);
		emu.clearLog();
		const { items, error } = await run({ operation: 'getSnapshots', document: rl('id', docId) });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{ snapshotId: 'current', lastModified: expect.any(String), docId },
		]);
		expect(requests()).toEqual([`GET /o/demo/api/docs/${docId}/snapshots`]);
		emu.clearLog();
		await run({ operation: 'getSnapshots', document: rl('id', docId), options: { raw: true } });
		expect(emu.log[0].query).toEqual({ raw: '1' });
	});

	it('deletes chosen snapshots after checking their IDs; unknown IDs delete nothing', async () => {
		const docId = itemsDoc('Delete snapshots', []);
		emu.clearLog();
		const unknown = await run({
			operation: 'deleteSnapshots',
			document: rl('id', docId),
			snapshotIds: 'current, nope',
		});
		expect(unknown.error?.message).toBe(`The document "${docId}" has no snapshot "nope" (item 0)`);
		expect(requests()).toEqual([`GET /o/demo/api/docs/${docId}/snapshots`]);
		emu.clearLog();
		const chosen = await run({
			operation: 'deleteSnapshots',
			document: rl('id', docId),
			snapshotIds: 'current',
		});
		expect(chosen.items[0].json).toEqual({ docId, deleted: true, snapshotIds: ['current'] });
		expect(emu.log[1].body).toEqual({ snapshotIds: ['current'] });
		const past = await run({
			operation: 'deleteSnapshots',
			document: rl('id', docId),
			select: 'past',
		});
		expect(past.items[0].json).toEqual({ docId, deleted: true, snapshotIds: [] });
		const empty = await run({
			operation: 'deleteSnapshots',
			document: rl('id', docId),
			snapshotIds: ' , ',
		});
		expect(empty.error?.message).toMatch(/^Snapshot IDs of item 0: it is empty/);
	});

	it('a viewer may not delete snapshots', async () => {
		const { items } = await run(
			{ operation: 'deleteSnapshots', document: rl('id', demo.docId), select: 'unlisted' },
			{ apiKey: demo.viewerApiKey, continueOnFail: true },
		);
		expect(items[0].json).toMatchObject({ error: 'No owner access', httpCode: '403' });
		expect(String(items[0].json.description)).toMatch(/needs the Owner role/);
	});
});

describe('document proposals', () => {
	it('lists the proposals made to a document and from a fork; applies one once', async () => {
		const docId = itemsDoc('Proposals', ['a']);
		const fork = await forkOf(docId);
		await grist('PATCH', `/api/docs/${fork}/tables/Items/records`, {
			records: [{ id: 1, fields: { Name: 'suggested' } }],
		});
		const proposed = await grist<{ shortId: number }>('POST', `/api/docs/${fork}/propose`, {});
		expect(proposed.status).toBe(200);
		emu.clearLog();
		const incoming = await run({
			operation: 'getProposals',
			document: rl('id', docId),
			options: { includeChanges: true },
		});
		expect(incoming.error).toBeUndefined();
		expect(incoming.items).toHaveLength(1);
		expect(incoming.items[0].json).toMatchObject({
			proposalId: 1,
			status: 'open',
			forkDocId: fork,
			documentId: docId,
			proposedBy: { email: expect.any(String) },
			appliedAt: null,
			tables: [
				{
					side: 'left',
					tableId: 'Items',
					rows: [{ change: 'updated', id: 1, values: { Name: 'suggested' } }],
				},
			],
		});
		expect(JSON.stringify(incoming.items)).not.toContain('apiKey');
		expect(requests()).toEqual([`GET /o/demo/api/docs/${docId}/proposals`]);
		const outgoing = await run({
			operation: 'getProposals',
			document: rl('id', fork),
			direction: 'outgoing',
		});
		expect(outgoing.items.map((i) => i.json.proposalId)).toEqual([1]);
		expect(emu.log[emu.log.length - 1].query).toEqual({ outgoing: '1' });

		emu.clearLog();
		const applied = await run({
			operation: 'applyProposal',
			document: rl('id', docId),
			proposal: rl('id', '1'),
		});
		expect(applied.error).toBeUndefined();
		expect(applied.items[0].json).toMatchObject({
			proposalId: 1,
			status: 'applied',
			applied: true,
			log: expect.arrayContaining(['updated a cell']),
		});
		expect(requests()).toEqual([
			`GET /o/demo/api/docs/${docId}/proposals`,
			`POST /o/demo/api/docs/${docId}/proposals/1/apply`,
		]);
		expect(await itemNames(docId)).toEqual(['suggested']);

		// applied already: refused unless Apply Again
		emu.clearLog();
		const again = await run(
			{ operation: 'applyProposal', document: rl('id', docId), proposal: rl('id', '1') },
			{ continueOnFail: true },
		);
		expect(again.items[0].json.error).toBe(`Proposal 1 of document "${docId}" is applied (item 0)`);
		expect(requests()).toEqual([`GET /o/demo/api/docs/${docId}/proposals`]);
		const forced = await run({
			operation: 'applyProposal',
			document: rl('id', docId),
			proposal: rl('id', '1'),
			options: { applyAgain: true },
		});
		expect(forced.error).toBeUndefined();
		const open = await run({
			operation: 'getProposals',
			document: rl('id', docId),
			options: { onlyOpen: true },
		});
		expect(open.items).toHaveLength(0);
	});

	it('a proposal that does not exist, a bad number, a non-owner', async () => {
		const docId = itemsDoc('No proposals', ['a']);
		const missing = await run({
			operation: 'applyProposal',
			document: rl('id', docId),
			proposal: rl('id', '7'),
		});
		expect(missing.error?.message).toBe(`The document "${docId}" has no proposal 7 (item 0)`);
		expect(missing.error?.description).toMatch(/No proposal was made to this document/);
		const bad = await run({
			operation: 'applyProposal',
			document: rl('id', docId),
			proposal: rl('id', '={{ "x1" }}'),
		});
		expect(bad.error?.message).toBe('The Proposal "x1" of item 0 is not a proposal number');
		const fork = await forkOf(docId);
		await grist('POST', `/api/docs/${fork}/propose`, {});
		emu.setAccess('doc', docId, demo.viewerEmail, 'editors');
		const editor = await run(
			{ operation: 'applyProposal', document: rl('id', docId), proposal: rl('id', '1') },
			{ apiKey: demo.viewerApiKey, continueOnFail: true },
		);
		expect(editor.items[0].json).toMatchObject({ error: 'Only owners can apply proposals' });
		expect(String(editor.items[0].json.description)).toMatch(/needs the Owner role/);
	});
});

describe('pickers', () => {
	async function search(method: string, parameters: Record<string, unknown>) {
		return (await loadOptions({
			node: new Grist(),
			kind: 'listSearch',
			method,
			parameters: { resource: 'document', ...parameters } as never,
			credentials: { apiKey: demo.apiKey, url: fx.site },
		})) as { results: Array<{ name: string; value: string }> };
	}

	it('Other Document lists your forks of the picked document first; from a fork, its trunk', async () => {
		const docId = itemsDoc('Picked', ['a']);
		const fork = await forkOf(docId);
		const res = await search('searchRelatedDocuments', {
			operation: 'compare',
			document: rl('id', docId),
		});
		expect(res.results[0]).toMatchObject({ value: fork });
		expect(res.results[0].name).toMatch(/^Fork .* of Picked/);
		expect(res.results.map((r) => r.value)).not.toContain(docId);
		expect(res.results.map((r) => r.value)).toContain(demo.docId);
		const fromFork = await search('searchRelatedDocuments', {
			operation: 'compare',
			document: rl('id', fork),
		});
		expect(fromFork.results[0]).toEqual({
			name: 'Picked (the document it was forked from)',
			value: docId,
			url: expect.any(String),
		});
	});

	it('Snapshot and Proposal list those of the picked document', async () => {
		const docId = itemsDoc('Picked 2', ['a']);
		const snaps = await search('searchSnapshots', {
			operation: 'replaceContent',
			document: rl('id', docId),
		});
		expect(snaps.results.map((r) => r.value)).toEqual(['current']);
		const fork = await forkOf(docId);
		await grist('POST', `/api/docs/${fork}/propose`, {});
		const proposals = await search('searchProposals', {
			operation: 'applyProposal',
			document: rl('id', docId),
		});
		expect(proposals.results).toEqual([
			{ name: expect.stringMatching(/^#1 by .* \(open\)$/), value: '1' },
		]);
	});
});
