/**
 * Record → Get Many filter builder, "Is Empty" and empty Values: the real node
 * in n8n-core against the emulator; the filter sent is read from the emulator's request log.
 */
import type { INodeProperties } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => {
	({ emu, demo } = fx);
	emu.addTable(demo.docId, 'Tasks', [
		{ id: 'Title', type: 'Text' },
		{ id: 'Note', type: 'Text' },
		{ id: 'Due', type: 'Date' },
		{ id: 'Hours', type: 'Numeric' },
	]);
	emu.addRecords(demo.docId, 'Tasks', [
		{ Title: 'a', Note: 'call back', Due: 1704844800, Hours: 2 },
		{ Title: 'b', Note: '', Due: null, Hours: 0 },
		{ Title: 'c', Note: null, Due: 1704931200, Hours: null },
		{ Title: 'd', Note: 'later', Due: null, Hours: 1 },
	]);
});
const run = resourceRunner(fx, 'record');

const getMany = async (conditions: Array<Record<string, unknown>>) =>
	await run({
		operation: 'getAll',
		document: rl('id', demo.docId),
		table: rl('id', 'Tasks'),
		returnAll: true,
		filterType: 'conditions',
		conditions: { conditions },
	});
const sentFilter = () => emu.log.find((e) => e.apiPath.endsWith('/data'))?.query.filter;

describe('"Is Empty" condition', () => {
	it('on a Text column matches empty text and no value, and sends both', async () => {
		const { items, error } = await getMany([{ column: 'Note', match: 'isEmpty' }]);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.Title)).toEqual(['b', 'c']);
		expect(sentFilter()).toBe('{"Note":["",null]}');
	});

	it('on a Date column matches rows without a date; with a second condition both must hold', async () => {
		const due = await getMany([{ column: 'Due', match: 'isEmpty' }]);
		expect(due.items.map((i) => i.json.Title)).toEqual(['b', 'd']);
		expect(sentFilter()).toBe('{"Due":[null]}');
		emu.clearLog();
		const both = await getMany([
			{ column: 'Due', match: 'isEmpty' },
			{ column: 'Note', match: 'anyOf', values: 'later' },
		]);
		expect(both.items.map((i) => i.json.Title)).toEqual(['d']);
		expect(sentFilter()).toBe('{"Due":[null],"Note":["later"]}');
	});

	it('on a Numeric column does not take 0 for empty', async () => {
		const { items } = await getMany([{ column: 'Hours', match: 'isEmpty' }]);
		expect(items.map((i) => i.json.Title)).toEqual(['c']);
	});

	it('on the row ID is refused before reading records', async () => {
		const { error } = await getMany([{ column: 'id', match: 'isEmpty' }]);
		expect(error?.message).toBe('Filter condition 1: the row ID (id) is never empty (item 0)');
		expect(emu.log.filter((e) => e.apiPath.endsWith('/records'))).toEqual([]);
	});
});

describe('conditions saved before "Match" existed', () => {
	it('keep their request: values as before, and empty Values still match only empty cells (not every row)', async () => {
		const { items, error } = await getMany([{ column: 'Note', values: '' }]);
		expect(error).toBeUndefined();
		expect(sentFilter()).toBe('{"Note":[""]}');
		expect(items.map((i) => i.json.Title)).toEqual(['b']);
		emu.clearLog();
		const some = await getMany([{ column: 'Note', values: 'later, call back' }]);
		expect(some.items.map((i) => i.json.Title)).toEqual(['a', 'd']);
		expect(sentFilter()).toBe('{"Note":["later","call back"]}');
	});
});

describe('the builder fields', () => {
	const condition = () => {
		const filters = new Grist().description.properties.find(
			(p) => p.name === 'conditions' && p.displayOptions?.show?.resource?.includes('record'),
		) as INodeProperties & { options: Array<{ values: INodeProperties[] }> };
		return filters.options[0].values;
	};

	it('offer "Is One Of" (the default, as before), "Is Empty" and the other conditions; no Values for the empty tests', () => {
		const match = condition().find((p) => p.name === 'match');
		expect(match?.default).toBe('anyOf');
		expect((match?.options as Array<{ value: string }>).map((o) => o.value)).toEqual(
			expect.arrayContaining(['isEmpty', 'anyOf', 'isNotEmpty', 'gt', 'between', 'contains']),
		);
		// one `values` parameter, labelled by the match: "Values" for lists, "From" for Between,
		// "Value" for one value (Greater Than's single input is no longer "Values"), none for the empty tests
		const shownFor = (match: string) =>
			condition()
				.filter((p) => p.name === 'values')
				.filter(({ displayOptions: d }) =>
					d?.show?.match ? d.show.match.includes(match) : !d?.hide?.match?.includes(match),
				)
				.map((p) => p.displayName);
		expect(
			(match?.options as Array<{ value: string }>).map((o) => [o.value, shownFor(o.value)]),
		).toEqual([
			['anyOf', ['Values']],
			['noneOf', ['Values']],
			['equals', ['Value']],
			['notEquals', ['Value']],
			['gt', ['Value']],
			['gte', ['Value']],
			['lt', ['Value']],
			['lte', ['Value']],
			['between', ['From']],
			['contains', ['Value']],
			['notContains', ['Value']],
			['startsWith', ['Value']],
			['endsWith', ['Value']],
			['isEmpty', []],
			['isNotEmpty', []],
		]);
	});

	it('say that empty Values match only empty cells', () => {
		expect(condition().find((p) => p.name === 'values')?.description).toContain(
			'Left empty, the condition matches only empty cells, not every row',
		);
	});
});

describe('a filter on a column the table lacks', () => {
	it("keeps Grist's KeyError text and adds a hint that names the column and the way out", async () => {
		const { items, error } = await run({
			operation: 'getAll',
			document: rl('id', demo.docId),
			table: rl('id', 'Tasks'),
			returnAll: true,
			filterType: 'json',
			filterJson: '{"Nope": ["x"]}',
		});
		expect(items).toEqual([]);
		expect(error?.message).toBe("Error manipulating data: [Sandbox] KeyError 'Nope'");
		expect(error?.description).toContain('"Nope"');
		expect(error?.description).toContain('table "Tasks"');
		expect(error?.description).toContain('column ID');
		expect(error?.description).toContain('Column resource');
	});
});
