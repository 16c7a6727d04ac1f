export interface MultipartPart {
	name: string;
	/** Set for file parts. */
	filename?: string;
	contentType?: string;
	/** Lower-case header names. */
	headers: Record<string, string>;
	data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
	if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
	const found = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	return found ? (found[1] ?? found[2]) : undefined;
}

/**
 * Minimal multipart/form-data parser (RFC 7578), enough for uploads of a few MB. Returns
 * undefined when the content type is not multipart or the body is not well formed.
 */
export function parseMultipart(
	body: Buffer,
	contentType: string | undefined,
): MultipartPart[] | undefined {
	const boundary = boundaryOf(contentType);
	if (!boundary) return undefined;
	const delimiter = Buffer.from(`--${boundary}`);
	const parts: MultipartPart[] = [];
	let at = body.indexOf(delimiter);
	if (at < 0) return undefined;
	for (;;) {
		at += delimiter.length;
		if (body.subarray(at, at + 2).toString() === '--') return parts;
		if (body.subarray(at, at + 2).toString() !== '\r\n') return undefined;
		const headerEnd = body.indexOf('\r\n\r\n', at);
		if (headerEnd < 0) return undefined;
		const dataStart = headerEnd + 4;
		// The part's data ends at the CRLF before the next delimiter.
		const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), dataStart);
		if (next < 0) return undefined;
		const headers: Record<string, string> = {};
		for (const line of body
			.subarray(at + 2, headerEnd)
			.toString('utf8')
			.split('\r\n')) {
			const colon = line.indexOf(':');
			if (colon < 1) continue;
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const disposition = headers['content-disposition'] ?? '';
		const name = /(?:^|;)\s*name="([^"]*)"/i.exec(disposition)?.[1];
		if (name === undefined) return undefined;
		parts.push({
			name,
			filename: /;\s*filename="([^"]*)"/i.exec(disposition)?.[1],
			contentType: headers['content-type'],
			headers,
			data: body.subarray(dataStart, next),
		});
		at = next + 2;
	}
}
