/** The tests' wait helper (test/harness/until.ts): returns what it waited for, fails where it times out. */
import { sleep } from 'n8n-workflow';

import { until, waitFor } from '../harness/until';

describe('waitFor / until', () => {
	it('returns the first value that is done, checking between pauses', async () => {
		let reads = 0;
		const value = await waitFor(
			'the third read',
			() => ++reads,
			(n) => n === 3,
			{ intervalMs: 1 },
		);
		expect(value).toBe(3);
		expect(reads).toBe(3);
		await expect(until('at once', () => true)).resolves.toBeUndefined();
	});

	it('throws on timeout, naming what was awaited, the limit and the last value', async () => {
		let reads = 0;
		const started = Date.now();
		const error = await waitFor(
			'the cursor was saved',
			async () => ({ cursor: null, reads: ++reads }),
			(v) => v.cursor !== null,
			{ timeoutMs: 50, intervalMs: 10 },
		).then(
			() => undefined,
			(e: unknown) => e as Error,
		);
		expect(error).toBeInstanceOf(Error);
		expect(error?.message).toMatch(
			/^Timed out waiting until the cursor was saved \(limit 50 ms; 6 checks over \d+\.\d s\); last value: \{"cursor":null,"reads":6\}$/,
		);
		expect(reads).toBe(6); // at 0, 10, …, 50 ms of pauses
		expect(Date.now() - started).toBeGreaterThanOrEqual(50);
	});

	it('until: no value in the message; the detail is added', async () => {
		await expect(
			until('the webhook was registered', () => false, {
				timeoutMs: 20,
				intervalMs: 10,
				detail: () => '--- main ---\nlog line',
			}),
		).rejects.toThrow(
			/^Timed out waiting until the webhook was registered \(limit 20 ms; 3 checks over \d+\.\d s\)\n--- main ---\nlog line$/,
		);
	});

	it('time spent in slow checks does not shorten the wait', async () => {
		let reads = 0;
		await expect(
			until(
				'never',
				async () => {
					reads++;
					await sleep(30);
					return false;
				},
				{ timeoutMs: 20, intervalMs: 10 },
			),
		).rejects.toThrow(/3 checks/);
		expect(reads).toBe(3);
	});
});
