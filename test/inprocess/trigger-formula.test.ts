/**
 * Grist Trigger, Row Added or Updated, on a Timestamp Column set up the way README's "Grist
 * Trigger" section tells users to: a DateTime column with the trigger formula `NOW()` applied on
 * changes to any field (and to new records), made through /apply as Grist's UI does. Rows are
 * added and changed through Grist's REST API (as another client would), so the emulator's data
 * engine sets the timestamps; the trigger runs in an active workflow (n8n-core's poller).
 */
import { randomUUID } from 'node:crypto';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { startEmulator, type GristEmulator } from '../emulator';
import { client, type ColumnsBody } from '../emulator/testutil';
import { docTable } from '../harness/builders';
import { emittedJson } from '../harness/emitted';
import { createPoller, type Poller } from '../harness/inprocess';
import { emulatorOnly } from '../harness/target';

const USER_KEY = `key-${randomUUID()}`;
let emu: GristEmulator;
let api: ReturnType<typeof client>;
let docId: string;
let clock = Date.UTC(2026, 0, 5, 9, 0, 0, 250);

beforeAll(async () => {
	emu = await startEmulator();
	emu.setClock(() => clock);
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey: USER_KEY });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	const ws = emu.addWorkspace(org.id, 'Main', { owner: 'owner@example.com' });
	api = client(emu, USER_KEY);
	docId = (await api.post<string>(`/api/workspaces/${ws.id}/docs`, { name: 'Trigger formulas' }))
		.json;
});

afterAll(async () => {
	await emu?.close();
});

const records = (qs = '') => `/api/docs/${docId}/tables/Tasks/records${qs}`;

/** Tasks (Name, Status) plus Updated: add a column, make it DateTime, set trigger formula NOW() on any field. */
async function setUpTable(): Promise<void> {
	const steps: unknown[][][] = [
		[
			[
				'AddTable',
				'Tasks',
				[
					{ id: 'Name', type: 'Text' },
					{ id: 'Status', type: 'Text' },
				],
			],
		],
		[['AddColumn', 'Tasks', 'Updated', {}]],
		[['ModifyColumn', 'Tasks', 'Updated', { type: 'DateTime:UTC' }]],
		[
			[
				'ModifyColumn',
				'Tasks',
				'Updated',
				{ isFormula: false, formula: 'NOW()', recalcWhen: 2, recalcDeps: null },
			],
		],
	];
	for (const actions of steps)
		expect((await api.post(`/api/docs/${docId}/apply`, actions)).status).toBe(200);
	const cols = await api.get<ColumnsBody>(`/api/docs/${docId}/tables/Tasks/columns`);
	expect(cols.json.columns.find((c) => c.id === 'Updated')?.fields).toMatchObject({
		type: 'DateTime:UTC',
		isFormula: false,
		formula: 'NOW()',
		recalcWhen: 2,
	});
}

function poller(): Poller {
	return createPoller({
		node: new GristTrigger(),
		parameters: {
			...docTable(docId, 'Tasks'),
			event: 'rowAddedOrUpdated',
			timestampColumn: 'Updated',
		},
		credentials: { apiKey: USER_KEY, url: emu.url },
	});
}

const iso = (ms: number) => new Date(ms).toISOString();

emulatorOnly(
	'the NOW() values and the cursor’s timestamps are stated against the emulator’s clock (setClock)',
).it(
	'Row Added or Updated on a NOW() trigger-formula column: new rows, then exactly the updated row',
	async () => {
		await setUpTable();
		await api.post(records(), { records: [{ fields: { Name: 'old', Status: 'Open' } }] });
		const p = poller();
		expect(await p.poll('trigger')).toBeNull(); // baseline

		clock += 60_000;
		const added = clock;
		const ids = (
			await api.post<{ records: Array<{ id: number }> }>(records(), {
				records: [
					{ fields: { Name: 'write spec', Status: 'Open' } },
					{ fields: { Name: 'review', Status: 'Open' } },
				],
			})
		).json.records.map((r) => r.id);
		expect(ids).toEqual([2, 3]);
		expect(emittedJson(await p.poll('trigger'))).toEqual([
			{
				id: 2,
				Name: 'write spec',
				Status: 'Open',
				Updated: iso(added),
				_change: { type: 'added' },
			},
			{ id: 3, Name: 'review', Status: 'Open', Updated: iso(added), _change: { type: 'added' } },
		]);
		expect(await p.poll('trigger')).toBeNull();

		clock += 90_500;
		const changed = clock;
		await api.patch(records(), { records: [{ id: 1, fields: { Status: 'Done' } }] });
		expect(emittedJson(await p.poll('trigger'))).toEqual([
			{ id: 1, Name: 'old', Status: 'Done', Updated: iso(changed), _change: { type: 'updated' } },
		]);
		expect(await p.poll('trigger')).toBeNull();

		// a write that changes nothing does not touch the timestamp: nothing to emit
		clock += 1_000;
		await api.patch(records(), { records: [{ id: 2, fields: { Status: 'Open' } }] });
		expect(await p.poll('trigger')).toBeNull();
		expect(emu.records(docId, 'Tasks').map((r) => r.fields.Updated)).toEqual([
			changed / 1000,
			added / 1000,
			added / 1000,
		]);
	},
);
