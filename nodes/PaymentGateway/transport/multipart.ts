import { randomBytes } from 'node:crypto';

export type MultipartPart =
	| { name: string; value: string }
	| { name: string; fileName: string; contentType: string; data: Buffer };

const quote = (text: string) => text.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));

/**
 * Encodes multipart/form-data into one Buffer. A Buffer (unlike a stream) can be sent again, so
 * retries and the bearer-token refresh after a 401 can resend the same upload.
 */
export function encodeMultipart(parts: MultipartPart[]): { body: Buffer; contentType: string } {
	const boundary = `----n8nPaymentGateway${randomBytes(12).toString('hex')}`;
	const chunks: Buffer[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"`;
		if ('data' in part) {
			head += `; filename="${quote(part.fileName)}"\r\nContent-Type: ${part.contentType}\r\n\r\n`;
			chunks.push(Buffer.from(head, 'utf8'), part.data, Buffer.from('\r\n'));
		} else {
			chunks.push(Buffer.from(`${head}\r\n\r\n${part.value}\r\n`, 'utf8'));
		}
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A text field of a multipart body. */
export const textPart = (name: string, value: string): MultipartPart => ({ name, value });

/**
 * The text fields of a multipart body from a flat wire body (a field table's toWire), in its order:
 * the table names the fields, as it does for JSON bodies. Empty values are sent as ''.
 */
export function formParts(body: Record<string, unknown>): MultipartPart[] {
	return Object.entries(body).map(([name, value]) =>
		textPart(name, value === undefined || value === null ? '' : String(value)),
	);
}
