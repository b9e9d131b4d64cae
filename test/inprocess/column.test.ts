/**
 * column.getAll (level b) against the emulator.
 */
import { Grist } from '../../nodes/Grist/Grist.node';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { runNode } from '../harness/inprocess';

let emu: GristEmulator;
let demo: DemoSite;

beforeAll(async () => {
	emu = await startEmulator();
	demo = emu.seedDemo();
});
afterAll(async () => await emu.close());
beforeEach(() => emu.clearLog());

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

async function run(table: string, options = {}, continueOnFail = false) {
	return await runNode({
		node: new Grist(),
		parameters: {
			resource: 'column',
			operation: 'getAll',
			document: rl(demo.docId),
			table: rl(table),
			options,
		},
		credentials: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
		continueOnFail,
	});
}

describe('column.getAll', () => {
	it("lists the table's columns with label, type, formula and whether it is a formula", async () => {
		const { items, error } = await run('Orders');
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.id, i.json.type, i.json.isFormula, i.json.formula])).toEqual([
			['Customer', 'Ref:Customers', false, ''],
			['Amount', 'Numeric', false, ''],
			['Ordered', 'Date', false, ''],
			['Status', 'Choice', false, ''],
			['Tags', 'ChoiceList', false, ''],
			['Invoice', 'Attachments', false, ''],
			['Total', 'Numeric', true, '$Amount * 2'],
		]);
		expect(items[3].json).toMatchObject({
			label: 'Status',
			widgetOptions: { choices: ['New', 'Paid', 'Shipped'] },
			choices: ['New', 'Paid', 'Shipped'],
		});
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(emu.log.map((e) => [e.method, e.apiPath, e.query])).toEqual([
			['GET', `/api/docs/${demo.docId}/tables/Orders/columns`, {}],
		]);
	});

	it('includes hidden columns on request', async () => {
		const { items } = await run('Orders', { includeHidden: true });
		expect(items.map((i) => i.json.id)).toContain('manualSort');
		expect(emu.log[0].query).toEqual({ hidden: '1' });
	});

	it("gives Grist's message for an unknown table", async () => {
		const { error } = await run('Nope');
		expect(error?.message).toBe('Table not found "Nope"');
		const { items } = await run('Nope', {}, true);
		expect(items.map((i) => i.json.error)).toEqual(['Table not found "Nope"']);
	});
});
