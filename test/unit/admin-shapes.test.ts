/**
 * The pure shaping of the admin operations (nodes/Grist/admin/): the expiry a service account is
 * created or updated with, the body of an update, and Grist's formula timing as items.
 */
import { DateTime } from 'luxon';

import { timingItems } from '../../nodes/Grist/admin/formulaTimings';
import {
	expiryInstant,
	serviceAccountUpdateBody,
} from '../../nodes/Grist/admin/serviceAccountBodies';
import { InputError } from '../../nodes/Grist/errors/gristAnswers';

describe('expiryInstant', () => {
	it('keeps an instant with an offset, reads a local date or time in the time zone', () => {
		expect(expiryInstant('2027-01-31T12:00:00Z', 'Europe/Paris')).toBe('2027-01-31T12:00:00.000Z');
		expect(expiryInstant('2027-01-31T12:00:00+02:00', 'UTC')).toBe('2027-01-31T10:00:00.000Z');
		expect(expiryInstant('2027-01-31T12:00:00', 'Europe/Paris')).toBe('2027-01-31T11:00:00.000Z');
		expect(expiryInstant('2027-07-01', 'America/New_York')).toBe('2027-07-01T04:00:00.000Z');
		expect(expiryInstant(new Date(Date.UTC(2027, 0, 2)), 'Asia/Tokyo')).toBe(
			'2027-01-02T00:00:00.000Z',
		);
		expect(
			expiryInstant(DateTime.fromISO('2027-03-04T05:06:07', { zone: 'UTC' }), 'Europe/Paris'),
		).toBe('2027-03-04T05:06:07.000Z');
	});

	it('refuses what is not a date, naming the field', () => {
		for (const [value, message] of [
			['', 'Expires At is empty'],
			[null, 'Expires At is empty'],
			['next week', 'Expires At is not a date: "next week"'],
			['2027-02-30', 'Expires At is not a date: "2027-02-30"'],
			[true, 'Expires At is not a date: true'],
		] as const) {
			let error: unknown;
			try {
				expiryInstant(value, 'UTC');
			} catch (e) {
				error = e;
			}
			expect(error).toBeInstanceOf(InputError);
			expect([(error as InputError).message, (error as InputError).field]).toEqual([
				message,
				'Expires At',
			]);
		}
	});
});

describe('serviceAccountUpdateBody', () => {
	it('sends only what is given', () => {
		expect(serviceAccountUpdateBody({ label: 'ci' }, 'UTC')).toEqual({ label: 'ci' });
		expect(
			serviceAccountUpdateBody(
				{ description: 'reads invoices', expiresAt: '2027-01-01T00:00:00Z' },
				'UTC',
			),
		).toEqual({ description: 'reads invoices', expiresAt: '2027-01-01T00:00:00.000Z' });
	});

	it('refuses an empty label or description (Grist would keep the old one) and an empty update', () => {
		expect(() => serviceAccountUpdateBody({ label: '  ' }, 'UTC')).toThrow('Label is empty');
		expect(() => serviceAccountUpdateBody({ description: '' }, 'UTC')).toThrow(
			'Description is empty',
		);
		expect(() => serviceAccountUpdateBody({}, 'UTC')).toThrow('Nothing to update');
		expect(() => serviceAccountUpdateBody({ expiresAt: 'x' }, 'UTC')).toThrow(
			'Expires At is not a date: "x"',
		);
	});
});

describe('timingItems', () => {
	const grist = [
		{ tableId: 'A', colId: 'x', sum: 0.001, count: 2, average: 0.0005, max: 0.0007 },
		{
			tableId: 'B',
			colId: 'y',
			sum: 0.25,
			count: 10,
			average: 0.025,
			max: 0.1,
			marks: [{ name: 'B.y@1=start:OrderError', sum: 0.01, count: 1, average: 0.01, max: 0.01 }],
		},
		{ tableId: 'A', colId: '#lookup#', sum: 0.001, count: 1, average: 0.001, max: 0.001 },
	];

	it('one item per formula column, slowest first, seconds as ms', () => {
		expect(timingItems('doc1', 'stopped', grist)).toEqual([
			{
				documentId: 'doc1',
				status: 'stopped',
				tableId: 'B',
				colId: 'y',
				count: 10,
				totalMs: 250,
				averageMs: 25,
				maxMs: 100,
				marks: [
					{ name: 'B.y@1=start:OrderError', count: 1, totalMs: 10, averageMs: 10, maxMs: 10 },
				],
			},
			// same total: by table, then column
			{
				documentId: 'doc1',
				status: 'stopped',
				tableId: 'A',
				colId: '#lookup#',
				count: 1,
				totalMs: 1,
				averageMs: 1,
				maxMs: 1,
			},
			{
				documentId: 'doc1',
				status: 'stopped',
				tableId: 'A',
				colId: 'x',
				count: 2,
				totalMs: 1,
				averageMs: 0.5,
				maxMs: 0.7,
			},
		]);
	});

	it('rounds to the microsecond and leaves Grist’s list as it was', () => {
		const tiny = [
			{
				tableId: 'T',
				colId: 'B',
				sum: 0.000010967254638671875,
				count: 1,
				average: 0.000010967254638671875,
				max: 0.000010967254638671875,
			},
		];
		expect(timingItems('d', 'active', tiny)[0]).toMatchObject({ totalMs: 0.011, maxMs: 0.011 });
		const copy = JSON.parse(JSON.stringify(grist));
		timingItems('d', 'active', grist);
		expect(grist).toEqual(copy);
	});

	it('one item with the status when there is no column', () => {
		expect(timingItems('d', 'disabled', undefined)).toEqual([
			{ documentId: 'd', status: 'disabled' },
		]);
		expect(timingItems('d', 'stopped', [])).toEqual([{ documentId: 'd', status: 'stopped' }]);
	});
});
