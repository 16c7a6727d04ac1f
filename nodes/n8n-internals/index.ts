/**
 * The one door to n8n beyond n8n-workflow. Every use of n8n's own modules (@n8n/di, @n8n/config,
 * @n8n/db, n8n-core, ioredis from n8n's install) or of private fields of n8n's objects lives in this
 * folder, one capability per function, each probed before use:
 * - found: used;
 * - absent (outside n8n, regular mode, not set up): the caller's documented mode without it;
 * - changed (a renamed setting, a missing repository, another table): rejects with an
 *   N8nInternalsError naming the capability and the n8n release.
 * test/unit/n8n-internals/door.test.ts refuses such imports and reaches anywhere else, and checks the package
 * scanner's declared exceptions (scripts/scan-package.mjs) name files of this folder only.
 */
import type { N8nInternals } from './capabilities';
import { dataTableIndex } from './data-table-index';
import { dataTableRows } from './data-table-rows';
import { dataTables } from './data-tables';
import { executionCheck } from './execution-check';
import { executionCustomData } from './execution-custom-data';
import { n8nVersion } from './load';
import { processedList } from './processed-list';
import { processedRows } from './processed-rows';
import { queueRedis } from './queue-redis';
import { resumeEngine } from './resume-engine';
import { ssrfProtectionOn, ssrfSetting } from './ssrf-setting';
import { storedCredential } from './stored-credential';
import { timeOutLook } from './time-out-look';

export type { N8nInternals } from './capabilities';
export { N8nInternalsError, type Capability } from './load';
export type { DataTableContext, DataTables } from './data-tables';
export type { DataTableIndex } from './data-table-index';
export type { DataTableRows, RowUpdate } from './data-table-rows';
export type { ExecutionCheck } from './execution-check';
export type { ExecutionCustomData } from './execution-custom-data';
export type { ListScope, ProcessedList } from './processed-list';
export type { ProcessedRows, RowScope } from './processed-rows';
export type { QueueRedis } from './queue-redis';
export type { StoredCredential } from './stored-credential';
export type { TimeOutLook, WaitingNode } from './time-out-look';

export const n8nInternals: N8nInternals = {
	version: n8nVersion,
	queueRedis,
	executionCheck,
	processedRows,
	processedList,
	storedCredential,
	resumeEngine,
	ssrfSetting,
	timeOutLook,
	executionCustomData,
	dataTables,
	dataTableIndex,
	dataTableRows,
};

export { ssrfProtectionOn };

export { fieldFromParameter } from './webhook-fields';

export { waitingAnswer, type WaitingAnswer } from './waiting-answers';

export { reportOnce, exactlyOnceMode, exactlyOnceProblem, type ExactlyOnceMode } from './report';
