/**
 * Capability "execution custom data": an execution's custom data (`$execution.customData`) in
 * n8n's execution_metadata table (@n8n/db ExecutionMetadataRepository), read by any process and
 * written at once. n8n itself writes a node's custom data only after it marked the execution
 * finished (ExecutionMetadataService.save after updateExistingExecution), so a process that sees the
 * execution finished could still miss it; written here, it is there before.
 */
import { asFault, found, type Capability, absent } from './load';
import { n8nRepository, type EntityShape } from './repositories';

export const EXECUTION_CUSTOM_DATA = "execution custom data (n8n's execution metadata repository)";

export interface ExecutionCustomData {
	/** The value of `key` in the execution's custom data, or undefined. Rejects with a fault. */
	read(executionId: string, key: string): Promise<string | undefined>;
	/** Writes `key` of the execution's custom data now, as n8n saves it later. Rejects with a fault. */
	write(executionId: string, key: string, value: string): Promise<void>;
}

interface MetadataRepository extends EntityShape {
	findOne(options: {
		where: { executionId: string; key: string };
	}): Promise<{ value?: unknown } | null>;
	upsert(
		rows: Array<{ executionId: string; key: string; value: string }>,
		options: { conflictPaths: { executionId: true; key: true } },
	): Promise<unknown>;
}

let probed: Promise<Capability<ExecutionCustomData>> | undefined;

export async function executionCustomData(): Promise<Capability<ExecutionCustomData>> {
	probed ??= probe().catch(async (error: unknown) => {
		probed = undefined;
		return await Promise.reject(error);
	});
	return await probed;
}

async function probe(): Promise<Capability<ExecutionCustomData>> {
	const repository = await n8nRepository<MetadataRepository>(
		EXECUTION_CUSTOM_DATA,
		'ExecutionMetadataRepository',
		['executionId', 'key', 'value'],
	);
	if (!repository) return absent('no @n8n/db here');
	return found({
		read: async (executionId, key) =>
			await asFault(EXECUTION_CUSTOM_DATA, async () => {
				const row = await repository.findOne({ where: { executionId, key } });
				return row?.value === undefined || row.value === null ? undefined : String(row.value);
			}),
		write: async (executionId, key, value) =>
			await asFault(EXECUTION_CUSTOM_DATA, async () => {
				// As n8n's ExecutionMetadataService.save: one row per execution and key.
				await repository.upsert([{ executionId, key, value }], {
					conflictPaths: { executionId: true, key: true },
				});
			}),
	});
}
