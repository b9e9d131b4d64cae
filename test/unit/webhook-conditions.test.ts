import {
	buildWebhookCondition,
	conditionEventTypes,
	conditionKey,
	conditionWatchedColumns,
	formulaColumns,
	sameCondition,
	webhookConditions,
	type ConditionColumn,
} from '../../nodes/Grist/webhooks/webhookConditions';
import { InputError } from '../../nodes/Grist/errors/gristAnswers';
import { matchRegistration, webhookFields } from '../../nodes/Grist/webhooks/webhookFields';

const columns: ConditionColumn[] = [
	{ id: 'Status', type: 'Choice', colRef: 7 },
	{ id: 'Amount', type: 'Numeric', colRef: 8 },
	{ id: 'Due', type: 'Date', colRef: 9 },
	{ id: 'Owner', type: 'Ref:People', colRef: 10 },
	{ id: 'Tags', type: 'ChoiceList', colRef: 11 },
	{ id: 'Name', type: 'Text', colRef: 12 },
];

const configOf = (condition: string | null) =>
	(JSON.parse(condition!) as { config: Record<string, unknown> }).config;
const filtersOf = (condition: string | null) =>
	(configOf(condition).columnFilters as Array<{ colRef: number; filter: string }>).map((f) => ({
		colRef: f.colRef,
		filter: JSON.parse(f.filter) as unknown,
	}));

describe('buildWebhookCondition', () => {
	it('no condition: null, as saved workflows had', () => {
		expect(buildWebhookCondition({ type: 'none' }, columns)).toEqual({
			condition: null,
			columns: [],
			notifyWhen: 'matching',
		});
	});

	it('maps Get Many matches to FilterSpecs with values in the column type', () => {
		const built = buildWebhookCondition(
			{
				type: 'conditions',
				notifyWhen: 'enters',
				filters: [
					{ column: 'Status', match: 'anyOf', values: 'Open, Approved' },
					{ column: 'Status', match: 'notEquals', values: 'Rejected' },
					{ column: 'Amount', match: 'between', values: '10', value2: 20.5 },
					{ column: 'Due', match: 'lte', values: '2024-01-31' },
					{ column: 'Owner', match: 'noneOf', values: '3' },
					{ column: 'Tags', match: 'equals', values: 'urgent' },
					{ column: 'Name', match: 'isEmpty' },
					{ column: 'Amount', match: 'isNotEmpty' },
				],
			},
			columns,
		);
		expect(filtersOf(built.condition)).toEqual([
			{ colRef: 7, filter: { included: ['Open', 'Approved'] } },
			{ colRef: 7, filter: { excluded: ['Rejected'] } },
			{ colRef: 8, filter: { min: 10, max: 20.5 } },
			{ colRef: 9, filter: { max: 1706659200 } },
			{ colRef: 10, filter: { excluded: [3] } },
			{ colRef: 11, filter: { included: ['urgent'] } },
			{ colRef: 12, filter: { included: ['', null] } },
			{ colRef: 8, filter: { excluded: [null] } },
		]);
		expect(configOf(built.condition).notifyWhen).toBe('enters');
		expect(built.columns).toEqual(['Status', 'Amount', 'Due', 'Owner', 'Tags', 'Name']);
	});

	it('While Matching sends no notifyWhen (Grist: M(now), as before conditions)', () => {
		const built = buildWebhookCondition(
			{ type: 'conditions', filters: [{ column: 'Status', values: 'Open' }] },
			columns,
		);
		expect(configOf(built.condition)).toEqual({
			columnFilters: [{ colRef: 7, filter: '{"included":["Open"]}' }],
		});
	});

	it('a formula is a custom expression, its columns checked', () => {
		const built = buildWebhookCondition(
			{
				type: 'formula',
				formula: ' $Status == "Approved" and rec.Amount > 1e3 ',
				notifyWhen: 'leaves',
			},
			columns,
		);
		expect(configOf(built.condition)).toEqual({
			customExpression: '$Status == "Approved" and rec.Amount > 1e3',
			notifyWhen: 'leaves',
		});
		expect(built.columns).toEqual(['Status', 'Amount']);
	});

	it.each([
		[{ type: 'conditions', filters: [] }, /no condition was added/],
		[{ type: 'conditions', filters: [{ column: 'Nope', values: 'x' }] }, /no column "Nope"/],
		[{ type: 'conditions', filters: [{ column: '', values: 'x' }] }, /no column is picked/],
		[
			{ type: 'conditions', filters: [{ column: 'Status', match: 'gte', values: 'a' }] },
			/Choice column/,
		],
		[
			{ type: 'conditions', filters: [{ column: 'Amount', match: 'contains', values: '1' }] },
			/cannot be sent/,
		],
		[
			{ type: 'conditions', filters: [{ column: 'Amount', values: 'ten' }] },
			/does not fit the Numeric column "Amount"/,
		],
		[
			{ type: 'conditions', filters: [{ column: 'Amount', match: 'gte', values: '' }] },
			/empty or not a number/,
		],
		[{ type: 'formula', formula: '' }, /is empty/],
		[{ type: 'conditions', notifyWhen: 'sometimes', filters: [] }, /not a When choice/],
	])('refuses %j', (input, message) => {
		expect(() => buildWebhookCondition(input, columns)).toThrow(message);
		expect(() => buildWebhookCondition(input, columns)).toThrow(InputError);
	});
});

describe('formulaColumns', () => {
	it.each([
		['$Statu == "x"', /column "Statu"/],
		['rec.Nope > 1', /column "Nope"/],
		['user.Email == "x"', /name "user"/],
		['oldRec.Status == "Open"', /oldRec/],
		['$Name.strip() == "x"', /"\.strip"/],
		['$Name == "x', /unclosed quote/],
	])('refuses %s (Grist would ignore it or never match)', (formula, message) => {
		expect(() =>
			formulaColumns(
				formula,
				columns.map((c) => c.id),
			),
		).toThrow(message);
	});

	it('accepts names inside strings, string methods, keywords, lists and id', () => {
		expect(
			formulaColumns(
				'$Name.lower() in ["user x", "rec.Nope"] and not $Owner is None or rec.id > 2',
				['Name', 'Owner'],
			),
		).toEqual(['Name', 'Owner', 'id']);
	});
});

describe('event types and watched columns of a When choice', () => {
	it('transitions need add and update; While Matching keeps Trigger On', () => {
		expect(conditionEventTypes(['add'], 'matching')).toEqual(['add']);
		expect(conditionEventTypes(['add'], 'enters')).toEqual(['add', 'update']);
		expect(conditionEventTypes(['update'], 'leaves')).toEqual(['add', 'update']);
	});

	it('enters / leaves watch the condition columns; updated the table; the user’s win', () => {
		const table = ['Status', 'Amount', 'Name'];
		expect(conditionWatchedColumns('matching', ['Status'], [], table)).toEqual([]);
		expect(conditionWatchedColumns('matching', ['Status'], ['Name'], table)).toEqual(['Name']);
		expect(conditionWatchedColumns('enters', ['Status'], [], table)).toEqual(['Status']);
		expect(conditionWatchedColumns('leaves', ['Status'], ['Name'], table)).toEqual([
			'Name',
			'Status',
		]);
		expect(conditionWatchedColumns('updated', ['Status'], [], table)).toEqual(table);
	});
});

describe('comparing the stored condition (GET /triggers)', () => {
	const wanted = buildWebhookCondition(
		{ type: 'formula', formula: '$Amount > 1', notifyWhen: 'enters' },
		columns,
	).condition;

	it('ignores what Grist adds (customExpressionParsed, key order, spacing)', () => {
		const stored =
			'{"config": {"notifyWhen": "enters", "customExpression": "$Amount > 1", "customExpressionParsed": ["Gt"]}}';
		expect(sameCondition(stored, wanted)).toBe(true);
		expect(sameCondition(stored.replace('enters', 'leaves'), wanted)).toBe(false);
		expect(sameCondition('', null)).toBe(true);
		expect(sameCondition(null, null)).toBe(true);
		expect(sameCondition(stored, null)).toBe(false);
		expect(conditionKey('{"text": "$A > 1", "parsed": []}')).toBe(conditionKey('$A > 1'));
	});

	it('maps webhook ids to their trigger’s condition', () => {
		const map = webhookConditions([
			{
				id: 1,
				fields: {
					actions: '[{"type":"webhook","id":"w1"},{"type":"email","to":"a@b.c"}]',
					condition: 'c1',
				},
			},
			{ id: 2, fields: { actions: '[{"type":"webhook","id":"w2"}]', condition: null } },
			{ id: 3, fields: { actions: 'not json' } },
		]);
		expect([...map]).toEqual([
			['w1', 'c1'],
			['w2', ''],
		]);
	});

	it('a registration with another condition is not kept', () => {
		const s = {
			url: 'https://n/w',
			tableId: 'T',
			eventTypes: ['add' as const],
			isReadyColumn: null,
			watchedColIds: [],
			condition: wanted,
		};
		const list = [
			{ id: 'a', fields: webhookFields(s, 'x') },
			{ id: 'b', fields: webhookFields(s, 'y') },
		];
		const conditions = new Map([
			['a', ''],
			['b', wanted!],
		]);
		const r = matchRegistration(list, s, 'a', (w) => sameCondition(conditions.get(w.id), wanted));
		expect(r.keep?.id).toBe('b');
		expect(r.remove.map((w) => w.id)).toEqual(['a']);
		expect(webhookFields(s, 'x').condition).toBe(wanted);
	});
});
