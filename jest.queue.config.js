/** Queue-mode suite (test/e2e/*.queue.ts): real n8n processes on PostgreSQL and Redis, in band. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	// *.queue.ts: neither the unit run (*.test.ts) nor the e2e run (*.e2e.ts) picks these up.
	testMatch: ['**/*.queue.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	maxWorkers: 1,
	testTimeout: 300000,
	slowTestThreshold: 120,
};
