// A jest reporter that writes the run's counts as JSON ({ passed, failed }) to the file named by
// GRIST_JEST_RESULTS, when set (.ci/run sets it; `npm test` itself is unchanged). Suites that could
// not run (syntax or type errors, a failing beforeAll outside tests) count as one failure each, and
// a run that executed no test counts as failed.
//
// Against a real Grist (GRIST_TARGET=real, `npm run test:real`) it also prints, at the end, every
// test skipped in that mode with its reason (the `[emulator only: <reason>]` that
// test/harness/target.ts puts in the title of the test or of its describe block) and the counts,
// and appends them as one JSON line to GRIST_REAL_RESULTS when set (scripts/test-real.mjs adds up
// the levels). A skipped test without that tag is listed too, as skipped without a reason.
'use strict';
const { appendFileSync, writeFileSync } = require('node:fs');
const { relative } = require('node:path');

const TAG = /\[emulator only: (.*)\]$/;

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failed =
			results.numFailedTests +
			results.numRuntimeErrorTestSuites +
			(results.numTotalTests === 0 ? 1 : 0);
		const file = process.env.GRIST_JEST_RESULTS;
		if (file) writeFileSync(file, JSON.stringify({ passed: results.numPassedTests, failed }));
		if (process.env.GRIST_TARGET === 'real') this.realSummary(results, failed);
	}

	realSummary(results, failed) {
		const skipped = [];
		const failures = [];
		for (const suite of results.testResults) {
			const where = relative(process.cwd(), suite.testFilePath);
			if (suite.testExecError)
				failures.push(
					`${where}: the file did not run (${suite.testExecError.message.split('\n')[0]})`,
				);
			for (const t of suite.testResults) {
				const titles = [...t.ancestorTitles, t.title];
				const name = `${where} › ${titles.map((x) => x.replace(TAG, '').trim()).join(' › ')}`;
				if (t.status === 'failed') failures.push(name);
				if (t.status !== 'pending' && t.status !== 'skipped' && t.status !== 'todo') continue;
				const tagged = titles.map((x) => x.match(TAG)).find(Boolean);
				skipped.push({ name, reason: tagged ? tagged[1] : '(skipped without a reason)' });
			}
		}
		const lines = [
			'',
			`Real Grist (${process.env.GRIST_URL ?? '?'}): ${results.numPassedTests} passed, ${skipped.length} skipped as emulator-only, ${failed} failed`,
		];
		if (skipped.length) {
			lines.push('Skipped against a real Grist (test › reason):');
			for (const s of skipped) lines.push(`  - ${s.name} — ${s.reason}`);
		}
		if (failures.length) {
			lines.push('Failed:');
			for (const f of failures) lines.push(`  - ${f}`);
		}
		process.stdout.write(`${lines.join('\n')}\n`);
		const out = process.env.GRIST_REAL_RESULTS;
		if (out)
			appendFileSync(
				out,
				`${JSON.stringify({ passed: results.numPassedTests, skipped, failed, failures })}\n`,
			);
	}
}

module.exports = SummaryReporter;
