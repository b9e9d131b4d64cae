/**
 * One Filter vocabulary (parameters/filterFields.ts) in every place that picks rows: Record → Get
 * Many, Columnar → Get Many, the Grist Trigger, the Grist Instant Trigger, Webhook → Create /
 * Update; and the SELECT of conditions with the caller's own tests (query/recordConditions.ts
 * `where`), which the polling trigger's cursors use.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { ALL_MATCHES, WEBHOOK_MATCHES } from '../../nodes/Grist/parameters/filterFields';
import { buildConditionQuery } from '../../nodes/Grist/query/recordConditions';

const grist = new Grist().description.properties;

/** The fields of one place: the Grist node's for a resource and operation, or a trigger's. */
function place(properties: INodeProperties[], resource?: string, operation?: string) {
	return properties.filter((p) => {
		const show = p.displayOptions?.show ?? {};
		return (
			resource === undefined ||
			((show.resource as string[] | undefined)?.includes(resource) &&
				(show.operation as string[] | undefined)?.includes(operation ?? ''))
		);
	});
}

function field(fields: INodeProperties[], name: string): INodeProperties | undefined {
	return fields.find((p) => p.name === name);
}

const values = (p: INodeProperties | undefined) =>
	((p?.options ?? []) as INodePropertyOptions[]).map((o) => `${o.name}=${String(o.value)}`);

/** The Match options of a place's condition, and the names of a condition's fields. */
function condition(fields: INodeProperties[]) {
	const list = field(fields, 'conditions');
	const entry = (list?.options ?? [])[0] as { name: string; values: INodeProperties[] };
	return {
		list,
		entryName: entry.name,
		fieldNames: entry.values.map((v) => `${v.displayName}:${v.name}`),
		matches: values(entry.values.find((v) => v.name === 'match')),
	};
}

const places = {
	'Record → Get Many': place(grist, 'record', 'getAll'),
	'Columnar → Get Many': place(grist, 'columnar', 'getAll'),
	'Grist Trigger': place(new GristTrigger().description.properties),
	'Grist Instant Trigger': place(new GristWebhookTrigger().description.properties),
	'Webhook → Create': place(grist, 'webhook', 'create'),
	'Webhook → Update': place(grist, 'webhook', 'update'),
};

describe('one Filter in every place', () => {
	it.each(Object.entries(places))('%s: Filter (filterType) and Conditions', (_name, fields) => {
		const filter = field(fields, 'filterType');
		expect(filter?.displayName).toBe('Filter');
		const options = values(filter);
		expect(options).toContain('None=none');
		expect(options).toContain('Conditions=conditions');
		// in this order where they are offered
		const order = [
			'Keep as Is=keep',
			'None=none',
			'Conditions=conditions',
			'Formula=formula',
			'JSON=json',
		];
		expect(options).toEqual(order.filter((o) => options.includes(o)));
		const c = condition(fields);
		expect(c.list?.displayName).toBe('Conditions');
		expect(c.entryName).toBe('conditions');
		expect(c.list?.displayOptions?.show?.filterType).toEqual(['conditions']);
		expect(c.fieldNames[1]).toBe('Match:match');
	});

	it('each place offers what it can run, the matches named alike', () => {
		const get = places['Record → Get Many'];
		expect(values(field(get, 'filterType'))).toEqual([
			'None=none',
			'Conditions=conditions',
			'JSON=json',
		]);
		expect(condition(get).matches.map((m) => m.split('=')[1])).toEqual(ALL_MATCHES);
		expect(condition(get).fieldNames).toEqual([
			'Column Name or ID:column',
			'Match:match',
			'Values:values',
			'From:values',
			'To:value2',
			'Value:values',
			'Ignore Case:ignoreCase',
		]);
		expect(field(get, 'combine')?.displayName).toBe('Combine');
		expect(field(get, 'filterJson')?.displayName).toBe('Filter (JSON)');

		const trigger = places['Grist Trigger'];
		expect(values(field(trigger, 'filterType'))).toEqual(values(field(get, 'filterType')));
		expect(condition(trigger).matches).toEqual(condition(get).matches);
		expect(condition(trigger).fieldNames).toEqual(condition(get).fieldNames);
		expect(field(trigger, 'combine')).toBeDefined();
		// every event has it: the change events test each changed row (query/rowMatch.ts)
		expect(field(trigger, 'filterType')?.displayOptions).toBeUndefined();
		expect(field(trigger, 'filterType')?.description).toMatch(/deleted row's last values/);

		const columnar = places['Columnar → Get Many'];
		expect(condition(columnar).matches).toEqual(['Is One Of=anyOf', 'Is Empty=isEmpty']);
		expect(field(columnar, 'combine')).toBeUndefined();

		const instant = places['Grist Instant Trigger'];
		expect(values(field(instant, 'filterType'))).toEqual([
			'None=none',
			'Conditions=conditions',
			'Formula=formula',
		]);
		expect(condition(instant).matches.map((m) => m.split('=')[1])).toEqual(WEBHOOK_MATCHES);
		// a match has the same name and description wherever it is offered
		const byValue = (fields: INodeProperties[]) =>
			(
				((condition(fields).list?.options?.[0] as { values: INodeProperties[] }).values.find(
					(v) => v.name === 'match',
				)?.options ?? []) as INodePropertyOptions[]
			).map((o) => JSON.stringify(o));
		for (const o of byValue(instant)) expect(byValue(get)).toContain(o);
		expect(field(instant, 'filterFormula')?.displayOptions?.show?.filterType).toEqual(['formula']);
		expect(field(instant, 'notifyWhen')?.displayOptions?.show?.filterType).toEqual([
			'conditions',
			'formula',
		]);

		const update = places['Webhook → Update'];
		expect(values(field(update, 'filterType'))[0]).toBe('Keep as Is=keep');
		expect(field(update, 'filterType')?.default).toBe('keep');
		expect(condition(update).fieldNames[0]).toBe('Column ID:column');
	});
});

describe('conditions with the caller’s own tests (where)', () => {
	const types = { Status: 'Text', Score: 'Numeric', Updated: 'DateTime:UTC' };

	it('ANDs the tests with the conditions, the values bound in order', () => {
		const q = buildConditionQuery({
			tableId: 'T',
			conditions: [
				{ column: 'Status', match: 'startsWith', values: 'Op' },
				{ column: 'Score', match: 'gt', values: '5' },
			],
			combine: 'or',
			types,
			sort: [{ column: 'id', direction: 'asc' }],
			limit: 3,
			where: { id: [4, 5] },
		});
		expect(q.sql).toBe(
			'SELECT * FROM "T" WHERE (((substr("Status", 1, length(?)) = ?)) OR ((typeof("Score") IN (\'integer\', \'real\') AND "Score" > ?))) AND ("id" IN (?, ?)) ORDER BY "id" ASC, "id" ASC LIMIT ?',
		);
		expect(q.args).toEqual(['Op', 'Op', 5, 4, 5, 3]);
	});

	it('an empty list matches no row; no conditions: only the tests', () => {
		const q = buildConditionQuery({
			tableId: 'T',
			conditions: [],
			combine: 'and',
			types,
			where: { id: [] },
		});
		expect(q.sql).toBe('SELECT * FROM "T" WHERE 0 ORDER BY "id" ASC');
		const r = buildConditionQuery({
			tableId: 'T',
			conditions: [],
			combine: 'and',
			types,
			where: { Updated: [1700000000] },
		});
		expect(r.sql).toBe('SELECT * FROM "T" WHERE "Updated" IN (?) ORDER BY "id" ASC');
		expect(r.args).toEqual([1700000000]);
	});
});
