import { createHash, timingSafeEqual } from 'node:crypto';

import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

/** Headers that carry credentials: the service's secret, and what proxies or clients may add. */
const CREDENTIAL_HEADERS = new Set([
	'notification-secret',
	'authorization',
	'proxy-authorization',
	'cookie',
	'set-cookie',
	'x-api-key',
	'api-key',
	'apikey',
	'merchant-key',
	'merchant-secret',
	'x-auth-token',
	'x-access-token',
	'x-csrf-token',
	'x-xsrf-token',
	'x-amz-security-token',
	'x-goog-iap-jwt-assertion',
	'cf-access-jwt-assertion',
]);

/** Any other name that says it holds a secret, token, password, key, session or signature. */
const CREDENTIAL_NAME = /secret|token|passw|api[-_]?key|auth|session|signature|jwt|cookie/i;

export function isCredentialHeader(name: string): boolean {
	const lower = name.trim().toLowerCase();
	return CREDENTIAL_HEADERS.has(lower) || CREDENTIAL_NAME.test(lower);
}

/** The request headers a workflow may see: every credential header left out. */
export function publicHeaders(headers: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !isCredentialHeader(name)));
}

/** Compares digests so neither the length nor the content of the secret leaks through timing. */
export function sameSecret(given: string, expected: string): boolean {
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(given), digest(expected)) && expected !== '';
}

/** The webhook credential's test: only a delivery from the service can prove the secret itself. */
export async function checkNotificationSecret(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = String(credential.data?.notificationSecret ?? '');
	if (secret === '') return { status: 'Error', message: 'The notification secret is empty' };
	if (secret !== secret.trim()) {
		return { status: 'Error', message: 'The notification secret starts or ends with a space' };
	}
	return { status: 'OK', message: 'Secret set; it is checked on every delivery' };
}
