/** One request as the sandbox received it. */
export interface RequestLogEntry {
	method: string;
	/** Path without the query string. */
	path: string;
	query: Record<string, string>;
	/** Lower-case names; repeated headers joined with ', '. */
	headers: Record<string, string>;
	body: Buffer;
	/** Arrival time, epoch ms. */
	time: number;
	/** The client's port: requests with the same one came over the same connection. */
	connection: number;
}

/** JSON-friendly form for out-of-process clients (GET /__sandbox/requests). */
export function serializeLogEntry(entry: RequestLogEntry) {
	return {
		...entry,
		body: entry.body.toString('utf8'),
		bodyBase64: entry.body.toString('base64'),
	};
}
