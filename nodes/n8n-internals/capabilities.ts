/** The typed interface of the door: one function per capability of n8n (see index.ts). */
import type { IWebhookFunctions } from 'n8n-workflow';

import type { DataTableIndex } from './data-table-index';
import type { DataTableRows } from './data-table-rows';
import type { DataTableContext, DataTables } from './data-tables';

import type { ExecutionCheck } from './execution-check';
import type { ExecutionCustomData } from './execution-custom-data';
import type { Capability } from './load';
import type { ProcessedList } from './processed-list';
import type { ProcessedRows } from './processed-rows';
import type { QueueRedis } from './queue-redis';
import type { StoredCredential } from './stored-credential';
import type { TimeOutLook } from './time-out-look';

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
	/** Whether n8n's SSRF protection is switched on (n8n's parsed setting). */
	ssrfSetting(): Promise<Capability<{ enabled: boolean }>>;
	/** Whether n8n's engine passes on every output of a node its webhook resumes. */
	resumeEngine(): Promise<Capability<{ everyOutput: boolean }>>;
	/** A waiting node run again (not passed over) when its wait limit passes. */
	timeOutLook(): Promise<Capability<TimeOutLook>>;
	/** An execution's custom data, read and written at once (n8n's execution metadata). */
	executionCustomData(): Promise<Capability<ExecutionCustomData>>;
	/** n8n's data table service for the node's project, past the helpers' allow-list of n8n's own nodes. */
	dataTables(ctx: DataTableContext): Promise<Capability<DataTables>>;
	/** An index on a column of one of n8n's data tables (n8n gives them none but the id). */
	dataTableIndex(): Promise<Capability<DataTableIndex>>;
	/** Rows of one of n8n's data tables written by id, many in one transaction (n8n's size check first). */
	dataTableRows(ctx: DataTableContext): Promise<Capability<DataTableRows>>;
}
