/**
 * What the Grist Trigger costs in Grist API calls, per event, as docs/TRIGGERS.md and README's
 * "Which trigger?" state them: the activation poll, an idle poll, a poll after a one-row change,
 * and Fetch test event. Counted from the request log of the Grist emulator (or, with `npm run
 * test:real`, of the proxy in front of a real Grist), in an active workflow (n8n-core's
 * PollTriggerExecutor via `createPoller`), with an API key that may read the whole document.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { docTable, seedTeamDoc } from '../harness/builders';
import { createPoller, type Poller } from '../harness/inprocess';
import { waitFor } from '../harness/until';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let docId: string;
let tableSeq = 0;

beforeAll(async () => {
	emu = await startEmulator();
	({ docId } = seedTeamDoc(emu, USER_KEY, 'Cost doc'));
});
afterAll(async () => {
	await emu?.close();
});

function newTable(): string {
	tableSeq += 1;
	const tableId = `Costs${tableSeq}`;
	emu.addTable(docId, tableId, [
		{ id: 'Name', type: 'Text' },
		{ id: 'Updated', type: 'DateTime:UTC' },
	]);
	return tableId;
}

function poller(tableId: string, params: IDataObject): Poller {
	return createPoller({
		node: new GristTrigger(),
		parameters: { ...docTable(docId, tableId), ...params },
		credentials: { apiKey: USER_KEY, url: emu.url },
	});
}

/**
 * The requests `run` made, as `METHOD /path-after-the-document` (the document itself: `GET doc`;
 * the watched table: `T`).
 */
async function requests(run: () => Promise<unknown>): Promise<string[]> {
	const from = emu.log.length;
	await run();
	return emu.log.slice(from).map((e) => {
		const path = e.apiPath
			.replace(`/api/docs/${docId}`, '')
			.replace(/\/tables\/[^/]+/, '/tables/T');
		return path === '' ? `${e.method} doc` : `${e.method} ${path}`;
	});
}

/** The document's updatedAt as Grist's home database has it. */
async function updatedAt(): Promise<string> {
	const res = await fetch(`${emu.url}/api/docs/${docId}`, {
		headers: { Authorization: `Bearer ${USER_KEY}` },
	});
	return String(((await res.json()) as IDataObject).updatedAt);
}

/** Waits until Grist has pushed the document's updatedAt past `before` (a real Grist: up to 60 s). */
async function moved(before: string): Promise<void> {
	await waitFor('the document’s updatedAt moved', updatedAt, (now) => now !== before, {
		timeoutMs: 120_000,
		intervalMs: 1_000,
	});
}

/** Activation, an idle poll, a poll after `change`, Fetch test event: the requests of each. */
async function costs(
	params: IDataObject,
	change: (tableId: string, first: number) => Promise<void> | void,
) {
	const tableId = newTable();
	const [first] = emu.addRecords(docId, tableId, [{ Name: 'a', Updated: 1704844800 }]);
	const p = poller(tableId, params);
	const activation = await requests(() => p.poll('trigger'));
	const idle = await requests(() => p.poll('trigger'));
	const before = await updatedAt();
	await change(tableId, first);
	await moved(before);
	let emitted: unknown = null;
	const poll = await requests(async () => (emitted = await p.poll('trigger')));
	expect(emitted).not.toBeNull();
	const sample = await requests(() => p.poll('manual'));
	return { activation, idle, poll, sample };
}

const patch = async (tableId: string, id: number, fields: IDataObject) => {
	const res = await fetch(`${emu.url}/api/docs/${docId}/tables/${tableId}/records`, {
		method: 'PATCH',
		headers: { Authorization: `Bearer ${USER_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ records: [{ id, fields }] }),
	});
	expect(res.status).toBe(200);
};

const T = 'GET /tables/T';
const ACTIVATION = {
	records: ['GET doc', `${T}/columns`, `${T}/records`],
	history: ['GET doc', `${T}/columns`, 'GET /states'],
};
const IDLE = ['GET doc'];

/** Event, its parameters, a one-row change, and the calls of each step (T: the watched table). */
const CASES: Array<
	[
		string,
		IDataObject,
		(t: string, first: number) => Promise<void> | void,
		Record<'activation' | 'idle' | 'poll' | 'sample', string[]>,
	]
> = [
	[
		'Row Added',
		{ event: 'rowAdded' },
		(t) => void emu.addRecords(docId, t, [{ Name: 'b' }]),
		{
			activation: ACTIVATION.records,
			idle: IDLE,
			// the /sql idle check, the new rows' ID window, the emitted rows' columns
			poll: ['GET doc', 'POST /sql', `${T}/records`, `${T}/records`, `${T}/columns`],
			sample: [`${T}/columns`, `${T}/records`],
		},
	],
	[
		'Row Added or Updated',
		{ event: 'rowAddedOrUpdated', timestampColumn: 'Updated' },
		(t, first) => patch(t, first, { Name: 'a2', Updated: 1704931200 }),
		{
			activation: [...ACTIVATION.records, `${T}/records`, `${T}/records`],
			idle: IDLE,
			poll: ['GET doc', 'POST /sql', `${T}/records`, `${T}/records`, `${T}/columns`],
			sample: [`${T}/columns`, `${T}/records`],
		},
	],
	[
		'Row Updated',
		{ event: 'rowUpdated' },
		(t, first) => patch(t, first, { Name: 'a2' }),
		{
			activation: ACTIVATION.history,
			idle: IDLE,
			poll: ['GET doc', 'GET /compare', `${T}/columns`, `${T}/records`],
			// the latest update: /states, a probe of HEAD~1, that action alone, the current row
			sample: [`${T}/columns`, 'GET /states', 'GET /compare', 'GET /compare', `${T}/records`],
		},
	],
	[
		'Row Deleted',
		{ event: 'rowDeleted' },
		(t, first) => void emu.removeRecords(docId, t, [first]),
		{
			activation: ACTIVATION.history,
			idle: IDLE,
			poll: ['GET doc', 'GET /compare', `${T}/columns`],
			sample: [`${T}/columns`, 'GET /states', 'GET /compare', 'GET /compare'],
		},
	],
	[
		'Row Added, Updated or Deleted',
		{ event: 'anyChange' },
		(t, first) => patch(t, first, { Name: 'a2' }),
		{
			activation: ACTIVATION.history,
			idle: IDLE,
			poll: ['GET doc', 'GET /compare', `${T}/columns`, `${T}/records`],
			sample: [`${T}/columns`, 'GET /states', 'GET /compare', 'GET /compare', `${T}/records`],
		},
	],
];

test.each(CASES)(
	'%s',
	async (_name, params, change, expected) => {
		const c = await costs(params, change);
		expect(c).toEqual(expected);
	},
	300_000,
);
