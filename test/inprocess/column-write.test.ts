/**
 * Column → Create, Update, Create or Update (PUT noadd / noupdate / replaceall), Delete (issue #15)
 * against the emulator; requests and bodies from its log, the table read back through Get Many.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { resourceRunner, rl, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Board', [
		{ id: 'Title', type: 'Text' },
		{ id: 'State', type: 'Choice', widgetOptions: { choices: ['Open'], alignment: 'center' } },
		{ id: 'Old', type: 'Text' },
	]);
	emu.addRecords(demo.docId, 'Board', [{ Title: 'x', State: 'Open', Old: 'gone soon' }]);
});
const run = resourceRunner(fx, 'column');
const target = () => ({ document: rl('id', demo.docId), table: rl('id', 'Board') });
const calls = () =>
	emu.log.map(
		(e) => `${e.method} ${e.apiPath.replace(`/api/docs/${demo.docId}/tables/Board`, '')}`,
	);
const columns = async () =>
	(await run({ operation: 'getAll', ...target() })).items.map((i) => i.json);

describe('column.create', () => {
	it('adds the columns in one request and returns them', async () => {
		const { items, error } = await run({
			operation: 'create',
			...target(),
			columns: {
				column: [
					{ id: 'Due', type: 'Date', label: 'Due date' },
					{ id: 'Prio', type: 'Choice', choices: 'Low, High' },
					{ id: 'Upper', type: 'Text', formula: '$Title.upper()' },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.id, i.json.type, i.json.label, i.json.isFormula])).toEqual([
			['Due', 'Date', 'Due date', false],
			['Prio', 'Choice', 'Prio', false],
			['Upper', 'Text', 'Upper', true],
		]);
		expect(items[1].json.choices).toEqual(['Low', 'High']);
		expect(calls()).toEqual(['GET /columns', 'POST /columns']);
		expect(emu.log[0].query).toEqual({ hidden: '1' });
		const after = await columns();
		expect(after.find((c) => c.id === 'Prio')).toMatchObject({
			type: 'Choice',
			choices: ['Low', 'High'],
		});
		expect(after.find((c) => c.id === 'Due')).toMatchObject({
			label: 'Due date',
			isFormula: false,
		});
	});

	it('refuses a duplicate of an existing column (any case) before the request', async () => {
		const { error } = await run({
			operation: 'create',
			...target(),
			columns: { column: [{ id: 'title', type: 'Text' }] },
		});
		expect(error?.message).toMatch(/"title" is used twice \(column 1 and the table\).*item 0/);
		expect(calls()).toEqual(['GET /columns']);
	});

	it("gives Grist's 404 for an unknown table", async () => {
		const { error } = await run({
			operation: 'create',
			document: rl('id', demo.docId),
			table: rl('id', 'Nope'),
			columns: { column: [{ id: 'A' }] },
		});
		expect(error?.message).toBe('Table not found "Nope"');
	});
});

describe('column.update', () => {
	it('changes the choices keeping other display options, then renames and relabels', async () => {
		const { items, error } = await run({
			operation: 'update',
			...target(),
			column: rl('list', 'State'),
			updateFields: { choices: '["Open", "Closed"]' },
		});
		expect(error).toBeUndefined();
		expect(emu.log[1].body).toEqual({
			columns: [
				{
					id: 'State',
					fields: {
						type: 'Choice',
						widgetOptions: JSON.stringify({ choices: ['Open', 'Closed'], alignment: 'center' }),
					},
				},
			],
		});
		expect(items[0].json).toMatchObject({ id: 'State', choices: ['Open', 'Closed'] });
		emu.clearLog();
		const renamed = await run({
			operation: 'update',
			...target(),
			column: rl('id', 'State'),
			updateFields: { newId: 'Status', label: 'Status' },
		});
		expect(renamed.error).toBeUndefined();
		expect(emu.log[1].body).toEqual({
			columns: [{ id: 'State', fields: { label: 'Status', colId: 'Status' } }],
		});
		expect((await columns()).map((c) => c.id)).toContain('Status');
	});

	it('refuses an unknown column, choices on a Text column, and an empty update before writing', async () => {
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[
				{ column: rl('id', 'Nope'), updateFields: { label: 'x' } },
				/Column not found "Nope".*item 0/,
			],
			[{ column: rl('id', 'Title'), updateFields: { choices: 'a, b' } }, /Choices are for Choice/],
			[{ column: rl('id', 'Title'), updateFields: {} }, /Nothing to update in item 0/],
			[
				{ column: rl('id', 'Title'), updateFields: { type: 'Bogus' } },
				/"Bogus" is not a Grist column type/,
			],
			[{ column: rl('id', 'Title'), updateFields: { newId: 'old' } }, /already has a column "Old"/],
		];
		for (const [params, message] of cases) {
			emu.clearLog();
			const { error } = await run({ operation: 'update', ...target(), ...params });
			expect(error?.message).toMatch(message);
			expect(calls()).toEqual(['GET /columns']);
		}
	});
});

describe('column.upsert', () => {
	it('sends PUT with the flags; replaceall removes unlisted columns', async () => {
		emu.addTable(demo.docId, 'Put', [
			{ id: 'A', type: 'Text' },
			{ id: 'B', type: 'Text' },
		]);
		const put = (options: Record<string, boolean>, cols: Array<Record<string, unknown>>) =>
			run({
				operation: 'upsert',
				document: rl('id', demo.docId),
				table: rl('id', 'Put'),
				columns: { column: cols },
				options,
			});
		const first = await put({}, [
			{ id: 'A', type: 'Numeric' },
			{ id: 'C', type: 'Bool' },
		]);
		expect(first.error).toBeUndefined();
		expect(first.items.map((i) => i.json)).toEqual([
			{ id: 'A', action: 'updated' },
			{ id: 'C', action: 'added' },
		]);
		const putCall = emu.log.find((e) => e.method === 'PUT')!;
		expect(putCall.query).toEqual({});
		emu.clearLog();
		const noadd = await put({ noadd: true }, [{ id: 'D', type: 'Text' }]);
		expect(noadd.items.map((i) => i.json)).toEqual([{ id: 'D', action: 'skipped' }]);
		expect(emu.log.find((e) => e.method === 'PUT')!.query).toEqual({ noadd: '1' });
		emu.clearLog();
		const replace = await put({ replaceall: true }, [{ id: 'A', type: 'Numeric' }]);
		expect(replace.items.map((i) => i.json)).toEqual([
			{ id: 'A', action: 'updated' },
			{ id: 'B', action: 'removed' },
			{ id: 'C', action: 'removed' },
		]);
		expect(emu.log.find((e) => e.method === 'PUT')!.query).toEqual({ replaceall: '1' });
		const left = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			table: rl('id', 'Put'),
		});
		expect(left.items.map((i) => [i.json.id, i.json.type])).toEqual([['A', 'Numeric']]);
	});

	it('refuses an empty list (with replaceall it would remove everything) and duplicates', async () => {
		const empty = await run({
			operation: 'upsert',
			...target(),
			columns: {},
			options: { replaceall: true },
		});
		expect(empty.error?.message).toMatch(/No column is listed in item 0/);
		expect(emu.log).toEqual([]);
		const dup = await run({
			operation: 'upsert',
			...target(),
			columns: { column: [{ id: 'X' }, { id: 'x' }] },
		});
		expect(dup.error?.message).toMatch(/"x" is listed twice/);
		expect(calls()).toEqual(['GET /columns']);
	});
});

describe('column.delete', () => {
	it("deletes a column; an unknown one gives Grist's 404 (Continue On Fail keeps going)", async () => {
		const { items, error } = await run({
			operation: 'delete',
			...target(),
			column: rl('id', 'Old'),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: 'Old', deleted: true });
		expect(calls()).toEqual(['DELETE /columns/Old']);
		const again = await run(
			{ operation: 'delete', ...target(), column: rl('id', '={{ $json.c }}') },
			{ continueOnFail: true, input: [{ json: { c: 'Old' } }, { json: { c: 'Title' } }] },
		);
		expect(again.items.map((i) => i.json)).toEqual([
			expect.objectContaining({ error: 'Table or column not found "Board.Old"' }),
			{ id: 'Title', deleted: true },
		]);
	});
});
