/**
 * column.getAll (level b) against the emulator.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { docTable } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const column = resourceRunner(fx, 'column');

const run = async (table: string, options = {}, continueOnFail = false) =>
	await column(
		{ operation: 'getAll', ...docTable(demo.docId, table), options },
		{ continueOnFail },
	);

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
