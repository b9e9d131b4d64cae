/**
 * Changes: Exact of the Grist Instant Trigger, its pure parts: the state save that the trigger
 * sends to its own webhook URL (told from Grist's deliveries, moving the state only from the state
 * it started from), and `_change` of rows as Grist sent them.
 */
import {
	applyStateSave,
	isStateSave,
	sentChange,
} from '../../nodes/GristWebhookTrigger/exactChanges';
import type { Stored } from '../../nodes/GristWebhookTrigger/webhookRegistration';

const save = (from: string, n: number, h: string) => ({
	gristTriggerState: { from, to: { n, h } },
});

describe('the state save', () => {
	it('is told from a Grist delivery (an array of rows) and from other bodies', () => {
		expect(isStateSave(save('a', 2, 'b'))).toBe(true);
		expect(isStateSave([{ id: 1, gristTriggerState: {} }])).toBe(false);
		expect(isStateSave({ gristTriggerState: { from: 'a', to: { h: 'b' } } })).toBe(false);
		expect(isStateSave(null)).toBe(false);
		expect(isStateSave('x')).toBe(false);
	});

	it('moves the state from the one it started from, and refuses when another delivery moved it', () => {
		const data: Stored = { changes: { n: 1, h: 'a' } };
		expect(applyStateSave(data, save('a', 2, 'b'))).toEqual({ saved: true });
		expect(data.changes).toEqual({ n: 2, h: 'b' });
		// a delivery that started from "a" too (a repeat, or one that met this one)
		expect(applyStateSave(data, save('a', 3, 'c'))).toEqual({
			saved: false,
			current: { n: 2, h: 'b' },
		});
		expect(data.changes).toEqual({ n: 2, h: 'b' });
		// a renamed table is kept with the state
		applyStateSave(data, { gristTriggerState: { from: 'b', to: { n: 4, h: 'd', table: 'T2' } } });
		expect(data.changes).toEqual({ n: 4, h: 'd', table: 'T2' });
	});
});

it('rows as Grist sent them: _change.type from Trigger On', () => {
	expect(sentChange('add')).toEqual({ type: 'added' });
	expect(sentChange('update')).toEqual({ type: 'updated' });
	expect(sentChange('addOrUpdate')).toEqual({ type: 'addedOrUpdated' });
});
