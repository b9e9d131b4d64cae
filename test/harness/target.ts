/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test harness: reads the test mode from the environment */
/**
 * Which Grist the tests run against. `npm test` (and CI): the emulator. `npm run test:real`
 * (scripts/test-real.mjs sets GRIST_TARGET=real): a real Grist server at GRIST_URL, through the
 * facade of ./real-grist (startEmulator returns it in this mode).
 *
 * A test that needs what only the emulator has (a fault it makes itself, a switch, users or team
 * sites with chosen names, its clock, its OAuth server, its webhook internals) is declared with
 * `emulatorOnly(reason)`:
 * ```ts
 * emulatorOnly('the emulator answers 429 at its own per-document limit').it('…', async () => …);
 * emulatorOnly('the OAuth server is the emulator’s').describe('…', () => …);
 * ```
 * With the emulator it is an ordinary `it` / `describe`. Against a real Grist it is skipped, its
 * title carrying `[emulator only: <reason>]`, and summary-reporter.cjs lists every such test with
 * its reason and counts them at the end of the run: never a silent skip.
 */

/** True when the suite runs against a real Grist server (GRIST_TARGET=real). */
export const realGrist = process.env.GRIST_TARGET === 'real';

/** The title suffix summary-reporter.cjs looks for (keep the two in step). */
export const EMULATOR_ONLY_TAG = '[emulator only: ';

type TestFn = (name: string, fn?: jest.ProvidesCallback, timeout?: number) => void;
type DescribeFn = (name: string, fn: jest.EmptyFunction) => void;

export interface EmulatorOnly {
	it: TestFn;
	test: TestFn;
	describe: DescribeFn;
}

/** `it` / `describe` that run with the emulator and are skipped, with `reason`, against a real Grist. */
export function emulatorOnly(reason: string): EmulatorOnly {
	if (!realGrist) return { it, test, describe };
	const title = (name: string) => `${name} ${EMULATOR_ONLY_TAG}${reason}]`;
	// Jest's own skip, chosen by the mode: the test is reported as skipped, never as passed.
	const skipTest = it.skip;
	const skipDescribe = describe.skip;
	const skipped: TestFn = (name, fn, timeout) => skipTest(title(name), fn, timeout);
	return {
		it: skipped,
		test: skipped,
		describe: (name, fn) => skipDescribe(title(name), fn),
	};
}

/**
 * A workspace's name as seeding made it (`addWorkspace`, `seedDemo`'s Sales and Projects): the
 * test's name with the emulator; with a real Grist, the run's prefix and that name
 * (`n8nt-<time>-<random> Sales`, so the run's sweep finds it).
 */
export function workspaceName(name: string): string {
	return realGrist ? `${process.env.GRIST_RUN_PREFIX} ${name}` : name;
}
