import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, InstanceSettings } from 'n8n-core';

let ready: Promise<void> | undefined;

/**
 * One-time n8n-core setup for this module registry (jest gives every test file its own).
 * InstanceSettings insists on writing `<N8N_USER_FOLDER>/.n8n/config`, so it gets a throwaway
 * folder that is removed again once everything that reads it has been constructed.
 */
export async function ensureEnvironment(): Promise<void> {
	ready ??= setUp();
	return await ready;
}

async function setUp(): Promise<void> {
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_USER_FOLDER = userFolder;
	// The ErrorReporter logs every failing node at error level; keep test output readable.
	process.env.N8N_LOG_LEVEL ??= 'silent';
	try {
		Container.get(InstanceSettings);
		// 'default' keeps binary data base64-encoded inside the items (no filesystem store).
		Container.get(BinaryDataConfig).mode = 'default';
		await Container.get(BinaryDataService).init();
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
}
