import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
} from 'n8n-workflow';

/**
 * n8n's processed-data store as its DeduplicationHelper keeps it in mode "entries" (packages/cli,
 * deduplication-helper.ts): one record per workflow and context ('' or `n:<node id>`), MD5 hashes
 * in insertion order, new values appended, the oldest cut at maxEntries, a removal by first match;
 * each call reads the record, waits `delayMs` (the database round trip) and writes it back, with no
 * lock, as n8n does. `failNext` makes the next calls fail as a locked database would.
 */
class MemoryProcessedData implements IDataDeduplicator {
	readonly records = new Map<string, string[]>();

	delayMs = 0;

	failNext = 0;

	calls = 0;

	private async roundTrip(): Promise<void> {
		if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
		if (this.failNext > 0) {
			this.failNext -= 1;
			throw new Error('database is locked');
		}
	}

	private key(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		const context = scope === 'node' ? `n:${contextData.node?.id}` : '';
		if (!contextData.workflow.id) throw new Error('The workflow has no ID');
		return `${contextData.workflow.id}|${context}`;
	}

	private static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(String(value)).digest('base64');
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	) {
		this.calls += 1;
		const key = this.key(scope, contextData);
		const stored = [...(this.records.get(key) ?? [])];
		await this.roundTrip();
		const seen = new Set(stored);
		const result = {
			new: [] as DeduplicationItemTypes[],
			processed: [] as DeduplicationItemTypes[],
		};
		for (const item of items) {
			const hash = MemoryProcessedData.hash(item);
			if (seen.has(hash)) result.processed.push(item);
			else {
				result.new.push(item);
				stored.push(hash);
			}
		}
		if (options.maxEntries) stored.splice(0, stored.length - options.maxEntries);
		this.records.set(key, stored);
		return result;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	) {
		const key = this.key(scope, contextData);
		const stored = [...(this.records.get(key) ?? [])];
		await this.roundTrip();
		for (const item of items) {
			const index = stored.indexOf(MemoryProcessedData.hash(item));
			if (index !== -1) stored.splice(index, 1);
		}
		this.records.set(key, stored);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		this.records.delete(this.key(scope, contextData));
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		return this.records.get(this.key(scope, contextData))?.length ?? 0;
	}
}

/** The store of this test file (jest gives each file its own n8n-core). */
export const processedData = new MemoryProcessedData();

/** n8n's processed-data service, as n8n's start, webhook and worker commands set it up. */
export async function ensureProcessedData(): Promise<void> {
	try {
		DataDeduplicationService.getInstance();
	} catch {
		await DataDeduplicationService.init(processedData);
	}
}
