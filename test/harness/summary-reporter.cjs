// A jest reporter that writes the run's counts as JSON ({ passed, failed }) to the file named by
// GRIST_JEST_RESULTS, when set (.ci/run sets it; `npm test` itself is unchanged). Suites that could
// not run (syntax or type errors, a failing beforeAll outside tests) count as one failure each, and
// a run that executed no test counts as failed.
'use strict';
const { writeFileSync } = require('node:fs');

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const file = process.env.GRIST_JEST_RESULTS;
		if (!file) return;
		const failed =
			results.numFailedTests +
			results.numRuntimeErrorTestSuites +
			(results.numTotalTests === 0 ? 1 : 0);
		writeFileSync(file, JSON.stringify({ passed: results.numPassedTests, failed }));
	}
}

module.exports = SummaryReporter;
