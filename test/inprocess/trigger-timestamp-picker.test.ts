/**
 * Grist Trigger → Row Added or Updated → Timestamp Column: the columns that a trigger formula
 * updates on any change come first, then those updated on changes to some columns, then the
 * others, marked "not updated automatically" (picking one never fires on other edits). The table
 * is made through /apply, its trigger formulas set as Grist's UI sets them ("Set trigger formula", "Apply on
 * changes to"). The demo site's Tasks table has such a column, Updated At, for trying the event.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { docTable } from '../harness/builders';
import { useDemoSite } from '../harness/demo-site';
import { loadOptions } from '../harness/inprocess';

const fx = useDemoSite();

async function grist(method: string, path: string, body?: unknown): Promise<unknown> {
	const response = await fetch(`${fx.site}/api/docs/${fx.demo.docId}${path}`, {
		method,
		headers: { Authorization: `Bearer ${fx.demo.apiKey}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	return await response.json();
}

const trigger = (recalcWhen: number, recalcDeps: unknown = null) => ({
	isFormula: false,
	formula: 'NOW()',
	recalcWhen,
	recalcDeps,
});

test('Timestamp Column lists trigger-formula columns first and marks the others', async () => {
	const table = `Stamps${Date.now()}`;
	await grist('POST', '/apply', [
		[
			'AddTable',
			table,
			[
				{ id: 'Due', type: 'Date', isFormula: false },
				{ id: 'Score', type: 'Numeric', isFormula: false },
				{ id: 'Created', type: 'DateTime:UTC', isFormula: false },
				{ id: 'Status', type: 'Text', isFormula: false },
				{ id: 'StatusAt', type: 'DateTime:UTC', isFormula: false },
				{ id: 'Edited', type: 'DateTime:UTC', isFormula: false },
				{ id: 'Twice', type: 'Numeric', isFormula: true, formula: '$Score * 2' },
			],
		],
	]);
	const { columns } = (await grist('GET', `/tables/${table}/columns`)) as {
		columns: Array<{ id: string; fields: { colRef: number } }>;
	};
	const status = columns.find((c) => c.id === 'Status')!.fields.colRef;
	// AddTable drops recalcWhen: the trigger formulas are set afterwards, as Grist's UI does
	await grist('PATCH', `/tables/${table}/columns`, {
		columns: [
			{ id: 'Created', fields: trigger(0) },
			{ id: 'StatusAt', fields: trigger(0, ['L', status]) },
			{ id: 'Edited', fields: trigger(2) },
		],
	});
	const options = (await loadOptions({
		node: new GristTrigger(),
		kind: 'loadOptions',
		method: 'getTimestampColumns',
		parameters: { ...docTable(fx.demo.docId, table), event: 'rowAddedOrUpdated' },
		credentials: { apiKey: fx.demo.apiKey, url: fx.site },
	})) as INodePropertyOptions[];
	expect(options.map((o) => [o.name, o.value, o.description])).toEqual([
		['Edited', 'Edited', 'DateTime (UTC) · trigger formula, on any change'],
		['StatusAt', 'StatusAt', 'DateTime (UTC) · trigger formula, on changes to Status only'],
		[
			'Due (not updated automatically)',
			'Due',
			'Date · no trigger formula: changes only when written',
		],
		[
			'Score (not updated automatically)',
			'Score',
			'Numeric · no trigger formula: changes only when written',
		],
		[
			'Created (not updated automatically)',
			'Created',
			'DateTime (UTC) · no trigger formula: changes only when written',
		],
		[
			'Twice (not updated automatically)',
			'Twice',
			'Numeric · no trigger formula: changes only when written',
		],
	]);
});

test("the demo's Tasks table has one for Row Added or Updated: Updated At, NOW() on any change", async () => {
	const options = (await loadOptions({
		node: new GristTrigger(),
		kind: 'loadOptions',
		method: 'getTimestampColumns',
		parameters: { ...docTable(fx.demo.doc2Id, 'Tasks'), event: 'rowAddedOrUpdated' },
		credentials: { apiKey: fx.demo.apiKey, url: fx.site },
	})) as INodePropertyOptions[];
	expect(options[0]).toEqual({
		name: 'Updated At (UpdatedAt)',
		value: 'UpdatedAt',
		description: 'DateTime (UTC) · trigger formula, on any change',
	});

	// seeded rows got their stamp; a change to any field of a row moves that row's stamp only
	const tasks = `${fx.site}/api/docs/${fx.demo.doc2Id}/tables/Tasks/records`;
	const headers = {
		Authorization: `Bearer ${fx.demo.apiKey}`,
		'Content-Type': 'application/json',
	};
	const stamps = async () => {
		const res = await fetch(tasks, { headers });
		expect(res.status).toBe(200);
		const { records } = (await res.json()) as {
			records: Array<{ id: number; fields: { UpdatedAt: unknown } }>;
		};
		return records.map((r) => ({ id: r.id, at: r.fields.UpdatedAt as number }));
	};
	const before = await stamps();
	expect(before).toHaveLength(2);
	for (const { at } of before) expect(at).toEqual(expect.any(Number));
	const patched = await fetch(tasks, {
		method: 'PATCH',
		headers,
		body: JSON.stringify({ records: [{ id: before[1].id, fields: { Points: 13 } }] }),
	});
	expect(patched.status).toBe(200);
	const after = await stamps();
	expect(after[0]).toEqual(before[0]);
	expect(after[1].at).toBeGreaterThan(before[1].at);
});
