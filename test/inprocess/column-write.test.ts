/**
 * Column → Create, Update, Create or Update (PUT noadd / noupdate / replaceall), Delete
 * against the emulator; requests and bodies from its log, the table read back through Get Many.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

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
		// Due was given a Label: its ID is untied from it after the create (Grist ties IDs to labels)
		expect(calls()).toEqual(['GET /columns', 'POST /columns', 'PATCH /columns']);
		expect(emu.log[2].body).toEqual({
			columns: [{ id: 'Due', fields: { untieColIdFromLabel: true } }],
		});
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
			columns: [
				{
					id: 'State',
					fields: { label: 'Status', colId: 'Status', untieColIdFromLabel: true },
				},
			],
		});
		expect((await columns()).map((c) => c.id)).toContain('Status');
	});

	it('a new Label keeps the column ID (Grist ties IDs to labels), also for a later relabel in Grist', async () => {
		emu.addTable(demo.docId, 'Relabel', [
			{ id: 'A', type: 'Int' },
			{ id: 'B', type: 'Text' },
		]);
		emu.addRecords(demo.docId, 'Relabel', [{ A: 7, B: 'x' }]);
		const relabel = { document: rl('id', demo.docId), table: rl('id', 'Relabel') };
		const { items, error } = await run({
			operation: 'update',
			...relabel,
			column: rl('id', 'A'),
			updateFields: { label: 'Amount due' },
		});
		expect(error).toBeUndefined();
		expect(emu.log[1].body).toEqual({
			columns: [{ id: 'A', fields: { label: 'Amount due', untieColIdFromLabel: true } }],
		});
		expect(items[0].json).toMatchObject({ id: 'A', label: 'Amount due' });
		const read = async () =>
			(await run({ operation: 'getAll', ...relabel })).items.map((i) => [i.json.id, i.json.label]);
		// the output's ID is a real column, still holding its data
		expect(await read()).toEqual([
			['A', 'Amount due'],
			['B', 'B'],
		]);
		expect(emu.records(demo.docId, 'Relabel')[0].fields).toMatchObject({
			A: 7,
		});
		// a relabel from Grist's UI (label only) no longer renames it either
		await fetch(`${fx.site}/api/docs/${demo.docId}/tables/Relabel/columns`, {
			method: 'PATCH',
			headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ columns: [{ id: 'A', fields: { label: 'Total' } }] }),
		});
		expect(await read()).toEqual([
			['A', 'Total'],
			['B', 'B'],
		]);
		// a New Column ID still renames, with or without a label
		const renamed = await run({
			operation: 'update',
			...relabel,
			column: rl('id', 'B'),
			updateFields: { newId: 'Note' },
		});
		expect(renamed.items[0].json).toMatchObject({ id: 'Note' });
		expect(await read()).toEqual([
			['A', 'Total'],
			['Note', 'B'],
		]);
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
	it("Type left at its default keeps an existing column's type, and makes a new column Text", async () => {
		emu.addTable(demo.docId, 'PutKeep', [
			{ id: 'Amount', type: 'Numeric' },
			{ id: 'Tags', type: 'ChoiceList', widgetOptions: { choices: ['a'] } },
		]);
		emu.addRecords(demo.docId, 'PutKeep', [{ Amount: 12.5, Tags: ['L', 'a'] }]);
		emu.clearLog();
		const { items, error } = await run({
			operation: 'upsert',
			document: rl('id', demo.docId),
			table: rl('id', 'PutKeep'),
			// as the editor saves it: Type not set, so n8n fills in its default
			columns: {
				column: [{ id: 'Amount', label: 'Total' }, { id: 'Tags', choices: 'a, b' }, { id: 'Note' }],
			},
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{ id: 'Amount', action: 'updated' },
			{ id: 'Tags', action: 'updated' },
			{ id: 'Note', action: 'added' },
		]);
		const put = emu.log.find((e) => e.method === 'PUT')!;
		expect((put.body as { columns: Array<{ fields: Record<string, unknown> }> }).columns).toEqual([
			{ id: 'Amount', fields: { label: 'Total', untieColIdFromLabel: true } },
			{ id: 'Tags', fields: { widgetOptions: JSON.stringify({ choices: ['a', 'b'] }) } },
			{ id: 'Note', fields: { type: 'Text', isFormula: false } },
		]);
		const after = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			table: rl('id', 'PutKeep'),
		});
		expect(after.items.map((i) => [i.json.id, i.json.type, i.json.label])).toEqual([
			['Amount', 'Numeric', 'Total'],
			['Tags', 'ChoiceList', 'Tags'],
			['Note', 'Text', 'Note'],
		]);
		expect(emu.records(demo.docId, 'PutKeep')[0].fields.Amount).toBe(12.5);
	});

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

	it('a Label never renames a listed column: Never Update adds no twin, Remove Columns Not Listed keeps it', async () => {
		emu.addTable(demo.docId, 'PutLabel', [
			{ id: 'A', type: 'Int' },
			{ id: 'B', type: 'Text' },
		]);
		emu.addRecords(demo.docId, 'PutLabel', [{ A: 7, B: 'x' }]);
		const put = (options: Record<string, boolean>, cols: Array<Record<string, unknown>>) =>
			run({
				operation: 'upsert',
				document: rl('id', demo.docId),
				table: rl('id', 'PutLabel'),
				columns: { column: cols },
				options,
			});
		const ids = async () =>
			(
				await run({
					operation: 'getAll',
					document: rl('id', demo.docId),
					table: rl('id', 'PutLabel'),
				})
			).items.map((i) => [i.json.id, i.json.label]);
		emu.clearLog();
		const labelled = await put({}, [
			{ id: 'A', label: 'Amount', type: 'Int' },
			{ id: 'C', label: 'Comment', type: 'Text' },
		]);
		expect(labelled.error).toBeUndefined();
		expect(labelled.items.map((i) => i.json)).toEqual([
			{ id: 'A', action: 'updated' },
			{ id: 'C', action: 'added' },
		]);
		expect(calls().map((c) => c.replace(/\/api\/docs\/\w+\/tables\/PutLabel/, ''))).toEqual([
			'GET /columns',
			'PUT /columns',
			'PATCH /columns',
		]);
		expect((emu.log[1].body as { columns: unknown[] }).columns[0]).toEqual({
			id: 'A',
			fields: { type: 'Int', label: 'Amount', untieColIdFromLabel: true },
		});
		// the new labelled column is untied after the PUT (Grist's add drops the flag)
		expect(emu.log[2].body).toEqual({
			columns: [{ id: 'C', fields: { untieColIdFromLabel: true } }],
		});
		expect(await ids()).toEqual([
			['A', 'Amount'],
			['B', 'B'],
			['C', 'Comment'],
		]);
		const again = await put({ noupdate: true }, [{ id: 'A', label: 'Amount', type: 'Int' }]);
		expect(again.items.map((i) => i.json)).toEqual([{ id: 'A', action: 'unchanged' }]);
		const replace = await put({ replaceall: true }, [{ id: 'A', label: 'Amount', type: 'Int' }]);
		expect(replace.error).toBeUndefined();
		expect(await ids()).toEqual([['A', 'Amount']]);
		expect(emu.records(demo.docId, 'PutLabel')[0].fields).toMatchObject({
			A: 7,
		});
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

describe('a Reference to a table the document lacks', () => {
	it('Update, Create and Create or Update refuse it before any write, naming the table; one read of the tables per execution', async () => {
		emu.addTable(demo.docId, 'Refs', [{ id: 'N', type: 'Int' }]);
		emu.addRecords(demo.docId, 'Refs', [{ N: 3 }]);
		const refs = { document: rl('id', demo.docId), table: rl('id', 'Refs') };
		const writes = () => emu.log.filter((e) => e.method !== 'GET');
		emu.clearLog();
		const update = await run({
			operation: 'update',
			...refs,
			column: rl('id', 'N'),
			updateFields: { type: 'Ref', refTable: 'Ghost' },
		});
		expect(update.error?.message).toMatch(
			/The table "Ghost" does not exist in the document, so a Reference column to it would hold only broken references \(Update Fields: Referenced Table, item 0\)/,
		);
		expect(update.error?.description).toMatch(/Create the table "Ghost" first \(Table → Create\)/);
		expect(writes()).toEqual([]);
		const create = await run(
			{
				operation: 'create',
				...refs,
				columns: { column: [{ id: 'Owner', type: 'RefList', refTable: '={{ $json.t }}' }] },
			},
			{ continueOnFail: true, input: [{ json: { t: 'Ghost' } }, { json: { t: 'refs' } }] },
		);
		expect(create.items.map((i) => i.json.error)).toEqual([
			expect.stringMatching(
				/"Ghost" does not exist .* Reference List column .*column 1\): Referenced Table, item 0/,
			),
			expect.stringMatching(/"refs" does not exist/),
		]);
		expect(create.items[1].json.description ?? '').toMatch(/case-sensitive: did you mean "Refs"/);
		const upsert = await run({
			operation: 'upsert',
			...refs,
			columns: { column: [{ id: 'N', type: 'Ref:Ghost' }] },
		});
		expect(upsert.error?.message).toMatch(/"Ghost" does not exist/);
		expect(writes()).toEqual([]);
		expect(emu.log.filter((e) => e.apiPath === `/api/docs/${demo.docId}/tables`)).toHaveLength(3);
		// an existing table (here the column's own) is fine; the column keeps its ID
		emu.clearLog();
		const ok = await run({
			operation: 'update',
			...refs,
			column: rl('id', 'N'),
			updateFields: { type: 'Ref', refTable: 'Refs' },
		});
		expect(ok.error).toBeUndefined();
		expect(emu.log.map((e) => e.method)).toEqual(['GET', 'GET', 'PATCH']);
		expect(ok.items[0].json).toMatchObject({ id: 'N', type: 'Ref:Refs' });
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
