/**
 * Restoring from the trash, then using what was restored, run through n8n-core against the
 * emulator with Grist's doc-auth cache (`docAuthCacheMs`, test/emulator/doc-auth.ts): Grist's
 * home server keeps saying a restored document is deleted (404 `Document is deleted`) until its
 * cache entry expires (5 s in grist-core). Restore and the operations after it, in later nodes
 * too, wait that out: the client retries that answer for a few seconds after a restore through
 * the package (RESTORE_SETTLE_MS), and only then.
 */
import type { GristEmulator, DemoSite } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';
import { waitFor } from '../harness/until';

// Grist's cache lives 5 s; a shorter one here keeps the tests short
const fx = useDemoSite({ docAuthCacheMs: 1500 });
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const runRecord = resourceRunner(fx, 'record');
const runDoc = resourceRunner(fx, 'document');
const runWs = resourceRunner(fx, 'workspace');

/** A workspace with one document holding a table Items with one row. */
function site(name: string): { wid: number; docId: string } {
	const ws = emu.addWorkspace(demo.orgId, name, { owner: demo.email });
	const doc = emu.addDoc(ws.id, { name: `${name} doc`, owner: demo.email });
	emu.addTable(doc.id, 'Items', [{ id: 'Name', type: 'Text' }]);
	emu.addRecords(doc.id, 'Items', [{ Name: 'kept' }]);
	return { wid: ws.id, docId: doc.id };
}

const readItems = async (docId: string, continueOnFail = false) =>
	await runRecord(
		{
			operation: 'getAll',
			document: rl('id', docId),
			table: rl('id', 'Items'),
			returnAll: true,
		},
		{ continueOnFail },
	);

const recordReads = (docId: string) =>
	emu.log
		.filter((e) => e.apiPath.endsWith(`/docs/${docId}/tables/Items/data`))
		.map((e) => e.status);

// First in this file: no restore has happened yet in this process.
it('a document in the trash, without a restore before: Grist\'s "Document is deleted" at once, not retried', async () => {
	const { docId } = site('Binned');
	expect((await runDoc({ operation: 'moveToTrash', document: rl('id', docId) })).error).toBe(
		undefined,
	);
	emu.clearLog();
	const started = Date.now();
	const { items, error } = await readItems(docId, true);
	expect(error).toBeUndefined();
	expect(items[0].json).toMatchObject({ httpCode: '404' });
	expect(String(items[0].json.error)).toContain('Document is deleted');
	expect(recordReads(docId)).toEqual([404]);
	expect(Date.now() - started).toBeLessThan(1500);
});

it('Workspace → Restore: a document of it read while in the trash is read again once Grist lets go, in the next node', async () => {
	const { wid, docId } = site('Archive');
	expect((await runWs({ operation: 'moveToTrash', workspace: rl('id', String(wid)) })).error).toBe(
		undefined,
	);
	// read while in the trash, until Grist says so (its cache may still hold the document as it
	// was before: a real Grist seeded it through the API a moment ago); Grist caches "deleted"
	await waitFor(
		'a read of the document in the trashed workspace answers "Document is deleted"',
		async () => String((await readItems(docId, true)).items[0].json.error),
		(error) => error.includes('Document is deleted'),
		{ timeoutMs: 8_000, intervalMs: 500 },
	);
	const restored = await runWs({ operation: 'restore', workspace: rl('id', String(wid)) });
	expect(restored.error).toBeUndefined();
	emu.clearLog();
	const { items, error } = await readItems(docId);
	expect(error).toBeUndefined();
	expect(items.map((i) => i.json.Name)).toEqual(['kept']);
	// the first reads met Grist's cache, the last one the restored document
	const reads = recordReads(docId);
	expect(reads.length).toBeGreaterThan(1);
	expect(reads.slice(0, -1).every((s) => s === 404)).toBe(true);
	expect(reads[reads.length - 1]).toBe(200);
});

it('Document → Restore: the next operation waits out "Document is deleted" (a doc worker whose cache the home server did not refresh)', async () => {
	const { docId } = site('Report');
	expect((await runDoc({ operation: 'moveToTrash', document: rl('id', docId) })).error).toBe(
		undefined,
	);
	const restored = await runDoc({ operation: 'restore', document: rl('id', docId) });
	expect(restored.error).toBeUndefined();
	expect(restored.items[0].json).toMatchObject({ id: docId });
	// in one grist-core process Restore's own GET /api/docs/{id} refreshes the cache; a separate
	// doc worker keeps its own: its answers, as the fault below gives them
	emu.clearLog();
	emu.fault({
		method: 'GET',
		path: /\/tables\/Items\/data$/,
		status: 404,
		body: { error: 'Document is deleted' },
		times: 3,
	});
	const { items, error } = await readItems(docId);
	expect(error).toBeUndefined();
	expect(items.map((i) => i.json.Name)).toEqual(['kept']);
	expect(recordReads(docId)).toEqual([404, 404, 404, 200]);
});

it('the wait is bounded: a document that stays deleted fails a few seconds after the restore, naming the tries', async () => {
	const { docId } = site('Stuck');
	expect((await runDoc({ operation: 'moveToTrash', document: rl('id', docId) })).error).toBe(
		undefined,
	);
	const restoredAt = Date.now();
	expect((await runDoc({ operation: 'restore', document: rl('id', docId) })).error).toBe(undefined);
	emu.clearLog();
	emu.fault({
		method: 'GET',
		path: /\/tables\/Items\/data$/,
		status: 404,
		body: { error: 'Document is deleted' },
		times: 1000,
	});
	const { error } = await readItems(docId);
	emu.clearFaults();
	const waited = Date.now() - restoredAt;
	expect(error?.httpCode).toBe('404');
	expect(error?.message).toBe('Document is deleted');
	expect(error?.description).toMatch(/\(Tried \d+ times\.\)$/);
	expect(recordReads(docId).length).toBeGreaterThan(3);
	// RESTORE_SETTLE_MS after the restore, and no longer than a last pause of at most 1 s beyond it
	expect(waited).toBeGreaterThanOrEqual(6000);
	expect(waited).toBeLessThan(6000 + 1000 + 2000);
});
