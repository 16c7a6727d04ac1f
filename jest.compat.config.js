/** Compatibility run (scripts/test-compat.sh): the real-n8n suites' subset, one n8n at a time. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	// The files test/compat/features.js names: *.e2e.ts, and queue mode's *.queue.ts on the ends.
	testMatch: ['**/*.e2e.ts', '**/*.queue.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	maxWorkers: 1,
	testTimeout: 300000,
	slowTestThreshold: 120,
};
