/**
 * The one door to n8n beyond n8n-workflow. Every use of n8n's own modules (@n8n/di, @n8n/config,
 * @n8n/db, n8n-core, ioredis from n8n's install) or of private fields of n8n's objects lives in this
 * folder, one capability per function, each probed before use:
 * - found: used;
 * - absent (outside n8n, regular mode, not set up): the caller's documented mode without it;
 * - changed (a renamed setting, a missing repository, another table): rejects with an
 *   N8nInternalsError naming the capability and the n8n release.
 * test/unit/n8n-door.test.ts refuses such imports and reaches anywhere else, and checks the package
 * scanner's declared exceptions (scripts/scan-package.mjs) name files of this folder only.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { executionCheck, type ExecutionCheck } from './execution-check';
import { n8nVersion, type Capability } from './load';
import { processedList, type ProcessedList } from './processed-list';
import { processedRows, type ProcessedRows } from './processed-rows';
import { queueRedis, type QueueRedis } from './queue-redis';
import { resumeEngine } from './resume-engine';
import { storedCredential, type StoredCredential } from './stored-credential';

export { N8nInternalsError, type Capability } from './load';
export type { ExecutionCheck } from './execution-check';
export type { ListScope, ProcessedList } from './processed-list';
export type { ProcessedRows, RowKey } from './processed-rows';
export type { QueueRedis } from './queue-redis';
export type { StoredCredential } from './stored-credential';

export interface N8nInternals {
	/** "n8n 2.41.1" (n8n-core's version outside n8n). */
	version(): Promise<string>;
	/** n8n's queue Redis; absent in regular mode. */
	queueRedis(): Promise<Capability<QueueRedis>>;
	/** Whether an execution carrying a delivery exists (n8n's execution repository). */
	executionCheck(): Promise<Capability<ExecutionCheck>>;
	/** One row per key in n8n's processed_data table. */
	processedRows<V extends object>(): Promise<Capability<ProcessedRows<V>>>;
	/** n8n's processed-data list (the Remove Duplicates node's store). */
	processedList(): Promise<Capability<ProcessedList>>;
	/** A node's credential as stored, without n8n's expression step. */
	storedCredential(ctx: IWebhookFunctions): Capability<StoredCredential>;
	/** Whether n8n's engine passes on every output of a node its webhook resumes. */
	resumeEngine(): Promise<Capability<{ everyOutput: boolean }>>;
}

export const n8nInternals: N8nInternals = {
	version: n8nVersion,
	queueRedis,
	executionCheck,
	processedRows,
	processedList,
	storedCredential,
	resumeEngine,
};

export { reportOnce, exactlyOnceMode, type ExactlyOnceMode } from './report';
