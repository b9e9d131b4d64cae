/**
 * Waiting in tests for something that happens in the background (n8n activating a workflow,
 * a webhook delivery, a request reaching the emulator): check, pause, check again. On timeout
 * it throws an Error naming what was awaited and how long it waited, so a failing test points
 * at the wait, not at an assertion after it.
 *
 * The limit counts the pauses between checks: time spent in slow checks (a loaded machine) never
 * shortens the wait.
 */
import { sleep } from 'n8n-workflow';

export interface WaitOptions {
	/** The pauses between checks add up to at most this many ms (default 30 s). */
	timeoutMs?: number;
	/** The pause between two checks in ms (default 100). */
	intervalMs?: number;
	/** Text added to the timeout error (process logs, deliveries…), read only on timeout. */
	detail?: () => string;
}

function preview(value: unknown): string {
	let text: string;
	try {
		text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	} catch {
		text = String(value);
	}
	return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/**
 * Reads `read()` until `done(value)` holds and returns that value. `what` says what is awaited
 * ("the activation poll saved a cursor"); the timeout error quotes it with the last value read.
 */
export async function waitFor<T>(
	what: string,
	read: () => T | Promise<T>,
	done: (value: T) => boolean,
	{ timeoutMs = 30_000, intervalMs = 100, detail }: WaitOptions = {},
): Promise<T> {
	const started = Date.now();
	for (let waited = 0, checks = 1; ; waited += intervalMs, checks++) {
		const value = await read();
		if (done(value)) return value;
		if (waited >= timeoutMs) {
			const seconds = ((Date.now() - started) / 1000).toFixed(1);
			const last = typeof value === 'boolean' ? '' : `; last value: ${preview(value)}`;
			const more = detail ? `\n${detail()}` : '';
			throw new Error(
				`Timed out waiting until ${what} (limit ${timeoutMs} ms; ${checks} checks over ${seconds} s)${last}${more}`,
			);
		}
		await sleep(intervalMs);
	}
}

/** Checks `check()` until it holds; the timeout error names `what`. */
export async function until(
	what: string,
	check: () => boolean | Promise<boolean>,
	options?: WaitOptions,
): Promise<void> {
	await waitFor(what, check, (ok) => ok, options);
}
