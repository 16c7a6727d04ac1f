/** Real-n8n end-to-end suite (test/e2e): one n8n at a time, so in band, with long timeouts. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	// *.e2e.ts, not *.test.ts: the unit run (jest.config.js) must not pick these up.
	testMatch: ['**/*.e2e.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	maxWorkers: 1,
	testTimeout: 120000,
	slowTestThreshold: 60,
};
