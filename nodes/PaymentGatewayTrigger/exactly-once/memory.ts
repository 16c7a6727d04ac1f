/**
 * Regular mode's first layer, always asked first: process memory, per workflow and node. Checked
 * and recorded without an `await` in between, so within one n8n process no two deliveries of one
 * key can both pass, however many arrive at once.
 */
export interface DeliveryScope {
	workflowId: string;
	nodeId: string;
}

export interface MemoryLimits {
	/** How long memory remembers a key. */
	windowMs: number;
	/** Keys kept (oldest dropped first). */
	maxEntries: number;
}

const memory = new Map<string, Map<string, number>>();

export const scopeKey = (scope: DeliveryScope) => `${scope.workflowId}\u0000${scope.nodeId}`;

/**
 * Records `key` in process memory unless it is already there (within the window). Synchronous on
 * purpose: JavaScript runs it to the end before any other delivery's webhook call continues.
 */
export function claimInMemory(
	scope: DeliveryScope,
	key: string,
	now: number,
	limits: MemoryLimits,
): boolean {
	let seen = memory.get(scopeKey(scope));
	if (!seen) memory.set(scopeKey(scope), (seen = new Map()));
	const at = seen.get(key);
	if (at !== undefined && now - at <= limits.windowMs) return false;
	seen.delete(key);
	seen.set(key, now);
	// Map keeps insertion order: the first keys are the oldest.
	for (const [old, when] of seen) {
		if (seen.size <= limits.maxEntries && now - when <= limits.windowMs) break;
		seen.delete(old);
	}
	return true;
}

/** Forgets a claim whose delivery could not be recorded, so the service's retry is not dropped. */
export function releaseInMemory(scope: DeliveryScope, key: string): void {
	memory.get(scopeKey(scope))?.delete(key);
}
