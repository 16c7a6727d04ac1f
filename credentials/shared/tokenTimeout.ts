/**
 * The node's Timeout for the payout token request. n8n asks for the token inside the node's own
 * request and passes the credential only, so the node leaves its Timeout here, under the token's
 * binding (Payout URL and key), just before each payout request.
 */
const timeouts = new Map<string, number>();

/** Bounds the map: one entry per Payout URL and key in use. */
const MAX_ENTRIES = 1000;

export function setTokenTimeout(binding: string, timeoutMs: number): void {
	if (!timeouts.has(binding) && timeouts.size >= MAX_ENTRIES) timeouts.clear();
	timeouts.set(binding, timeoutMs);
}

export function tokenTimeout(binding: string): number | undefined {
	return timeouts.get(binding);
}
