/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	testTimeout: 30000,
	// default output, plus the counts for .ci/run when GRIST_JEST_RESULTS is set
	reporters: ['default', '<rootDir>/test/harness/summary-reporter.cjs'],
};
