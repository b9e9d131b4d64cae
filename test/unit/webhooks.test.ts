import {
	columnIdList,
	deliveredItem,
	deliveredRecords,
	eventTypesFor,
	isFailing,
	matchRegistration,
	secretOf,
	secretsEqual,
	unknownColumns,
	unreachableUrlProblem,
	usageSummary,
	webhookFields,
	type WebhookSettings,
	type WebhookSummary,
} from '../../nodes/Grist/webhooks/webhookFields';
import { forbiddenUrlHint } from '../../nodes/Grist/errors/hints';

const wanted: WebhookSettings = {
	url: 'https://n8n.example.com/webhook/abc/webhook',
	tableId: 'People',
	eventTypes: ['add', 'update'],
	isReadyColumn: null,
	watchedColIds: [],
};
const summary = (id: string, fields: Partial<WebhookSummary['fields']>): WebhookSummary => ({
	id,
	fields: { ...webhookFields(wanted, 'sec-' + id), ...fields },
});

test('fields of a registration', () => {
	expect(eventTypesFor('add')).toEqual(['add']);
	expect(eventTypesFor('update')).toEqual(['update']);
	expect(eventTypesFor('addOrUpdate')).toEqual(['add', 'update']);
	expect(columnIdList(' A, B ,,A')).toEqual(['A', 'B']);
	expect(columnIdList(['X', ' Y'])).toEqual(['X', 'Y']);
	expect(webhookFields({ ...wanted, isReadyColumn: 'Ready', watchedColIds: ['N'] }, 's3')).toEqual({
		url: wanted.url,
		authorization: 'Bearer s3',
		eventTypes: ['add', 'update'],
		tableId: 'People',
		enabled: true,
		isReadyColumn: 'Ready',
		watchedColIds: ['N'],
	});
	expect(secretOf('Bearer abc')).toBe('abc');
	expect(secretOf('Basic abc')).toBeUndefined();
	expect(secretOf(undefined)).toBeUndefined();
});

test('matchRegistration keeps one same-URL registration with the same settings and removes the others', () => {
	const list = [
		summary('other-url', { url: 'https://elsewhere.example.com/x' }),
		summary('stale', { eventTypes: ['add'] }),
		summary('a', { eventTypes: ['update', 'add'] }),
		summary('b', {}),
		summary('no-secret', { authorization: undefined }),
	];
	let m = matchRegistration(list, wanted);
	expect(m.keep?.id).toBe('a');
	expect(m.keep?.secret).toBe('sec-a');
	expect(m.remove.map((w) => w.id)).toEqual(['stale', 'b', 'no-secret']);
	m = matchRegistration(list, wanted, 'b');
	expect(m.keep?.id).toBe('b');
	expect(m.remove.map((w) => w.id)).toEqual(['stale', 'a', 'no-secret']);
	m = matchRegistration(list, { ...wanted, isReadyColumn: 'Ready' });
	expect(m.keep).toBeUndefined();
	expect(m.remove).toHaveLength(4);
	expect(matchRegistration([summary('d', { enabled: false })], wanted).keep).toBeUndefined();
});

test('usage', () => {
	expect(usageSummary(null)).toBe('idle');
	const failing = {
		numWaiting: 3,
		status: 'retrying',
		lastEventBatch: {
			status: 'failure',
			httpStatus: 500,
			errorMessage: 'boom',
			size: 1,
			attempts: 2,
		},
	};
	expect(usageSummary(failing)).toBe('3 waiting, retrying: HTTP 500 boom');
	expect(isFailing(failing)).toBe(true);
	expect(isFailing({ numWaiting: 0, status: 'idle', lastEventBatch: null })).toBe(false);
});

test('URL problems: unreachable from getgrist.com, forbidden on a self-hosted server', () => {
	for (const url of [
		'http://localhost:5678/webhook/x',
		'https://127.0.0.1/webhook/x',
		'http://n8n.example.com/webhook/x',
		'https://n8n:5678/webhook/x',
		'https://192.168.1.5/webhook/x',
	]) {
		const p = unreachableUrlProblem(url, 'docs.getgrist.com');
		expect(p?.hint).toMatch(/WEBHOOK_URL.*public https.*polling/);
	}
	expect(
		unreachableUrlProblem('https://n8n.example.com/webhook/x', 'team.getgrist.com'),
	).toBeUndefined();
	expect(unreachableUrlProblem('http://localhost:5678/webhook/x', 'grist.local')).toBeUndefined();
	expect(forbiddenUrlHint('https://n8n.example.com/webhook/x', 'grist.example.com')).toMatch(
		/ALLOWED_WEBHOOK_DOMAINS to include n8n\.example\.com.*https/,
	);
	expect(forbiddenUrlHint('https://n8n.example.com/webhook/x', 'docs.getgrist.com')).toMatch(
		/public https/,
	);
});

test('deliveries: records checked, simplified like Get Many or kept as sent', () => {
	expect(deliveredRecords({})).toEqual({ problem: 'the body is not a JSON array of records' });
	expect(deliveredRecords([{ id: 1 }, 'x'])).toEqual({ problem: 'record 2 is not an object' });
	expect(deliveredRecords([{ Name: 'a' }])).toEqual({ problem: 'record 1 has no numeric id' });
	const rec = { id: 1, manualSort: 1, Name: 'a', When: 1700000000, Tags: ['L', 'x'], Due: null };
	expect(deliveredRecords([rec])).toEqual({ records: [rec] });
	const types = { Name: 'Text', When: 'Date', Tags: 'ChoiceList', Due: 'Date' };
	expect(deliveredItem(rec, true, types)).toEqual({
		id: 1,
		Name: 'a',
		When: '2023-11-14',
		Tags: ['x'],
		Due: null,
	});
	expect(deliveredItem(rec, false, types)).toEqual(rec);
	expect(unknownColumns([rec, { id: 2, New: 1, gristHelper_x: 1 }], types)).toEqual(['New']);
	expect(secretsEqual('abc', 'abc')).toBe(true);
	expect(secretsEqual('abc', 'abd')).toBe(false);
	expect(secretsEqual('abc', 'abcd')).toBe(false);
	expect(secretsEqual('', 'a')).toBe(false);
});
