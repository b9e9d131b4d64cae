/**
 * Grist Trigger polls that outlive their interval, in an active workflow (n8n-core's
 * PollTriggerExecutor via `createPoller`) against the Grist emulator (or a real Grist with
 * `npm run test:real`) behind the fault proxy of test/harness/fault-proxy.ts: one poll of a
 * trigger at a time (also across a re-activation), the poll's time budget from its Poll Times
 * (a refused and a hanging server), and every row emitted once.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { docTable, seedTeamDoc } from '../harness/builders';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy';
import { emittedIds } from '../harness/emitted';
import { createPoller, type Poller } from '../harness/inprocess';
import { until } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let proxy: FaultProxy;
let docId: string;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator();
	({ docId } = seedTeamDoc(emu, USER_KEY, 'Overlap doc'));
	proxy = await startFaultProxy(emu.url);
});
afterAll(async () => {
	await proxy?.close();
	await emu?.close();
});
beforeEach(async () => {
	proxy.resume();
	await proxy.accept();
	proxy.clearRules();
});

function newTable(): string {
	tableSeq += 1;
	const tableId = `Jobs${tableSeq}`;
	emu.addTable(docId, tableId, [{ id: 'Name', type: 'Text' }]);
	return tableId;
}

/** Four poll times a minute: a budget of 60 s / 4 / 2 = 7.5 s per poll. */
const FOUR_A_MINUTE = { item: Array.from({ length: 4 }, () => ({ mode: 'everyMinute' })) };

/**
 * A poller through the proxy; each trigger poll goes past the updatedAt check (a real Grist
 * pushes updatedAt up to 60 s after a change; that check has its own tests).
 */
function poller(tableId: string, params: IDataObject = {}): Poller {
	const p = createPoller({
		node: new GristTrigger(),
		parameters: { ...docTable(docId, tableId), event: 'rowAdded', ...params },
		credentials: { apiKey: USER_KEY, url: proxy.url },
	});
	const poll = p.poll.bind(p);
	p.poll = async (mode) => {
		if (mode === 'trigger') delete p.nodeStaticData.updatedAt;
		return await poll(mode);
	};
	return p;
}

const add = (tableId: string, names: string[]) =>
	emu.addRecords(
		docId,
		tableId,
		names.map((Name) => ({ Name })),
	);

/** Waits until the proxy holds a request of a stalled poll. */
async function heldRequest(): Promise<void> {
	const before = proxy.log.length;
	await until('a request held by the stalled proxy', () => proxy.log.length > before, {
		timeoutMs: 10_000,
	});
}

test('a poll that finds the previous one still running returns nothing at once, without a request; the next one starts from the cursor the running one saved', async () => {
	const tableId = newTable();
	const p = poller(tableId);
	expect(await p.poll('trigger')).toBeNull(); // baseline
	const ids = add(tableId, ['a', 'b', 'c']);

	proxy.stall();
	const first = p.poll('trigger');
	await heldRequest();
	const requests = proxy.log.length;
	expect(await p.poll('trigger')).toBeNull();
	expect(await p.poll('trigger')).toBeNull();
	expect(proxy.log.length).toBe(requests);

	proxy.resume();
	expect(emittedIds(await first)).toEqual(ids);
	// the next poll goes on from the cursor the first one moved: nothing twice
	expect(await p.poll('trigger')).toBeNull();
	const more = add(tableId, ['d']);
	expect(emittedIds(await p.poll('trigger'))).toEqual(more);
}, 60_000);

test('across a re-activation: the new activation does not poll while a poll of the old one runs; n8n drops the old result and every row comes once', async () => {
	const tableId = newTable();
	const p = poller(tableId);
	expect(await p.poll('trigger')).toBeNull(); // baseline, saved after activation
	const ids = add(tableId, ['a', 'b']);

	proxy.stall();
	const old = p.poll('trigger');
	await heldRequest();
	const requests = proxy.log.length;
	p.restart(); // deactivated and activated again: a new Workflow, the same workflow and node IDs
	expect(await p.poll('trigger')).toBeNull(); // the new activation's poll
	expect(proxy.log.length).toBe(requests);

	proxy.resume();
	expect(await old).toBeNull(); // superseded: n8n discards what it would have emitted
	expect(emittedIds(await p.poll('trigger'))).toEqual(ids);
	expect(await p.poll('trigger')).toBeNull();
}, 60_000);

test('a poll against a server that refuses connections gives up within its budget (half the time between polls), keeps its cursor, and the next poll emits the rows once', async () => {
	const tableId = newTable();
	const p = poller(tableId, { pollTimes: FOUR_A_MINUTE });
	expect(await p.poll('trigger')).toBeNull();
	const ids = add(tableId, ['a', 'b']);

	await proxy.refuse();
	const started = Date.now();
	const failed = await p.poll('trigger').then(
		() => undefined,
		(error: Error & { description?: string }) => error,
	);
	const took = Date.now() - started;
	expect(failed?.message).toMatch(
		/^(Could not reach the Grist server at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED|The Grist server at http:\/\/127\.0\.0\.1:\d+ did not answer in time: the 7\.5 s this run may wait for Grist are over)/,
	);
	expect(took).toBeLessThan(7_500 + 1_500);
	// it kept retrying while time was left (which request's error is shown depends on where the
	// budget ran out: the document's updatedAt check swallows its own failure)
	expect(took).toBeGreaterThan(3_000);

	await proxy.accept();
	expect(emittedIds(await p.poll('trigger'))).toEqual(ids);
	expect(await p.poll('trigger')).toBeNull();
}, 60_000);

test('a poll against a server that accepts and never answers ends when its budget does, keeps its cursor, and the next poll emits the rows once', async () => {
	const tableId = newTable();
	const p = poller(tableId, { pollTimes: FOUR_A_MINUTE });
	expect(await p.poll('trigger')).toBeNull();
	const ids = add(tableId, ['a', 'b']);

	proxy.stall();
	const started = Date.now();
	const failed = await p.poll('trigger').then(
		() => undefined,
		(error: Error) => error,
	);
	const took = Date.now() - started;
	expect(failed?.message).toMatch(
		/^The Grist server at http:\/\/127\.0\.0\.1:\d+ did not answer in time/,
	);
	expect(took).toBeGreaterThanOrEqual(7_000);
	expect(took).toBeLessThan(7_500 + 1_500);

	const held = proxy.log.filter((e) => e.stalled === undefined && e.status === undefined).length;
	expect(held).toBeGreaterThan(0);
	proxy.resume();
	expect(emittedIds(await p.poll('trigger'))).toEqual(ids);
	expect(await p.poll('trigger')).toBeNull();
}, 60_000);
