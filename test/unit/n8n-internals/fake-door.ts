// n8n's internals as a given n8n offers them, for the trigger's unit tests: every capability
// absent unless given (as outside n8n), or given as a value or as an error (a changed n8n).
import type { Capability, N8nInternals } from '../../../nodes/n8n-internals';

type Given<T> = T | Error | undefined;

const as = async <T>(given: Given<T>, why: string): Promise<Capability<T>> => {
	if (given instanceof Error) throw given;
	return given === undefined ? { found: false, why } : { found: true, use: given };
};

type Use<K extends keyof N8nInternals> =
	Awaited<ReturnType<N8nInternals[K]>> extends Capability<infer T> ? T : never;

export function fakeDoor(given: {
	queueRedis?: Given<Use<'queueRedis'>>;
	executionCheck?: Given<Use<'executionCheck'>>;
	processedRows?: Given<object>;
	processedList?: Given<Use<'processedList'>>;
	executionCustomData?: Given<Use<'executionCustomData'>>;
}): N8nInternals {
	return {
		version: async () => 'n8n 9.9.9',
		queueRedis: async () => await as(given.queueRedis, 'regular mode'),
		executionCheck: async () => await as(given.executionCheck, 'no @n8n/db here'),
		processedRows: (async () =>
			await as(given.processedRows, 'no @n8n/db here')) as N8nInternals['processedRows'],
		processedList: async () => await as(given.processedList, 'not set up'),
		storedCredential: () => ({ found: false, why: 'not asked' }),
		resumeEngine: async () => ({ found: false, why: 'not asked' }),
		ssrfSetting: async () => ({ found: false, why: 'not asked' }),
		timeOutLook: async () => ({ found: false, why: 'not asked' }),
		executionCustomData: async () => await as(given.executionCustomData, 'no @n8n/db here'),
		dataTables: async () => ({ found: false, why: 'not asked' }),
		dataTableIndex: async () => ({ found: false, why: 'not asked' }),
		dataTableRows: async () => ({ found: false, why: 'not asked' }),
	};
}

/** Database rows that take every claim (a found "database rows" capability). */
export const acceptingRows = {
	insert: async () => true,
	read: async () => undefined,
	update: async () => undefined,
	delete: async () => undefined,
	deleteOlder: async () => undefined,
};
