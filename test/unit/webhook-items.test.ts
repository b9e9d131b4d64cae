/** webhooks/webhookItems.ts: webhook output items (no secrets), Update's PATCH body. */
import {
	completePatch,
	triggerOnOf,
	webhookItem,
	webhookPatch,
} from '../../nodes/Grist/webhooks/webhookItems';

const hook = {
	id: 'w1',
	fields: {
		url: 'https://x.test/h',
		authorization: 'Bearer s3cret',
		unsubscribeKey: 'uk',
		eventTypes: ['add' as const, 'update' as const],
		tableId: 'T',
		isReadyColumn: 'Ready',
		watchedColIds: ['A', ''],
		enabled: true,
		name: 'n',
		memo: 'm',
	},
	usage: {
		numWaiting: 2,
		status: 'retrying',
		lastHttpStatus: 500,
		lastErrorMessage: 'Internal Server Error',
		lastFailureTime: 0,
		lastEventBatch: {
			status: 'failure',
			httpStatus: 500,
			errorMessage: 'boom',
			size: 1,
			attempts: 3,
		},
	},
};

describe('webhookItem', () => {
	it('simplified: Instant Trigger terms and delivery health, never the secret', () => {
		const item = webhookItem(hook, true);
		expect(item).toMatchObject({
			id: 'w1',
			event: 'addOrUpdate',
			readyColumn: 'Ready',
			watchedColumns: ['A'],
			hasAuthorization: true,
			status: 'retrying',
			waiting: 2,
			failing: true,
			lastHttpStatus: 500,
			lastErrorMessage: 'Internal Server Error',
			lastFailureAt: '1970-01-01T00:00:00.000Z',
			lastSuccessAt: null,
		});
		expect(JSON.stringify(item)).not.toMatch(/s3cret|"uk"/);
	});

	it("raw: Grist's fields and usage without authorization and unsubscribeKey", () => {
		const item = webhookItem(hook, false);
		expect(item.fields).not.toHaveProperty('authorization');
		expect(item.fields).not.toHaveProperty('unsubscribeKey');
		expect(item.usage).toEqual(hook.usage);
	});

	it('a webhook that never delivered is idle', () => {
		expect(webhookItem({ id: 'w', fields: { url: 'u' }, usage: null }, true)).toMatchObject({
			status: 'idle',
			waiting: 0,
			failing: false,
			health: 'idle',
			hasAuthorization: false,
		});
	});
});

describe('triggerOnOf', () => {
	it('maps eventTypes to Trigger On', () => {
		expect(triggerOnOf(['add'])).toBe('add');
		expect(triggerOnOf(['update'])).toBe('update');
		expect(triggerOnOf(['update', 'add'])).toBe('addOrUpdate');
		expect(triggerOnOf([])).toBeUndefined();
	});
});

describe('webhookPatch and completePatch', () => {
	it('builds the PATCH body; an empty Ready Column clears it; empty URL is an error', () => {
		expect(webhookPatch({ enabled: false, readyColumn: '', event: 'update' })).toEqual({
			enabled: false,
			isReadyColumn: null,
			eventTypes: ['update'],
		});
		expect(webhookPatch({ watchedColumns: 'A, B,A' })).toEqual({ watchedColIds: ['A', 'B'] });
		expect(() => webhookPatch({ url: ' ' })).toThrow('the URL is empty');
	});

	it('adds the current table to a change of watched columns, keeps settings on the same table', () => {
		expect(completePatch({ watchedColIds: ['B'] }, hook.fields)).toEqual({
			watchedColIds: ['B'],
			tableId: 'T',
			isReadyColumn: 'Ready',
		});
		expect(completePatch({ tableId: 'T' }, hook.fields)).toEqual({
			tableId: 'T',
			watchedColIds: ['A'],
			isReadyColumn: 'Ready',
		});
		expect(completePatch({ tableId: 'Other' }, hook.fields)).toEqual({ tableId: 'Other' });
		expect(completePatch({ enabled: true }, hook.fields)).toEqual({ enabled: true });
	});
});
