/**
 * Capability "processed-data list": n8n-core's DataDeduplicationService (what the Remove Duplicates
 * node uses): one record per trigger holding its last keys, read and written whole. n8n initialises
 * it in `start`, `webhook` and `worker` (BaseCommand.initDataDeduplicationService).
 */
import { absent, asFault, changed, found, isAbsent, loadModule, type Capability } from './load';

export const PROCESSED_LIST = "processed-data list (n8n-core's DataDeduplicationService)";

export interface ListScope {
	workflowId: string;
	nodeId: string;
	nodeName: string;
}

export interface ProcessedList {
	/** Records the keys not there yet (keeping the newest `maxEntries`); returns those. */
	checkAndRecord(keys: string[], scope: ListScope, maxEntries: number): Promise<Set<string>>;
	remove(keys: string[], scope: ListScope): Promise<void>;
}

type Context = { workflow: { id: string }; node: { id: string; name: string } };
interface DeduplicationService {
	checkProcessedAndRecord(
		items: string[],
		scope: 'node',
		contextData: Context,
		options: { mode: 'entries'; maxEntries?: number },
	): Promise<{ new: unknown[]; processed: unknown[] }>;
	removeProcessed(
		items: string[],
		scope: 'node',
		contextData: Context,
		options: { mode: 'entries' },
	): Promise<void>;
}

const context = (scope: ListScope): Context => ({
	workflow: { id: scope.workflowId },
	node: { id: scope.nodeId, name: scope.nodeName },
});

export async function processedList(): Promise<Capability<ProcessedList>> {
	const core = await loadModule('n8n-core', async () => await import('n8n-core'));
	if (isAbsent(core)) return absent('no n8n-core here');
	const Service = (core as { DataDeduplicationService?: { getInstance?: unknown } })
		.DataDeduplicationService;
	if (typeof Service?.getInstance !== 'function')
		return await changed(PROCESSED_LIST, 'n8n-core has no DataDeduplicationService.getInstance');
	let service: DeduplicationService;
	try {
		service = (Service.getInstance as () => DeduplicationService)();
	} catch (error) {
		// n8n did not set it up in this process (a command that does not, or a test harness).
		return absent(`not set up (${(error as Error).message})`);
	}
	if (
		typeof service.checkProcessedAndRecord !== 'function' ||
		typeof service.removeProcessed !== 'function'
	)
		return await changed(PROCESSED_LIST, 'checkProcessedAndRecord or removeProcessed missing');
	return found({
		checkAndRecord: async (keys, scope, maxEntries) =>
			await asFault(PROCESSED_LIST, async () => {
				const result = await service.checkProcessedAndRecord(keys, 'node', context(scope), {
					mode: 'entries',
					maxEntries,
				});
				return new Set(result.new.map(String));
			}),
		remove: async (keys, scope) =>
			await asFault(
				PROCESSED_LIST,
				async () =>
					await service.removeProcessed(keys, 'node', context(scope), { mode: 'entries' }),
			),
	});
}
